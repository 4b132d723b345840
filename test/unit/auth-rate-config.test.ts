import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';

const PG = 'postgres://u@127.0.0.1:5432/cutroom';
const REDIS = 'redis://127.0.0.1:6379';

describe('rate-limit store and auth cache settings', () => {
  it('keeps counters in memory embedded, in Redis when distributed with CUTROOM_REDIS_URL, else in PostgreSQL', () => {
    expect(loadConfig({}).rateLimitStore).toBe('memory');
    expect(loadConfig({ CUTROOM_REDIS_URL: REDIS }).rateLimitStore).toBe('memory');
    expect(loadConfig({ DATABASE_URL: PG }).rateLimitStore).toBe('database');
    expect(loadConfig({ DATABASE_URL: PG, CUTROOM_REDIS_URL: REDIS })).toMatchObject({ rateLimitStore: 'redis', redisUrl: REDIS });
    expect(loadConfig({ DATABASE_URL: PG, CUTROOM_REDIS_URL: REDIS, CUTROOM_RATE_LIMIT_STORE: 'database' }).rateLimitStore).toBe('database');
    expect(loadConfig({ CUTROOM_REDIS_URL: 'rediss://cache.internal:6380/2', CUTROOM_RATE_LIMIT_STORE: 'redis' }).rateLimitStore).toBe('redis');
  });

  it('refuses the redis store without a URL, and a URL that is not redis:// or rediss://', () => {
    expect(() => loadConfig({ DATABASE_URL: PG, CUTROOM_RATE_LIMIT_STORE: 'redis' })).toThrow(/CUTROOM_RATE_LIMIT_STORE=redis needs CUTROOM_REDIS_URL/);
    expect(() => loadConfig({ CUTROOM_REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(ConfigError);
    expect(() => loadConfig({ CUTROOM_REDIS_URL: 'not a url' })).toThrow(/CUTROOM_REDIS_URL/);
    expect(() => loadConfig({ CUTROOM_RATE_LIMIT_STORE: 'memcached' })).toThrow(/CUTROOM_RATE_LIMIT_STORE/);
  });

  it('holds auth data 5 s by default; CUTROOM_AUTH_CACHE_SECONDS from 0 (off) to 300, fractions allowed', () => {
    expect(loadConfig({}).authCacheMs).toBe(5000);
    expect(loadConfig({ CUTROOM_AUTH_CACHE_SECONDS: '0' }).authCacheMs).toBe(0);
    expect(loadConfig({ CUTROOM_AUTH_CACHE_SECONDS: '0.25' }).authCacheMs).toBe(250);
    expect(() => loadConfig({ CUTROOM_AUTH_CACHE_SECONDS: '-1' })).toThrow(/CUTROOM_AUTH_CACHE_SECONDS/);
    expect(() => loadConfig({ CUTROOM_AUTH_CACHE_SECONDS: '301' })).toThrow(/CUTROOM_AUTH_CACHE_SECONDS/);
  });
});
