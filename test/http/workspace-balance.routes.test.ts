import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /workspace', () => {
  it('answers exactly the spec fields', async () => {
    const ws = await t.workspace({ credits: 42, name: 'Studio' });
    const res = await t.api(ws.key, 'GET', '/workspace');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ws.id,
      name: 'Studio',
      is_personal: false,
      role: 'owner',
      plan_name: 'default',
      plan_is_free: false,
      credits: 42,
      credits_unlimited: false,
      credits_unlimited_until: null,
      member_count: 1,
    });
  });

  it('reports free usage with and without an end date, and ends it by itself', async () => {
    const ws = await t.workspace({ credits: 3 });
    await t.c.workspaces.setFreeUsage(ws.id, null);
    expect((await t.api(ws.key, 'GET', '/workspace')).body).toMatchObject({ credits_unlimited: true, credits_unlimited_until: null });
    expect((await t.api(ws.key, 'GET', '/balance')).body).toEqual({ balance: 3, unlimited: true, unlimited_until: null });

    const until = new Date(Date.now() + 3600_000);
    await t.c.workspaces.setFreeUsage(ws.id, until);
    expect((await t.api(ws.key, 'GET', '/balance')).body).toEqual({ balance: 3, unlimited: true, unlimited_until: until.toISOString() });

    await t.c.workspaces.setFreeUsage(ws.id, new Date(Date.now() + 100));
    await new Promise((r) => setTimeout(r, 150));
    expect((await t.api(ws.key, 'GET', '/balance')).body).toEqual({ balance: 3, unlimited: false, unlimited_until: null });
    expect((await t.api(ws.key, 'GET', '/workspace')).body).toMatchObject({ credits_unlimited: false, credits_unlimited_until: null });
  });
});

describe('GET /balance/history', () => {
  it('pages the ledger newest first', async () => {
    const ws = await t.workspace({ credits: 10 });
    for (let i = 1; i <= 4; i++) await t.c.credits.adjust({ workspaceId: ws.id, amount: i, reason: `grant ${i}` });
    await t.c.credits.charge({ workspaceId: ws.id, amount: 7, reason: 'clip', jobType: 'submission', jobId: 'sub_1' });

    const p1 = await t.api(ws.key, 'GET', '/balance/history?limit=2');
    expect(p1.status).toBe(200);
    const body = p1.body;
    expect(body.pagination).toEqual({ current_page: 1, total_pages: 3, total_count: 6, has_next_page: true });
    expect(body.entries[0]).toMatchObject({
      kind: 'charge',
      amount: -7,
      balance_after: 13,
      waived: false,
      job_type: 'submission',
      job_id: 'sub_1',
      reason: 'clip',
    });
    expect(body.entries[1]).toMatchObject({ kind: 'grant', amount: 4, balance_after: 20, job_id: null });
    expect(Object.keys(body.entries[0]).sort()).toEqual(['amount', 'balance_after', 'created_at', 'id', 'job_id', 'job_type', 'kind', 'reason', 'waived']);

    const p3 = (await t.api(ws.key, 'GET', '/balance/history?limit=2&page=3')).body;
    expect(p3.entries.map((e: any) => e.reason)).toEqual(['grant 1', 'starting credits']);
    expect(p3.pagination.has_next_page).toBe(false);
  });

  it('shows waived charges under free usage without moving the balance', async () => {
    const ws = await t.workspace({ credits: 2 });
    await t.c.workspaces.setFreeUsage(ws.id, null);
    const r = await t.c.credits.charge({ workspaceId: ws.id, amount: 50, reason: 'clip', jobType: 'submission', jobId: 'sub_free' });
    expect(r).toMatchObject({ charged: 0, waived: true, balanceAfter: 2 });
    const [entry] = (await t.api(ws.key, 'GET', '/balance/history')).body.entries;
    expect(entry).toMatchObject({ amount: -50, waived: true, balance_after: 2 });
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(2);
  });

  it('validates page and limit', async () => {
    const ws = await t.workspace();
    for (const q of ['page=0', 'limit=0', 'limit=101', 'page=abc', 'limit=2.5']) {
      const res = await t.api(ws.key, 'GET', `/balance/history?${q}`);
      expect(res.status, q).toBe(400);
      const body = res.body;
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.extra.errors[0].field).toBe(`query.${q.split('=')[0]}`);
    }
  });

  it('never shows another workspace’s ledger', async () => {
    const a = await t.workspace({ credits: 9 });
    const b = await t.workspace({ credits: 1 });
    const entries = (await t.api(b.key, 'GET', '/balance/history')).body.entries;
    expect(entries).toHaveLength(1);
    expect(entries[0].balance_after).toBe(1);
    expect(a.id).not.toBe(b.id);
  });
});
