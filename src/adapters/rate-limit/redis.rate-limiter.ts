import type { Redis } from 'ioredis';
import { WINDOW_MS, windowStart, type RateLimiter, type RateWindow } from '../../ports/rate-limiter.js';

/**
 * Distributed mode with CUTROOM_REDIS_URL: one Redis counter per bucket and window, shared by every
 * api process. A hit is INCR and PEXPIRE in one MULTI (one round trip, atomic), so each process sees
 * the exact count; no database row is written per request.
 */
export class RedisRateLimiter implements RateLimiter {
  /** `prefix` starts every key (tests give each run its own). */
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'cutroom:rate:',
  ) {}

  async hit(bucket: string, now = Date.now()): Promise<RateWindow> {
    const start = windowStart(now);
    const key = `${this.prefix}${bucket}:${start}`;
    // The key names its window, so it is read only during it; Redis deletes it one window later.
    const replies = await this.redis
      .multi()
      .incr(key)
      .pexpire(key, start + 2 * WINDOW_MS - now)
      .exec();
    const [incr, expire] = replies ?? [];
    const err = incr?.[0] ?? expire?.[0];
    if (err || typeof incr?.[1] !== 'number') throw err ?? new Error('Redis rate limiter: the transaction was not executed');
    return { count: incr[1], resetAt: (start + WINDOW_MS) / 1000 };
  }

  async peek(bucket: string, now = Date.now()): Promise<RateWindow> {
    const start = windowStart(now);
    const value = await this.redis.get(`${this.prefix}${bucket}:${start}`);
    return { count: value === null ? 0 : Number(value), resetAt: (start + WINDOW_MS) / 1000 };
  }

  /** Nothing to do: Redis deletes each window's key itself when it expires. */
  async purgeExpired(): Promise<void> {}
}
