import { url, type Env } from './parse.js';

/** Settings of paid work (docs/configuration.md). */
export interface BillingConfig {
  /**
   * CUTROOM_TOP_UP_URL: where a caller buys credits; answered as `top_up_url` in the 402
   * INSUFFICIENT_CREDITS of persona and generation calls (spec: Errors). Unset: `top_up_url` is null.
   */
  topUpUrl: string | null;
}

/** Reads CUTROOM_TOP_UP_URL (an absolute http(s) URL). Throws ConfigError on a bad value. */
export function loadBillingConfig(env: Env): BillingConfig {
  return { topUpUrl: url(env, 'CUTROOM_TOP_UP_URL') ?? null };
}
