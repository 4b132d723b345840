import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { TEST_REDIS_URL } from '../helpers/global-setup.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * The auth cache holds keys, workspaces and plans for 300 s here, far longer than any test: every
 * change below is seen at once only because the admin API paths drop what they change. On PostgreSQL
 * the rate-limit counters are in Redis, as in a distributed deployment with CUTROOM_REDIS_URL.
 */

let srv: StaticServer;
let dir: string;

beforeAll(async () => {
  dir = tempDir('cutroom-auth-cache-');
  await makeVideo(path.join(dir, 'talk.mp4'), { seconds: 70 });
  srv = await startStaticServer(dir);
});
afterAll(async () => {
  await srv?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(DB_KINDS)('auth cache over HTTP on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    const redis: Record<string, string> = db === 'postgres' ? { CUTROOM_RATE_LIMIT_STORE: 'redis', CUTROOM_REDIS_URL: TEST_REDIS_URL } : {};
    t = await createTestApp({ db, env: { CUTROOM_AUTH_CACHE_SECONDS: '300', CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', ...redis } });
    await t.admin('POST', '/plans', { name: 'wide', rate_limit_per_minute: 1000, max_concurrent_renders: 7 });
  });
  it('uses the configured rate-limit store', () => {
    expect(t.c.rateLimiter.constructor.name).toBe(db === 'postgres' ? 'RedisRateLimiter' : 'MemoryRateLimiter');
  });
  afterAll(async () => {
    await t?.close();
  });

  const limitOf = async (key: string) => (await t.api(key, 'GET', '/balance')).headers['x-ratelimit-limit'];

  it('holds the plan for reads: a change behind the admin API is not seen, a write reads it now', async () => {
    const ws = await t.workspace();
    expect(await limitOf(ws.key)).toBe('600');
    await t.c.database.sql.executeSql(`update plans set rate_limit_per_minute = 777 where name = 'default'`, []);
    expect(await limitOf(ws.key)).toBe('600');
    const write = await t.api(ws.key, 'POST', '/clips/info', { url: `${srv.url}/talk.mp4` });
    expect(write.headers['x-ratelimit-limit']).toBe('777');
    await t.c.database.sql.executeSql(`update plans set rate_limit_per_minute = 600 where name = 'default'`, []);
    await t.admin('PATCH', '/plans/default', { rate_limit_per_minute: 600 });
    expect(await limitOf(ws.key)).toBe('600');
  });

  it('refuses a revoked key from the next request on', async () => {
    const ws = await t.workspace();
    expect((await t.api(ws.key, 'GET', '/balance')).status).toBe(200);
    expect((await t.admin('DELETE', `/keys/${ws.keyId}`)).status).toBe(204);
    expect(await t.api(ws.key, 'GET', '/balance')).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('applies a workspace plan change and new plan limits from the next request on', async () => {
    const ws = await t.workspace();
    expect(await limitOf(ws.key)).toBe('600');
    expect((await t.api(ws.key, 'GET', '/renders/limits')).body.max_concurrent_renders).toBe(3);
    expect((await t.admin('PATCH', `/workspaces/${ws.id}`, { plan: 'wide' })).status).toBe(200);
    expect(await limitOf(ws.key)).toBe('1000');
    expect((await t.api(ws.key, 'GET', '/renders/limits')).body.max_concurrent_renders).toBe(7);
    expect((await t.admin('PATCH', '/plans/wide', { rate_limit_per_minute: 3, max_concurrent_renders: 2 })).status).toBe(200);
    // Windows are fixed minutes: four requests were made in this one, but a minute may begin between
    // them, so ask until refused. Five requests reach the new limit of 3 even across one window start.
    let refused = await t.api(ws.key, 'GET', '/renders/limits');
    for (let i = 0; i < 4 && refused.status !== 429; i++) {
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      refused = await t.api(ws.key, 'GET', '/renders/limits');
    }
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT_EXCEEDED' } });
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    await t.admin('PATCH', '/plans/wide', { rate_limit_per_minute: 1000 });
    expect((await t.api(ws.key, 'GET', '/renders/limits')).body.max_concurrent_renders).toBe(2);
  });

  it('shows free usage and the balance as they are, right after the admin API changes them', async () => {
    const ws = await t.workspace({ credits: 4 });
    const info = () => t.api(ws.key, 'POST', '/clips/info', { url: `${srv.url}/talk.mp4` });
    expect((await info()).body).toMatchObject({ credits_unlimited: false, current_balance: 4 });
    expect((await t.api(ws.key, 'GET', '/balance')).body).toMatchObject({ balance: 4, unlimited: false });

    expect((await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, { until: null })).status).toBe(200);
    expect((await info()).body).toMatchObject({ credits_unlimited: true });
    expect((await t.api(ws.key, 'GET', '/balance')).body).toMatchObject({ unlimited: true, unlimited_until: null });
    expect((await t.admin('DELETE', `/workspaces/${ws.id}/free-usage`)).status).toBe(200);
    expect((await t.api(ws.key, 'GET', '/workspace')).body).toMatchObject({ credits_unlimited: false });

    expect((await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 5, reason: 'top up' })).status).toBe(201);
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(9);
    expect((await info()).body).toMatchObject({ credits_unlimited: false, current_balance: 9 });
  });
});
