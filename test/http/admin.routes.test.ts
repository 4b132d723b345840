import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  // Every route is tried with five wrong tokens from one address: more than the default budget of refusals (admin-throttle.test.ts).
  t = await createTestApp({ env: { CUTROOM_ADMIN_AUTH_FAILURES_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

function fields(body: any): string[] {
  return (body.extra?.errors ?? []).map((e: { field: string }) => e.field);
}

const future = (ms = 86_400_000) => new Date(Date.now() + ms).toISOString();
const INT4_MAX = 2147483647;

describe('admin auth', () => {
  const routes: Array<[Method, string, unknown?]> = [
    ['GET', '/plans'],
    ['GET', '/plans/default'],
    ['POST', '/plans', { name: 'auth-test' }],
    ['PATCH', '/plans/default', { daily_post_limit: 1 }],
    ['POST', '/workspaces', { name: 'x' }],
    ['GET', '/workspaces/ws_x'],
    ['PATCH', '/workspaces/ws_x', { name: 'y' }],
    ['POST', '/workspaces/ws_x/credits', { amount: 1, reason: 'r' }],
    ['PUT', '/workspaces/ws_x/free-usage', { until: null }],
    ['DELETE', '/workspaces/ws_x/free-usage'],
    ['POST', '/keys', { workspace_ids: ['ws_x'] }],
    ['DELETE', '/keys/key_x'],
  ];

  it('answers 401 UNAUTHORIZED on every route without a token, with a wrong one, or with another scheme', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Basic ${t.adminToken}` },
      { authorization: 'Bearer ' },
      { 'x-api-key': t.adminToken },
    ];
    for (const [method, url, payload] of routes) {
      for (const headers of variants) {
        const r = await t.admin(method, url, payload, { authorization: undefined, ...headers });
        expect(r.status, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.body).toEqual({ code: 'UNAUTHORIZED' });
      }
    }
    // Nothing was changed by the refused requests.
    expect((await t.admin('GET', '/plans/default')).body.daily_post_limit).toBe(25);
    expect((await t.admin('GET', '/plans/auth-test')).status).toBe(404);
  });

  it('does not accept an API key as the admin token', async () => {
    const ws = await t.workspace();
    const r = await t.admin('GET', '/plans', undefined, { authorization: `Bearer ${ws.key}` });
    expect(r.status).toBe(401);
  });

  it('accepts the token case-insensitively on the scheme, with surrounding spaces', async () => {
    const r = await t.admin('GET', '/plans', undefined, { authorization: `bearer   ${t.adminToken}  ` });
    expect(r.status).toBe(200);
  });
});

describe('admin plans', () => {
  it('POST /plans creates a plan with defaults for fields not given (201)', async () => {
    const r = await t.admin('POST', '/plans', { name: 'starter', max_video_duration: 3600, discount_percent: 10, is_free: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'starter',
      is_free: true,
      max_video_duration: 3600,
      max_upload_size: 10 * 1024 ** 3,
      render_expiry_hours: 72,
      max_concurrent_renders: 3,
      daily_post_limit: 25,
      force_watermark: false,
      rate_limit_per_minute: 600,
      analysis_rate_limit_per_minute: 10,
      discount_percent: 10,
    });
    expect(new Date(r.body.created_at).toISOString()).toBe(r.body.created_at);
    expect(r.body.updated_at).toBe(r.body.created_at);
  });

  it('POST /plans answers 409 PLAN_ALREADY_EXISTS for a taken name', async () => {
    const r = await t.admin('POST', '/plans', { name: 'default' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ code: 'PLAN_ALREADY_EXISTS' });
  });

  it('POST /plans answers 400 VALIDATION_ERROR naming every bad field', async () => {
    const r = await t.admin('POST', '/plans', {
      name: 'Not Valid',
      max_video_duration: 59,
      max_upload_size: 0,
      render_expiry_hours: 0,
      max_concurrent_renders: 0,
      daily_post_limit: -1,
      force_watermark: 'sometimes',
      rate_limit_per_minute: 0,
      analysis_rate_limit_per_minute: 1.5,
      discount_percent: 101,
      colour: 'red',
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
    expect(fields(r.body).sort()).toEqual(
      [
        'name',
        'max_video_duration',
        'max_upload_size',
        'render_expiry_hours',
        'max_concurrent_renders',
        'daily_post_limit',
        'force_watermark',
        'rate_limit_per_minute',
        'analysis_rate_limit_per_minute',
        'discount_percent',
        'colour',
      ].sort(),
    );
    const missing = await t.admin('POST', '/plans', {});
    expect(missing.status).toBe(400);
    expect(missing.body.extra.errors).toContainEqual({ field: 'name', rule: 'required' });
  });

  it('POST /plans refuses numbers beyond the database columns with 400, not 500', async () => {
    const r = await t.admin('POST', '/plans', { name: 'huge', max_video_duration: INT4_MAX + 1, max_upload_size: 1e300 });
    expect(r.status).toBe(400);
    expect(fields(r.body).sort()).toEqual(['max_upload_size', 'max_video_duration']);
    const edge = await t.admin('POST', '/plans', { name: 'edge', max_video_duration: INT4_MAX, max_upload_size: Number.MAX_SAFE_INTEGER });
    expect(edge.status).toBe(201);
    expect(edge.body).toMatchObject({ max_video_duration: INT4_MAX, max_upload_size: Number.MAX_SAFE_INTEGER });
  });

  it('GET /plans lists plans by name with pagination', async () => {
    const all = await t.admin('GET', '/plans');
    expect(all.status).toBe(200);
    const names = all.body.plans.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('default');
    expect(all.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: names.length, has_next_page: false });

    const page = await t.admin('GET', '/plans?limit=1&page=2');
    expect(page.status).toBe(200);
    expect(page.body.plans.map((p: { name: string }) => p.name)).toEqual([names[1]]);
    expect(page.body.pagination).toMatchObject({ current_page: 2, total_pages: names.length, has_next_page: names.length > 2 });

    const bad = await t.admin('GET', '/plans?limit=0&page=x');
    expect(bad.status).toBe(400);
    expect(fields(bad.body).sort()).toEqual(['query.limit', 'query.page']);
  });

  it('GET /plans/:name answers the plan, or 404 PLAN_NOT_FOUND', async () => {
    const r = await t.admin('GET', '/plans/default');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'default', max_video_duration: 10800 });
    const missing = await t.admin('GET', '/plans/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'PLAN_NOT_FOUND' });
  });

  it('PATCH /plans/:name changes only the given fields', async () => {
    await t.admin('POST', '/plans', { name: 'patchme', daily_post_limit: 5 });
    const r = await t.admin('PATCH', '/plans/patchme', { force_watermark: true, render_expiry_hours: 0.5 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'patchme', force_watermark: true, render_expiry_hours: 0.5, daily_post_limit: 5 });
    expect(r.body.updated_at >= r.body.created_at).toBe(true);
    expect((await t.c.plans.get('patchme')).forceWatermark).toBe(true);

    const empty = await t.admin('PATCH', '/plans/patchme', {});
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ force_watermark: true, daily_post_limit: 5 });
  });

  it('PATCH /plans/:name answers 404 PLAN_NOT_FOUND and 400 VALIDATION_ERROR (name cannot change)', async () => {
    const missing = await t.admin('PATCH', '/plans/nope', { daily_post_limit: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'PLAN_NOT_FOUND' });
    const bad = await t.admin('PATCH', '/plans/default', { name: 'renamed', discount_percent: -1 });
    expect(bad.status).toBe(400);
    expect(fields(bad.body).sort()).toEqual(['discount_percent', 'name']);
  });
});

describe('admin workspaces', () => {
  it('POST /workspaces creates a workspace on the default plan, starting credits as a ledger grant (201)', async () => {
    const r = await t.admin('POST', '/workspaces', { name: 'Studio', credits: 40, is_personal: true });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^ws_/),
      name: 'Studio',
      is_personal: true,
      role: 'owner',
      plan_name: 'default',
      plan_is_free: false,
      credits: 40,
      credits_unlimited: false,
      credits_unlimited_until: null,
      member_count: 1,
    });
    expect(await t.c.credits.ledgerSum(r.body.id)).toBe(40);

    await t.admin('POST', '/plans', { name: 'freebie', is_free: true });
    const onPlan = await t.admin('POST', '/workspaces', { name: 'Free one', plan: 'freebie' });
    expect(onPlan.status).toBe(201);
    expect(onPlan.body).toMatchObject({ plan_name: 'freebie', plan_is_free: true, credits: 0, is_personal: false });
  });

  it('POST /workspaces answers 404 PLAN_NOT_FOUND and 400 VALIDATION_ERROR', async () => {
    const plan = await t.admin('POST', '/workspaces', { name: 'x', plan: 'nope' });
    expect(plan.status).toBe(404);
    expect(plan.body).toEqual({ code: 'PLAN_NOT_FOUND' });

    const bad = await t.admin('POST', '/workspaces', { name: '', credits: -1, is_personal: 'maybe', owner: 'me' });
    expect(bad.status).toBe(400);
    expect(fields(bad.body).sort()).toEqual(['credits', 'is_personal', 'name', 'owner']);

    const missing = await t.admin('POST', '/workspaces', {});
    expect(missing.body.extra.errors).toContainEqual({ field: 'name', rule: 'required' });

    const huge = await t.admin('POST', '/workspaces', { name: 'rich', credits: INT4_MAX + 1 });
    expect(huge.status).toBe(400);
    expect(fields(huge.body)).toEqual(['credits']);
  });

  it('GET /workspaces/:id answers the workspace, or 404 WORKSPACE_NOT_FOUND', async () => {
    const ws = await t.workspace({ credits: 9, name: 'Seen' });
    const r = await t.admin('GET', `/workspaces/${ws.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ws.id, name: 'Seen', credits: 9 });
    const missing = await t.admin('GET', '/workspaces/ws_nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('PATCH /workspaces/:id renames, moves to another plan and sets the member count', async () => {
    const ws = await t.workspace();
    await t.admin('POST', '/plans', { name: 'team' });
    const r = await t.admin('PATCH', `/workspaces/${ws.id}`, { name: 'Renamed', plan: 'team', member_count: 3 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ws.id, name: 'Renamed', plan_name: 'team', member_count: 3 });

    const partial = await t.admin('PATCH', `/workspaces/${ws.id}`, { member_count: 2 });
    expect(partial.body).toMatchObject({ name: 'Renamed', plan_name: 'team', member_count: 2 });
  });

  it('PATCH /workspaces/:id with an empty body answers the workspace unchanged (was a 500)', async () => {
    const ws = await t.workspace({ name: 'Same' });
    const r = await t.admin('PATCH', `/workspaces/${ws.id}`, {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ws.id, name: 'Same' });
    const missing = await t.admin('PATCH', '/workspaces/ws_nope', {});
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('PATCH /workspaces/:id answers 404 WORKSPACE_NOT_FOUND / PLAN_NOT_FOUND and 400 VALIDATION_ERROR', async () => {
    const ws = await t.workspace();
    const missing = await t.admin('PATCH', '/workspaces/ws_nope', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'WORKSPACE_NOT_FOUND' });
    const plan = await t.admin('PATCH', `/workspaces/${ws.id}`, { plan: 'nope' });
    expect(plan.status).toBe(404);
    expect(plan.body).toEqual({ code: 'PLAN_NOT_FOUND' });
    const bad = await t.admin('PATCH', `/workspaces/${ws.id}`, { member_count: 0, name: '', credits: 5 });
    expect(bad.status).toBe(400);
    expect(fields(bad.body).sort()).toEqual(['credits', 'member_count', 'name']);
  });
});

describe('admin credits', () => {
  it('POST /workspaces/:id/credits grants and debits, answering the ledger entry (201)', async () => {
    const ws = await t.workspace({ credits: 10 });
    const grant = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 25, reason: 'promo' });
    expect(grant.status).toBe(201);
    expect(grant.body).toEqual({
      id: expect.stringMatching(/^led_/),
      created_at: expect.any(String),
      kind: 'grant',
      reason: 'promo',
      amount: 25,
      balance_after: 35,
      waived: false,
      job_type: null,
      job_id: null,
    });
    const debit = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: -35, reason: 'chargeback' });
    expect(debit.status).toBe(201);
    expect(debit.body).toMatchObject({ kind: 'debit', amount: -35, balance_after: 0 });
    expect((await t.admin('GET', `/workspaces/${ws.id}`)).body.credits).toBe(0);
    expect(await t.c.credits.ledgerSum(ws.id)).toBe(0);
  });

  it('answers 402 INSUFFICIENT_CREDITS for a debit below zero and changes nothing', async () => {
    const ws = await t.workspace({ credits: 10 });
    const r = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: -11, reason: 'too much' });
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ code: 'INSUFFICIENT_CREDITS', extra: { credits_needed: 11, current_balance: 10 } });
    expect((await t.admin('GET', `/workspaces/${ws.id}`)).body.credits).toBe(10);
  });

  it('answers 404 WORKSPACE_NOT_FOUND and 400 VALIDATION_ERROR', async () => {
    const missing = await t.admin('POST', '/workspaces/ws_nope/credits', { amount: 5, reason: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'WORKSPACE_NOT_FOUND' });

    const ws = await t.workspace();
    const zero = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 0, reason: '' });
    expect(zero.status).toBe(400);
    expect(fields(zero.body).sort()).toEqual(['amount', 'reason']);
    const fraction = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 1.5 });
    expect(fields(fraction.body).sort()).toEqual(['amount', 'reason']);
    const extra = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 1, reason: 'x', kind: 'refund' });
    expect(fields(extra.body)).toEqual(['kind']);
  });

  it('refuses amounts and balances beyond the integer range with 400, not 500', async () => {
    const ws = await t.workspace();
    const huge = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: INT4_MAX + 1, reason: 'x' });
    expect(huge.status).toBe(400);
    expect(fields(huge.body)).toEqual(['amount']);
    expect((await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: INT4_MAX, reason: 'max' })).status).toBe(201);
    const over = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 1, reason: 'one more' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'amount', rule: 'maximum' }] } });
    expect((await t.admin('GET', `/workspaces/${ws.id}`)).body.credits).toBe(INT4_MAX);
  });

  it('applies a grant once per Idempotency-Key and replays the answer', async () => {
    const ws = await t.workspace();
    const headers = { authorization: `Bearer ${t.adminToken}`, 'idempotency-key': `grant-${ws.id}` };
    const first = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 3, reason: 'once' }, headers);
    const again = await t.admin('POST', `/workspaces/${ws.id}/credits`, { amount: 3, reason: 'once' }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await t.admin('GET', `/workspaces/${ws.id}`)).body.credits).toBe(3);
  });
});

