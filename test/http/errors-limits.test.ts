import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
/** Every route of the app (HEAD and OPTIONS left out: they answer like GET or not at all). */
const routes: Array<{ method: string; url: string }> = [];
beforeAll(async () => {
  t = await createTestApp({
    env: { CUTROOM_BODY_LIMIT_BYTES: '2048' },
    onRoute(route) {
      for (const method of [route.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
    },
    extend(app) {
      app.get('/api/v1/__boom', async () => {
        throw new Error('secret internals: password=hunter2');
      });
    },
  });
  // Every route is called several times with one key: /clips/info and /monitors share the analysis limit (10 a minute).
  await t.c.plans.update('default', { analysis_rate_limit_per_minute: 1000 });
});
afterAll(async () => {
  await t.close();
});

describe('error bodies', () => {
  it('unknown routes and wrong methods answer { code } only', async () => {
    for (const [method, url] of [
      ['GET', '/nope'],
      ['GET', '/api/v1/nope'],
      ['DELETE', '/api/v1/workspace'],
      ['POST', '/healthz'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('malformed JSON is a VALIDATION_ERROR naming the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/workspaces',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'body', rule: 'json' }] } });
  });

  it('schema failures name every failed field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/workspaces',
      headers: { authorization: `Bearer ${t.adminToken}` },
      payload: { credits: -1, is_personal: 'maybe' },
    });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .extra.errors.map((e: any) => e.field)
      .sort();
    expect(fields).toEqual(['credits', 'is_personal', 'name']);
    expect(Object.keys(res.json())).toEqual(['code', 'extra']);
  });

  it('a value outside a fixed set names the values the field takes in `allowed`', async () => {
    const ws = await t.workspace();
    const lang = await t.api(ws.key, 'POST', '/clips', { video_id: 'vid_x', source_language: 'fr' });
    expect(lang.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'source_language', rule: 'const', allowed: ['auto', 'en', 'pt'] }] } });
    const query = await t.api(ws.key, 'GET', '/clips/vid_x/submissions/sub_x/clips?sort=length&order=up');
    expect(query.body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: {
        errors: [
          { field: 'query.sort', rule: 'const', allowed: ['rating', 'start_time', 'created_at'] },
          { field: 'query.order', rule: 'const', allowed: ['asc', 'desc'] },
        ],
      },
    });
    // A choice of literals or null lists null too; a rule that is not a choice carries no `allowed`.
    const review = await t.api(ws.key, 'PATCH', '/clips/vid_x/submissions/sub_x/clips/clp_x', { review: 'maybe' });
    expect(review.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'review', rule: 'const', allowed: ['kept', 'skipped', null] }] } });
    const limit = await t.api(ws.key, 'GET', '/clips?limit=0');
    expect(limit.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'query.limit', rule: 'minimum' }] } });
  });

  it('a too-large body is 413 FILE_TOO_LARGE with the ceiling', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/workspaces',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(5000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'FILE_TOO_LARGE', extra: { max_size: 2048 } });
  });

  it('an unsupported content type is a VALIDATION_ERROR', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/workspaces',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });

  it('a server fault is 500 INTERNAL_ERROR and leaks nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/__boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('{"code":"INTERNAL_ERROR"}');
  });

  it('every answer carries a request id, echoing a sane incoming one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const fresh = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('text in requests: NUL and invalid UTF-8, on every registered route', () => {
  let key: string;
  beforeAll(async () => {
    key = (await t.workspace()).key;
  });

  function auth(url: string): Record<string, string> {
    if (url.startsWith('/api/v1/') || url === '/mcp') return { 'x-api-key': key };
    if (url.startsWith('/admin/v1/')) return { authorization: `Bearer ${t.adminToken}` };
    return {};
  }
  const paramsOf = (url: string) => [...url.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
  /** `url` with `value` for the parameter `name` and a harmless id for the others. */
  const fill = (url: string, name?: string, value?: string) => url.replace(/:(\w+)|\*/g, (_m, p: string | undefined) => ((p ?? '*') === name ? value! : 'x1'));
  const pathField = (name: string) => (name === '*' ? 'path' : `path.${name}`);

  async function expectRefused(req: InjectOptions, errors: Array<{ field: string; rule: string }>) {
    const res = await t.app.inject(req);
    const what = `${req.method} ${req.url} ${String(req.payload ?? '').slice(0, 40)}`;
    expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
    expect(res.json().code, what).toBe('VALIDATION_ERROR');
    expect(res.json().extra.errors, what).toEqual(expect.arrayContaining(errors));
  }

  it('sees every route family', () => {
    const urls = routes.map((r) => r.url);
    for (const family of [
      '/api/v1/clips',
      '/api/v1/videos',
      '/api/v1/renders',
      '/api/v1/templates',
      '/api/v1/transcriptions',
      '/api/v1/posts',
      '/api/v1/connections',
      '/api/v1/workspace',
      '/api/v1/balance',
      '/admin/v1/plans',
      '/admin/v1/workspaces',
      '/admin/v1/keys',
      '/files/',
      '/published/',
    ]) {
      expect(
        urls.some((u) => u.startsWith(family)),
        family,
      ).toBe(true);
    }
    expect(routes.filter((r) => paramsOf(r.url).length > 0).length).toBeGreaterThan(15);
  });

  it('a NUL in any path parameter is 400 naming the parameter', async () => {
    for (const r of routes) {
      for (const name of paramsOf(r.url)) {
        await expectRefused({ method: r.method as 'GET', url: fill(r.url, name, 'a%00b'), headers: auth(r.url) }, [{ field: pathField(name), rule: 'nul' }]);
      }
    }
  });

  it('a path that is not UTF-8 once decoded is 400 naming the path', async () => {
    for (const r of routes) {
      for (const name of paramsOf(r.url)) {
        for (const bad of ['a%ffb', '%ed%a0%80', '%c0%80']) {
          const res = await t.app.inject({ method: r.method as 'GET', url: fill(r.url, name, bad), headers: auth(r.url) });
          expect([res.statusCode, res.json()], `${r.method} ${fill(r.url, name, bad)}`).toEqual([
            400,
            { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'path', rule: 'utf8' }] } },
          ]);
          expect(res.headers['x-request-id']).toBeTruthy();
        }
      }
    }
  });

  it('a NUL or invalid UTF-8 in a query key or value is 400 naming the key', async () => {
    for (const r of routes) {
      const url = fill(r.url);
      const headers = auth(r.url);
      await expectRefused({ method: r.method as 'GET', url: `${url}?video_id=a%00b`, headers }, [{ field: 'query.video_id', rule: 'nul' }]);
      await expectRefused({ method: r.method as 'GET', url: `${url}?status=ok&video_id=%ff`, headers }, [{ field: 'query.video_id', rule: 'utf8' }]);
      await expectRefused({ method: r.method as 'GET', url: `${url}?v%00=1`, headers }, [{ field: 'query.v\\u0000', rule: 'nul' }]);
    }
  });

  it('a NUL in a header (X-Workspace-Id, Idempotency-Key, any) is 400 naming the header', async () => {
    for (const r of routes) {
      const headers = { ...auth(r.url), 'x-workspace-id': 'ws_\u0000', 'idempotency-key': 'k\u0000' };
      await expectRefused({ method: r.method as 'GET', url: fill(r.url), headers }, [
        { field: 'header.x-workspace-id', rule: 'nul' },
        { field: 'header.idempotency-key', rule: 'nul' },
      ]);
    }
  });

  it('a NUL or lone surrogate in any JSON string or key, at any depth, or a body that is not UTF-8, is 400 naming the field', async () => {
    // The signed upload URLs (/files/*) take bytes, never parsed as text.
    const withBodies = routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && !r.url.startsWith('/files/'));
    expect(withBodies.length).toBeGreaterThan(15);
    for (const r of withBodies) {
      const base = { method: r.method as 'POST', url: fill(r.url), headers: { ...auth(r.url), 'content-type': 'application/json' } };
      await expectRefused({ ...base, payload: '{"name":"a\\u0000b","file_name":"ok.mp4","deep":{"list":["fine",{"x":"\\u0000"}]}}' }, [
        { field: 'name', rule: 'nul' },
        { field: 'deep.list.1.x', rule: 'nul' },
      ]);
      await expectRefused({ ...base, payload: '{"metadata":{"youtube":{"title":"\\ud800"}}}' }, [{ field: 'metadata.youtube.title', rule: 'utf8' }]);
      await expectRefused({ ...base, payload: '{"a\\u0000":1,"\\udc00":2}' }, [
        { field: 'a\\u0000', rule: 'nul' },
        { field: '\\udc00', rule: 'utf8' },
      ]);
      await expectRefused({ ...base, payload: '"\\u0000"' }, [{ field: 'body', rule: 'nul' }]);
      await expectRefused({ ...base, payload: Buffer.concat([Buffer.from('{"file_name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('.mp4"}')]) }, [
        { field: 'body', rule: 'utf8' },
      ]);
      await expectRefused({ ...base, headers: { ...base.headers, 'content-type': 'text/plain' }, payload: 'a\u0000b' }, [{ field: 'body', rule: 'nul' }]);
    }
  });

  it('the findings: file_name, an admin workspace name, /renders/a%00b; valid text still passes', async () => {
    const admin = { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' };
    await expectRefused({ method: 'POST', url: '/admin/v1/workspaces', headers: admin, payload: '{"name":"a\\u0000b"}' }, [{ field: 'name', rule: 'nul' }]);
    await expectRefused({ method: 'GET', url: '/api/v1/renders/a%00b', headers: { 'x-api-key': key } }, [{ field: 'path.renderId', rule: 'nul' }]);
    await expectRefused(
      {
        method: 'POST',
        url: '/api/v1/videos/upload',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: '{"file_name":"clip\\u0000.mp4","content_type":"video/mp4","file_size":1000}',
      },
      [{ field: 'file_name', rule: 'nul' }],
    );
    const ok = await t.app.inject({ method: 'POST', url: '/admin/v1/workspaces', headers: admin, payload: JSON.stringify({ name: 'Café 😀 ✓' }) });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().name).toBe('Café 😀 ✓');
    const query = await t.app.inject({ method: 'GET', url: '/api/v1/clips?video_id=vid_%C3%A9%F0%9F%98%80', headers: { 'x-api-key': key } });
    expect(query.statusCode).toBe(200);
    // A path the router refuses for another reason answers in the same format.
    const long = await t.app.inject({ method: 'GET', url: `/api/v1/renders/${'a'.repeat(500)}`, headers: { 'x-api-key': key } });
    expect([long.statusCode, long.json()]).toEqual([400, { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'path', rule: 'maxLength' }] } }]);
    // The JSON parser keeps its other guards.
    const proto = await t.app.inject({ method: 'POST', url: '/admin/v1/workspaces', headers: admin, payload: '{"name":"x","__proto__":{"a":1}}' });
    expect(proto.json()).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'body', rule: 'json' }] } });
  });
});

