import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rateLimitWindows } from '../db/schema/index.js';
import { WINDOW_MS, windowStart, type RateLimiter, type RateWindow } from '../../ports/rate-limiter.js';

/** Distributed mode: one counter row per bucket and window, shared by every api process. */
export class DatabaseRateLimiter implements RateLimiter {
  constructor(private readonly db: Db) {}

  async hit(bucket: string, now = Date.now()): Promise<RateWindow> {
    const start = windowStart(now);
    const [row] = await this.db
      .insert(rateLimitWindows)
      .values({ bucket, windowStart: start, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimitWindows.bucket, rateLimitWindows.windowStart],
        set: { count: sql`${rateLimitWindows.count} + 1` },
      })
      .returning({ count: rateLimitWindows.count });
    return { count: row.count, resetAt: (start + WINDOW_MS) / 1000 };
  }

  async peek(bucket: string, now = Date.now()): Promise<RateWindow> {
    const start = windowStart(now);
    const [row] = await this.db
      .select({ count: rateLimitWindows.count })
      .from(rateLimitWindows)
      .where(and(eq(rateLimitWindows.bucket, bucket), eq(rateLimitWindows.windowStart, start)));
    return { count: row?.count ?? 0, resetAt: (start + WINDOW_MS) / 1000 };
  }

  async purgeExpired(now = Date.now()): Promise<void> {
    await purgeRateWindows(this.db, now);
  }
}

export async function purgeRateWindows(db: Db, now = Date.now()): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, windowStart(now) - WINDOW_MS));
}