describe('admin free usage', () => {
  it('PUT /workspaces/:id/free-usage starts a window with or without an end; DELETE ends it', async () => {
    const ws = await t.workspace({ credits: 4 });
    const until = future();
    const on = await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, { until });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: ws.id, credits: 4, credits_unlimited: true, credits_unlimited_until: until });

    const open = await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, { until: null });
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ credits_unlimited: true, credits_unlimited_until: null });
    const balance = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': ws.key } });
    expect(balance.json()).toEqual({ balance: 4, unlimited: true, unlimited_until: null });

    const off = await t.admin('DELETE', `/workspaces/${ws.id}/free-usage`);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ credits_unlimited: false, credits_unlimited_until: null });
    expect((await t.admin('GET', `/workspaces/${ws.id}`)).body.credits_unlimited).toBe(false);
    // Ending a window that is not running is fine.
    expect((await t.admin('DELETE', `/workspaces/${ws.id}/free-usage`)).status).toBe(200);
  });

  it('PUT answers 400 for an end in the past, a non-ISO end or no `until`', async () => {
    const ws = await t.workspace();
    const past = await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, { until: '2001-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'until', rule: 'future' }] } });
    const format = await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, { until: 'next week' });
    expect(format.status).toBe(400);
    expect(fields(format.body)).toEqual(['until']);
    const missing = await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, {});
    expect(missing.body.extra.errors).toEqual([{ field: 'until', rule: 'required' }]);
    expect((await t.admin('GET', `/workspaces/${ws.id}`)).body.credits_unlimited).toBe(false);
  });

  it('PUT and DELETE answer 404 WORKSPACE_NOT_FOUND', async () => {
    const put = await t.admin('PUT', '/workspaces/ws_nope/free-usage', { until: null });
    expect(put.status).toBe(404);
    expect(put.body).toEqual({ code: 'WORKSPACE_NOT_FOUND' });
    const del = await t.admin('DELETE', '/workspaces/ws_nope/free-usage');
    expect(del.status).toBe(404);
    expect(del.body).toEqual({ code: 'WORKSPACE_NOT_FOUND' });
  });
});

