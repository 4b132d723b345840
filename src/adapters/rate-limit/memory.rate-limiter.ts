import { WINDOW_MS, windowStart, type RateLimiter, type RateWindow } from '../../ports/rate-limiter.js';

/** Embedded mode: one process, counters in memory. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  async hit(bucket: string, now = Date.now()): Promise<RateWindow> {
    const start = windowStart(now);
    if (start !== this.lastSweep) {
      for (const [k, w] of this.windows) if (w.start < start) this.windows.delete(k);
      this.lastSweep = start;
    }
    const w = this.windows.get(bucket);
    const next = w && w.start === start ? { start, count: w.count + 1 } : { start, count: 1 };
    this.windows.set(bucket, next);
    return { count: next.count, resetAt: (start + WINDOW_MS) / 1000 };
  }

  async peek(bucket: string, now = Date.now()): Promise<RateWindow> {
    const start = windowStart(now);
    const w = this.windows.get(bucket);
    return { count: w && w.start === start ? w.count : 0, resetAt: (start + WINDOW_MS) / 1000 };
  }

  async purgeExpired(now = Date.now()): Promise<void> {
    const oldest = windowStart(now) - WINDOW_MS;
    for (const [k, w] of this.windows) if (w.start < oldest) this.windows.delete(k);
  }
}
