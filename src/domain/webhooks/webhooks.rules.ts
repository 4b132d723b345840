import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook rules (pure): the Standard Webhooks signature, secrets, the retry schedule's next attempt (the
 * schedule itself is a setting: src/config/webhooks.env.ts).
 * https://www.standardwebhooks.com/ — the SDK's `verifyWebhook` checks what `signWebhook` makes.
 */

/** Most endpoints a workspace may have. */
export const MAX_ENDPOINTS_PER_WORKSPACE = 10;

/** Characters of an answer's body kept on the delivery (the rest is never read). */
export const RESPONSE_EXCERPT_CHARS = 1024;

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of a body: `v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>`,
 * keyed with the secret's base64-decoded bytes (after `whsec_`).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt (Standard Webhooks), signed at `now`. */
export function webhookHeaders(secret: string, eventId: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, eventId, timestamp, body),
  };
}

/**
 * After failed attempt number `attempts` (1-based): when to try again, or null when the schedule is
 * spent (the delivery fails).
 */
export function nextAttemptAt(attempts: number, now: Date, schedule: readonly number[]): Date | null {
  const delay = schedule[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay * 1000);
}

/** The JSON body of an event: `{ id, type, timestamp, workspace_id, data }`. */
export function eventBody(e: { id: string; type: string; workspaceId: string; data: Record<string, unknown>; at: Date }): string {
  return JSON.stringify({ id: e.id, type: e.type, timestamp: e.at.toISOString(), workspace_id: e.workspaceId, data: e.data });
}
