export interface RateWindow {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
}

/** Fixed 60-second windows, counted per bucket (a key, a key + route group, an address). */
export interface RateLimiter {
  hit(bucket: string, now?: number): Promise<RateWindow>;
  /** The current window of `bucket` without counting a request (count 0 when nothing was counted in it). */
  peek(bucket: string, now?: number): Promise<RateWindow>;
  /** Drops the windows older than the previous one (job maintenance.purge). */
  purgeExpired(now?: number): Promise<void>;
}

export const WINDOW_MS = 60_000;

export function windowStart(now: number): number {
  return Math.floor(now / WINDOW_MS) * WINDOW_MS;
}