describe('rate limits', () => {
  it('counts 600/min per key by default with headers on every answer', async () => {
    const ws = await t.workspace();
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': ws.key } });
    expect(res.headers['x-ratelimit-limit']).toBe('600');
    expect(res.headers['x-ratelimit-remaining']).toBe('599');
    const reset = Number(res.headers['x-ratelimit-reset']);
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(now + 60);
    expect(reset % 60).toBe(0);
    const unauth = await t.app.inject({ method: 'GET', url: '/api/v1/workspace' });
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers['x-ratelimit-limit']).toBe('600');
  });

  it('refuses past the plan limit with 429 and Retry-After, per key', async () => {
    await t.c.plans.create('tiny', { rate_limit_per_minute: 3 });
    const ws = await t.workspace({ plan: 'tiny' });
    const other = await t.c.apiKeys.create({ workspaceIds: [ws.id] });
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': ws.key } });
      codes.push(last.statusCode);
    }
    // Unless the 60-second window turned over mid-loop, the fourth is refused.
    if (codes[3] === 429) {
      expect(codes).toEqual([200, 200, 200, 429]);
      expect(last!.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
      const retry = Number(last!.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    } else {
      expect(codes.filter((c) => c === 429)).toHaveLength(0);
    }
    const fresh = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': other.key } });
    expect(fresh.statusCode).toBe(200);
  });
});

