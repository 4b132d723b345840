import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, DB_KINDS } from '../helpers/db.js';
import { DatabaseRateLimiter, purgeRateWindows } from '../../src/adapters/rate-limit/database.rate-limiter.js';
import { MemoryRateLimiter } from '../../src/adapters/rate-limit/memory.rate-limiter.js';
import type { Database } from '../../src/adapters/db/database.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';

async function contract(limiter: RateLimiter) {
  const t0 = 1_800_000_000_000; // a window boundary (divisible by 60 000)
  expect(await limiter.hit('a', t0 + 5)).toEqual({ count: 1, resetAt: t0 / 1000 + 60 });
  expect((await limiter.hit('a', t0 + 59_999)).count).toBe(2);
  expect((await limiter.hit('b', t0 + 10)).count).toBe(1);
  expect(await limiter.hit('a', t0 + 60_000)).toEqual({ count: 1, resetAt: t0 / 1000 + 120 });
  const counts = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('c', t0 + 1)));
  expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
}

describe('memory rate limiter', () => {
  it('counts fixed 60-second windows per bucket', async () => {
    await contract(new MemoryRateLimiter());
  });
});

describe.each(DB_KINDS)('database rate limiter on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('counts fixed 60-second windows per bucket, shared by every process', async () => {
    await contract(new DatabaseRateLimiter(database.db));
    // A second limiter (another api process) sees the same counter.
    const other = new DatabaseRateLimiter(database.db);
    expect((await other.hit('c', 1_800_000_000_001)).count).toBe(21);
    await purgeRateWindows(database.db, 1_800_000_000_000 + 10 * 60_000);
    const left = await database.sql.executeSql('select count(*)::int as n from rate_limit_windows', []);
    expect(left.rows[0].n).toBe(0);
  });
});
