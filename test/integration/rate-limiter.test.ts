import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, DB_KINDS } from '../helpers/db.js';
import { TEST_REDIS_URL } from '../helpers/global-setup.js';
import { DatabaseRateLimiter, purgeRateWindows } from '../../src/adapters/rate-limit/database.rate-limiter.js';
import { MemoryRateLimiter } from '../../src/adapters/rate-limit/memory.rate-limiter.js';
import { RedisRateLimiter } from '../../src/adapters/rate-limit/redis.rate-limiter.js';
import type { Database } from '../../src/adapters/db/database.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';

const T0 = 1_800_000_000_000; // a window boundary (divisible by 60 000)

/** What every store does: fixed 60-second windows per bucket, each hit counted once, concurrent ones too. */
async function contract(limiter: RateLimiter) {
  expect(await limiter.hit('a', T0 + 5)).toEqual({ count: 1, resetAt: T0 / 1000 + 60 });
  expect((await limiter.hit('a', T0 + 59_999)).count).toBe(2);
  expect((await limiter.hit('b', T0 + 10)).count).toBe(1);
  expect(await limiter.hit('a', T0 + 60_000)).toEqual({ count: 1, resetAt: T0 / 1000 + 120 });
  const counts = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('c', T0 + 1)));
  expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  // peek reads a window without counting: 0 for a bucket or window with no hit.
  expect(await limiter.peek('c', T0 + 30_000)).toEqual({ count: 20, resetAt: T0 / 1000 + 60 });
  expect((await limiter.peek('c', T0 + 30_001)).count).toBe(20);
  expect(await limiter.peek('never', T0 + 1)).toEqual({ count: 0, resetAt: T0 / 1000 + 60 });
  expect(await limiter.peek('c', T0 + 60_000)).toEqual({ count: 0, resetAt: T0 / 1000 + 120 });
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
    expect((await other.hit('c', T0 + 1)).count).toBe(21);
    await purgeRateWindows(database.db, T0 + 10 * 60_000);
    const left = await database.sql.executeSql('select count(*)::int as n from rate_limit_windows', []);
    expect(left.rows[0].n).toBe(0);
  });
});

describe('redis rate limiter', () => {
  // A prefix of this run's own on the machine's Redis; its keys expire by themselves, and are deleted after.
  const prefix = `cutroom-test:${randomBytes(6).toString('hex')}:`;
  const clients: Redis[] = [];
  const connect = () => {
    const c = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    const c = clients[0];
    const keys = await c.keys(`${prefix}*`);
    if (keys.length) await c.del(...keys);
    await Promise.all(clients.map((x) => x.quit()));
  });

  it('counts fixed 60-second windows per bucket, exact across processes', async () => {
    await contract(new RedisRateLimiter(connect(), prefix));
    // Another api process, with its own connection, counts on the same key.
    const other = new RedisRateLimiter(connect(), prefix);
    expect((await other.hit('c', T0 + 1)).count).toBe(21);
    const both = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? other : new RedisRateLimiter(clients[0], prefix)).hit('d', T0 + 2)));
    expect(both.map((w) => w.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('gives each window key an expiry that ends one window after the window', async () => {
    const redis = connect();
    const now = Date.now();
    const start = Math.floor(now / 60_000) * 60_000;
    await new RedisRateLimiter(redis, prefix).hit('ttl', now);
    const ttl = await redis.pttl(`${prefix}ttl:${start}`);
    expect(ttl).toBeGreaterThan(start + 120_000 - now - 1000);
    expect(ttl).toBeLessThanOrEqual(start + 120_000 - now);
  });
});
