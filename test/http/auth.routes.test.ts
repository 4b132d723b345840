import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('authentication', () => {
  it('accepts the key in X-Api-Key or as a Bearer token', async () => {
    const ws = await t.workspace({ credits: 5 });
    for (const headers of [{ 'x-api-key': ws.key }, { authorization: `Bearer ${ws.key}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(ws.id);
    }
  });

  it('answers 401 UNAUTHORIZED for a missing, malformed, unknown, wrong-secret, revoked or expired key', async () => {
    const ws = await t.workspace();
    const [id] = ws.key.split('.');
    const expired = await t.c.apiKeys.create({ workspaceIds: [ws.id], expiresAt: new Date(Date.now() + 50) });
    await new Promise((r) => setTimeout(r, 80));
    const revoked = await t.c.apiKeys.create({ workspaceIds: [ws.id] });
    await t.c.apiKeys.revoke(revoked.id);
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-api-key': 'nonsense' },
      { 'x-api-key': `key_aaaaaaaaaaaaaaaaaaaa.${'A'.repeat(43)}` },
      { 'x-api-key': `${id}.${'B'.repeat(43)}` },
      { authorization: 'Basic abc' },
      { 'x-api-key': revoked.key },
      { 'x-api-key': expired.key },
    ];
    for (const headers of cases) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHORIZED' });
    }
  });

  it('needs X-Workspace-Id for a multi-workspace key, and refuses a workspace the key is not bound to', async () => {
    const a = await t.workspace({ credits: 1, name: 'A' });
    const b = await t.workspace({ credits: 2, name: 'B' });
    const other = await t.workspace({ name: 'Other' });
    const multi = await t.c.apiKeys.create({ workspaceIds: [a.id, b.id] });

    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': multi.key } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 'MISSING_WORKSPACE_ID', extra: { workspace_ids: [a.id, b.id].sort() } });

    const chosen = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': multi.key, 'x-workspace-id': b.id } });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().balance).toBe(2);

    const foreign = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': multi.key, 'x-workspace-id': other.id } });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual({ code: 'UNAUTHORIZED' });

    const single = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': a.key, 'x-workspace-id': other.id } });
    expect(single.statusCode).toBe(401);
    const own = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': a.key, 'x-workspace-id': a.id } });
    expect(own.statusCode).toBe(200);
  });

  it('stores only a hash of the key', async () => {
    const ws = await t.workspace();
    const rows = await t.c.database.sql.executeSql('select secret_hash from api_keys');
    const secret = ws.key.split('.')[1];
    for (const r of rows.rows) expect(r.secret_hash).not.toContain(secret);
  });
});
