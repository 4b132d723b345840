import { ConfigError, boolean, durationMs, list, type Env } from './parse.js';

/** Seconds to wait after each failed attempt: exponential, about 24 hours in all (docs/webhooks.md). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800];

/** Webhook delivery (docs/webhooks.md). */
export interface WebhooksConfig {
  /** CUTROOM_WEBHOOKS_ALLOW_PRIVATE: endpoints on loopback, private and link-local addresses. Default false. */
  allowPrivate: boolean;
  /** CUTROOM_WEBHOOK_TIMEOUT_MS: how long an endpoint has to answer (its headers; then its body's idle time). Default 10 s. */
  timeoutMs: number;
  /** CUTROOM_WEBHOOK_RETRY_SCHEDULE: seconds before each retry after a failed attempt, comma-separated. */
  retrySchedule: number[];
}

function schedule(env: Env): number[] {
  const entries = list(env, 'CUTROOM_WEBHOOK_RETRY_SCHEDULE');
  if (entries.length === 0) return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  const seconds = entries.map(Number);
  if (entries.length > 50 || seconds.some((s) => !Number.isFinite(s) || s < 0 || s > 7 * 86_400)) {
    throw new ConfigError(
      `CUTROOM_WEBHOOK_RETRY_SCHEDULE must be up to 50 comma-separated delays in seconds, each 0 to 604800 (got "${env.CUTROOM_WEBHOOK_RETRY_SCHEDULE}")`,
    );
  }
  return seconds;
}

/** Reads CUTROOM_WEBHOOKS_ALLOW_PRIVATE, CUTROOM_WEBHOOK_TIMEOUT_MS, CUTROOM_WEBHOOK_RETRY_SCHEDULE. Throws ConfigError. */
export function loadWebhooksConfig(env: Env): WebhooksConfig {
  return {
    allowPrivate: boolean(env, 'CUTROOM_WEBHOOKS_ALLOW_PRIVATE', false, { loose: true }),
    timeoutMs: durationMs(env, 'CUTROOM_WEBHOOK_TIMEOUT_MS', { fallback: 10_000, min: 100, max: 60_000 }),
    retrySchedule: schedule(env),
  };
}