describe('client address behind reverse proxies (CUTROOM_TRUST_PROXY)', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ env: { CUTROOM_TRUST_PROXY: '10.0.0.0/8,127.0.0.1' } });
  });
  afterAll(async () => {
    await proxied.close();
  });

  /** The per-IP bucket an unauthenticated request from `peer` with these headers is counted in. */
  async function bucketOf(peer: string, headers: Record<string, string>): Promise<string> {
    const hit = vi.spyOn(proxied.c.rateLimiter, 'hit');
    try {
      const res = await proxied.app.inject({ method: 'GET', url: '/api/v1/workspace', remoteAddress: peer, headers });
      expect(res.statusCode).toBe(401);
      expect(hit).toHaveBeenCalledTimes(1);
      return (hit.mock.calls as unknown as Array<[string]>)[0][0];
    } finally {
      hit.mockRestore();
    }
  }

  it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
    expect(await bucketOf('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' })).toBe('ip:203.0.113.9');
    expect(await bucketOf('203.0.113.9', { 'x-forwarded-for': '10.0.0.1, 198.51.100.2' })).toBe('ip:203.0.113.9');
    // Forging a new address on every request does not reset the counter.
    const remaining: number[] = [];
    for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      const res = await proxied.app.inject({ method: 'GET', url: '/api/v1/workspace', remoteAddress: '203.0.113.77', headers: { 'x-forwarded-for': forged } });
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual([remaining[0], remaining[0] - 1, remaining[0] - 2]);
  });

  it('takes the client address from X-Forwarded-For sent by a listed proxy, up to the first untrusted hop', async () => {
    expect(await bucketOf('10.1.2.3', { 'x-forwarded-for': '198.51.100.7' })).toBe('ip:198.51.100.7');
    expect(await bucketOf('127.0.0.1', { 'x-forwarded-for': '198.51.100.8' })).toBe('ip:198.51.100.8');
    // A client's own forged entry stays left of the address the proxy saw.
    expect(await bucketOf('10.1.2.3', { 'x-forwarded-for': '192.0.2.66, 198.51.100.9' })).toBe('ip:198.51.100.9');
    // Proxies chained inside the listed ranges are skipped.
    expect(await bucketOf('10.1.2.3', { 'x-forwarded-for': '198.51.100.10, 10.9.9.9' })).toBe('ip:198.51.100.10');
  });

  it('without CUTROOM_TRUST_PROXY, X-Forwarded-For is never read', async () => {
    const hit = vi.spyOn(t.c.rateLimiter, 'hit');
    try {
      await t.app.inject({ method: 'GET', url: '/api/v1/workspace', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect((hit.mock.calls as unknown as Array<[string]>)[0][0]).toBe('ip:127.0.0.1');
    } finally {
      hit.mockRestore();
    }
  });
});

describe('health and documentation', () => {
  it('answers /healthz without a key, and /readyz 503 while the queue is not running', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('serves an OpenAPI 3.1 document of the built endpoints only, and a docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/workspace', '/api/v1/balance', '/api/v1/balance/history']));
    for (const p of paths) expect(p.startsWith('/api/v1/')).toBe(true);
    expect(paths.some((p) => p.includes('docs') || p.includes('openapi'))).toBe(false);
    expect(doc.paths['/api/v1/balance/history'].get.responses['200']).toBeDefined();
    expect(doc.components.schemas.ErrorBody).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