describe('admin keys', () => {
  it('POST /keys issues a key bound to the workspaces (201) that authenticates; DELETE revokes it (204)', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const r = await t.admin('POST', '/keys', { workspace_ids: [a.id, b.id, a.id], label: 'ci' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^key_[0-9a-z]{20}\.[A-Za-z0-9_-]{43}$/),
      workspace_ids: [a.id, b.id],
      expires_at: null,
    });
    expect(r.body.key.startsWith(`${r.body.id}.`)).toBe(true);

    const use = (workspace?: string) => t.api(r.body.key, 'GET', '/workspace', undefined, { 'x-workspace-id': workspace });
    expect((await use(b.id)).body.id).toBe(b.id);
    expect((await use()).body.code).toBe('MISSING_WORKSPACE_ID');

    const del = await t.admin('DELETE', `/keys/${r.body.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    const after = await use(a.id);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ code: 'UNAUTHORIZED' });
  });

  it('POST /keys takes a future expiry; an expired key stops working', async () => {
    const ws = await t.workspace();
    const expires = future(1500);
    const r = await t.admin('POST', '/keys', { workspace_ids: [ws.id], expires_at: expires });
    expect(r.status).toBe(201);
    expect(r.body.expires_at).toBe(expires);
    const call = () => t.api(r.body.key, 'GET', '/workspace');
    expect((await call()).status).toBe(200);
    await new Promise((done) => setTimeout(done, Date.parse(expires) - Date.now() + 50));
    expect((await call()).status).toBe(401);

    const noExpiry = await t.admin('POST', '/keys', { workspace_ids: [ws.id], expires_at: null });
    expect(noExpiry.status).toBe(201);
    expect(noExpiry.body.expires_at).toBeNull();
  });

  it('POST /keys answers 404 WORKSPACE_NOT_FOUND naming the unknown workspaces', async () => {
    const ws = await t.workspace();
    const r = await t.admin('POST', '/keys', { workspace_ids: [ws.id, 'ws_nope', 'ws_gone'] });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('WORKSPACE_NOT_FOUND');
    expect(r.body.extra.invalid_workspace_ids.sort()).toEqual(['ws_gone', 'ws_nope']);
  });

  it('POST /keys answers 400 VALIDATION_ERROR for no workspaces, a bad or past expiry, a long label', async () => {
    const ws = await t.workspace();
    const empty = await t.admin('POST', '/keys', { workspace_ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.extra.errors).toEqual([{ field: 'workspace_ids', rule: 'minItems' }]);
    const missing = await t.admin('POST', '/keys', {});
    expect(missing.body.extra.errors).toContainEqual({ field: 'workspace_ids', rule: 'required' });
    const bad = await t.admin('POST', '/keys', { workspace_ids: [ws.id], expires_at: 'soon', label: 'x'.repeat(201) });
    expect(bad.status).toBe(400);
    expect(fields(bad.body).sort()).toEqual(['expires_at', 'label']);
    const past = await t.admin('POST', '/keys', { workspace_ids: [ws.id], expires_at: '2001-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'expires_at', rule: 'future' }] } });
  });

  it('DELETE /keys/:id answers 404 KEY_NOT_FOUND for an unknown key', async () => {
    const r = await t.admin('DELETE', '/keys/key_00000000000000000000');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'KEY_NOT_FOUND' });
  });
});

describe('admin API: other answers', () => {
  it('answers 404 ROUTE_NOT_FOUND for an unknown admin path and 400 for a malformed JSON body', async () => {
    const r = await t.admin('GET', '/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'ROUTE_NOT_FOUND' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/plans',
      payload: '{"name":',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'body', rule: 'json' }] } });
  });
});
