import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { DatabaseRateLimiter } from './database.rate-limiter.js';
import { MemoryRateLimiter } from './memory.rate-limiter.js';
import { RedisRateLimiter } from './redis.rate-limiter.js';

export interface RateLimitStoreOptions {
  /** CUTROOM_RATE_LIMIT_STORE (src/config/env.ts chooses the default). */
  store: 'memory' | 'database' | 'redis';
  /** CUTROOM_REDIS_URL, required with `redis`. */
  redisUrl?: string;
  db: Db;
  /** Told of Redis connection errors (the service logs them); a hit that fails is refused with its error. */
  onError: (err: unknown) => void;
}

/** The configured rate limiter, and how to let go of its connection. */
export function createRateLimiter(opts: RateLimitStoreOptions): { limiter: RateLimiter; close(): Promise<void> } {
  if (opts.store === 'memory') return { limiter: new MemoryRateLimiter(), close: async () => {} };
  if (opts.store === 'database') return { limiter: new DatabaseRateLimiter(opts.db), close: async () => {} };
  if (!opts.redisUrl) throw new Error('the redis rate-limit store needs CUTROOM_REDIS_URL');
  // A request waits at most 2 s for its count: a Redis that does not answer fails the request rather than holding it.
  const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2000, connectTimeout: 5000 });
  redis.on('error', opts.onError);
  return {
    limiter: new RedisRateLimiter(redis),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
