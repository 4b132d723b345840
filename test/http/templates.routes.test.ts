import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, statusAndBody, type TestApp } from '../helpers/app.js';
import { BUILTIN_TEMPLATES } from '../../src/domain/edits/caption-styles.js';
import { HIGHLIGHT_STRATEGIES } from '../../src/domain/highlights/highlight-engine.js';
import { templates } from '../../src/adapters/db/schema/index.js';
import { eq } from 'drizzle-orm';

let t: TestApp;
beforeAll(async () => {
  // The admin routes are tried with wrong tokens from one address more often than the default budget of refusals (admin-throttle.test.ts).
  t = await createTestApp({ env: { CUTROOM_ADMIN_AUTH_FAILURES_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'DELETE';

const list = (key: string, query = '') => t.api(key, 'GET', `/templates${query}`);

const BUILTIN_TEMPLATE_IDS = BUILTIN_TEMPLATES.map((b) => `tpl_${b.id.replace(/-/g, '_')}`);
const BUILTIN_IDS = [...BUILTIN_TEMPLATE_IDS, 'str_short', 'str_default', 'str_long'];
const ids = (body: any): string[] => body.templates.map((x: { id: string }) => x.id);

describe('GET /templates', () => {
  it('lists the built-in templates then strategies for a new workspace', async () => {
    const ws = await t.workspace();
    const r = await list(ws.key);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual(BUILTIN_IDS);
    expect(r.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: BUILTIN_IDS.length, has_next_page: false });

    const pop = r.body.templates[0];
    const first = BUILTIN_TEMPLATES[0];
    expect(pop).toEqual({
      id: BUILTIN_TEMPLATE_IDS[0],
      kind: 'template',
      name: first.name,
      builtin: true,
      created_at: expect.any(String),
      config: {
        captions: {
          font_family: first.captions.fontFamily,
          font_size: first.captions.fontSize,
          primary_color: first.captions.primaryColor,
          highlight_color: first.captions.highlightColor,
          highlight_mode: first.captions.highlightMode,
          pop_scale: first.captions.popScale,
          outline_color: first.captions.outlineColor,
          outline_width: first.captions.outlineWidth,
          shadow: first.captions.shadow,
          box: first.captions.box,
          position: first.captions.position,
          margin: first.captions.margin,
          words_per_line: first.captions.wordsPerLine,
          max_lines: first.captions.maxLines,
          uppercase: first.captions.uppercase,
        },
        title: expect.objectContaining({ font_family: first.title.fontFamily, outline_width: first.title.outlineWidth, seconds: first.title.seconds }),
        layout: {
          aspect: first.layout.aspect,
          reframe: first.layout.reframe,
          resolution: first.layout.resolution,
          zoom: first.layout.zoom,
          two_faces: first.layout.twoFaces,
        },
      },
    });
    expect(new Date(pop.created_at).toISOString()).toBe(pop.created_at);
    const karaoke = r.body.templates.find((x: any) => x.id === 'tpl_karaoke');
    expect(karaoke.config.captions.box).toEqual({ color: '#141414', opacity: 1 });
    expect(karaoke.config.layout.reframe).toBe('fit');

    const strategies = r.body.templates.filter((x: any) => x.kind === 'strategy');
    expect(strategies.map((s: any) => [s.id, s.name, s.builtin, s.config])).toEqual([
      ['str_short', 'Short', true, HIGHLIGHT_STRATEGIES.short],
      ['str_default', 'Default', true, HIGHLIGHT_STRATEGIES.default],
      ['str_long', 'Long', true, HIGHLIGHT_STRATEGIES.long],
    ]);
  });

  it('shows custom ones only in their own workspace, after the built-ins, newest first', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const s1 = await t.admin('POST', `/workspaces/${a.id}/templates`, {
      kind: 'strategy',
      name: 'Teasers',
      config: { min_seconds: 8, max_seconds: 15, max_clips: 5 },
    });
    const t1 = await t.admin('POST', `/workspaces/${a.id}/templates`, {
      kind: 'template',
      name: 'Brand',
      config: { captions: { highlight_color: '#FF00AA' } },
    });
    expect(s1.status).toBe(201);
    expect(t1.status).toBe(201);

    const ra = await list(a.key);
    expect(ids(ra.body)).toEqual([...BUILTIN_IDS, t1.body.id, s1.body.id]);
    expect(ra.body.templates.at(-1)).toEqual(s1.body);
    expect(ra.body.templates.at(-2)).toEqual(t1.body);
    expect(ids((await list(b.key)).body)).toEqual(BUILTIN_IDS);

    // Through the service: another workspace's id is not found, by kind.
    await expect(t.c.templates.getTemplate(b.id, t1.body.id)).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    await expect(t.c.templates.getStrategy(b.id, s1.body.id)).rejects.toMatchObject({ code: 'STRATEGY_NOT_FOUND' });
    await expect(t.c.templates.getTemplate(a.id, s1.body.id)).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    await expect(t.c.templates.getStrategy(a.id, t1.body.id)).rejects.toMatchObject({ code: 'STRATEGY_NOT_FOUND' });
    expect((await t.c.templates.getTemplate(a.id, t1.body.id)).config.captions.highlightColor).toBe('#FF00AA');
    expect((await t.c.templates.getStrategy(a.id, s1.body.id)).config).toEqual({ min_seconds: 8, max_seconds: 15, max_clips: 5 });
    expect((await t.c.templates.getStrategy(b.id, 'str_long')).config).toEqual(HIGHLIGHT_STRATEGIES.long);
    expect((await t.c.templates.defaultStrategy()).id).toBe('str_default');
    expect((await t.c.templates.defaultTemplate()).id).toBe(BUILTIN_TEMPLATE_IDS[0]);
    expect((await t.c.templates.templateOrDefault(a.id, undefined)).id).toBe(BUILTIN_TEMPLATE_IDS[0]);
    expect((await t.c.templates.strategyOrDefault(a.id, s1.body.id)).id).toBe(s1.body.id);
  });

  it('filters by kind', async () => {
    const ws = await t.workspace();
    const custom = await t.admin('POST', `/workspaces/${ws.id}/templates`, { kind: 'strategy', name: 'Quick', config: {} });
    const s = await list(ws.key, '?kind=strategy');
    expect(ids(s.body)).toEqual(['str_short', 'str_default', 'str_long', custom.body.id]);
    expect(s.body.pagination.total_count).toBe(4);
    const tp = await list(ws.key, '?kind=template');
    expect(ids(tp.body)).toEqual(BUILTIN_TEMPLATE_IDS);
    expect(tp.body.templates.every((x: any) => x.kind === 'template')).toBe(true);
  });

  it('pages with page and limit', async () => {
    const ws = await t.workspace();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await t.admin('POST', `/workspaces/${ws.id}/templates`, { kind: 'template', name: `T${i}`, config: {} })).body.id);
    const all = [...BUILTIN_IDS, ...made.reverse()];
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const r = await list(ws.key, `?page=${page}&limit=3`);
      expect(r.body.pagination).toEqual({
        current_page: page,
        total_pages: Math.ceil(all.length / 3),
        total_count: all.length,
        has_next_page: page * 3 < all.length,
      });
      seen.push(...ids(r.body));
    }
    expect(seen).toEqual(all);
    const past = await list(ws.key, '?page=9&limit=3');
    expect(past.body.templates).toEqual([]);
    expect(past.body.pagination.total_count).toBe(all.length);
  });

  it('answers 400 for a bad kind, page or limit and 401 without a key', async () => {
    const ws = await t.workspace();
    for (const [q, field] of [
      ['?kind=style', 'query.kind'],
      ['?page=0', 'query.page'],
      ['?limit=101', 'query.limit'],
    ]) {
      const r = await list(ws.key, q);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
      expect(r.body.extra.errors.map((e: any) => e.field)).toContain(field);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/templates' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHORIZED' });
  });

  it('is in the OpenAPI document with both object shapes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/api/v1/templates'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'kind']));
    expect(doc.components.schemas).toHaveProperty('Template');
    expect(doc.components.schemas).toHaveProperty('Strategy');
  });
});

describe('admin templates', () => {
  it('POST creates a template with defaults for absent fields (201)', async () => {
    const ws = await t.workspace();
    const r = await t.admin('POST', `/workspaces/${ws.id}/templates`, {
      kind: 'template',
      name: 'Square',
      config: {
        captions: { font_family: 'Inter SemiBold', words_per_line: 6, uppercase: false },
        layout: { aspect: '1:1', reframe: 'center', resolution: '720p', zoom: 'subtle', two_faces: 'split' },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'template', name: 'Square', builtin: false });
    expect(r.body.id).toMatch(/^tpl_[0-9a-z]{20}$/);
    expect(r.body.config.captions).toMatchObject({
      font_family: 'Inter SemiBold',
      words_per_line: 6,
      uppercase: false,
      font_size: BUILTIN_TEMPLATES[0].captions.fontSize,
    });
    expect(r.body.config.layout).toEqual({ aspect: '1:1', reframe: 'center', resolution: '720p', zoom: 'subtle', two_faces: 'split' });
    expect(Date.now() - new Date(r.body.created_at).getTime()).toBeLessThan(60_000);
  });

  it('POST creates a strategy (201)', async () => {
    const ws = await t.workspace();
    const r = await t.admin('POST', `/workspaces/${ws.id}/templates`, {
      kind: 'strategy',
      name: 'Podcast',
      config: { min_seconds: 45, max_seconds: 120, max_clips: 4 },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'strategy', name: 'Podcast', builtin: false, config: { min_seconds: 45, max_seconds: 120, max_clips: 4 } });
    expect(r.body.id).toMatch(/^str_[0-9a-z]{20}$/);
  });

  it('POST answers 400 VALIDATION_ERROR for bad body and config fields', async () => {
    const ws = await t.workspace();
    const url = `/workspaces/${ws.id}/templates`;
    const cases: Array<[unknown, Array<{ field: string; rule: string; allowed?: string[] }>]> = [
      [{ kind: 'style', name: 'x', config: {} }, [{ field: 'kind', rule: 'const', allowed: ['template', 'strategy'] }]],
      [{ kind: 'template', name: '', config: {} }, [{ field: 'name', rule: 'minLength' }]],
      [{ kind: 'template', name: '   ', config: {} }, [{ field: 'name', rule: 'pattern' }]],
      [{ kind: 'template', name: 'x'.repeat(101), config: {} }, [{ field: 'name', rule: 'maxLength' }]],
      [{ kind: 'template', name: 'x' }, [{ field: 'config', rule: 'required' }]],
      [{ kind: 'template', name: 'x', config: [] }, [{ field: 'config', rule: 'type' }]],
      [{ kind: 'template', name: 'x', config: {}, extra: 1 }, [{ field: 'extra', rule: 'additionalProperties' }]],
      [
        { kind: 'template', name: 'x', config: { captions: { font_size: 8, highlight_color: 'yellow' }, layout: { aspect: '4:3' } } },
        [
          { field: 'config.captions.font_size', rule: 'range 16..240' },
          { field: 'config.captions.highlight_color', rule: 'color #RRGGBB' },
          { field: 'config.layout.aspect', rule: 'one of 9:16, 1:1, 16:9' },
        ],
      ],
      [
        { kind: 'strategy', name: 'x', config: { min_seconds: 60, max_seconds: 50, max_clips: 40 } },
        [
          { field: 'config.max_clips', rule: 'range 1..30' },
          { field: 'config.max_seconds', rule: 'greater than min_seconds' },
        ],
      ],
      [
        { kind: 'strategy', name: 'x', config: { min_seconds: 2, length: 10 } },
        [
          { field: 'config.length', rule: 'unknown field' },
          { field: 'config.min_seconds', rule: 'range 5..180' },
        ],
      ],
    ];
    for (const [body, errors] of cases) {
      const r = await t.admin('POST', url, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
      expect(r.body.extra.errors, JSON.stringify(body)).toEqual(expect.arrayContaining(errors));
      expect(r.body.extra.errors).toHaveLength(errors.length);
    }
    expect(ids((await list(ws.key)).body)).toEqual(BUILTIN_IDS);
  });

  it('POST, GET and DELETE answer 404 WORKSPACE_NOT_FOUND for an unknown workspace', async () => {
    expect(statusAndBody(await t.admin('POST', '/workspaces/ws_nope/templates', { kind: 'strategy', name: 'x', config: {} }))).toEqual({
      status: 404,
      body: { code: 'WORKSPACE_NOT_FOUND' },
    });
    expect(statusAndBody(await t.admin('GET', '/workspaces/ws_nope/templates'))).toEqual({ status: 404, body: { code: 'WORKSPACE_NOT_FOUND' } });
    expect(statusAndBody(await t.admin('DELETE', '/workspaces/ws_nope/templates/tpl_x'))).toEqual({ status: 404, body: { code: 'WORKSPACE_NOT_FOUND' } });
  });

  it('GET lists what the workspace sees, with kind and paging', async () => {
    const ws = await t.workspace();
    const made = await t.admin('POST', `/workspaces/${ws.id}/templates`, { kind: 'template', name: 'Mine', config: {} });
    const r = await t.admin('GET', `/workspaces/${ws.id}/templates`);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([...BUILTIN_IDS, made.body.id]);
    expect(r.body.templates.at(-1)).toEqual(made.body);
    const k = await t.admin('GET', `/workspaces/${ws.id}/templates?kind=template&limit=1&page=${BUILTIN_TEMPLATE_IDS.length + 1}`);
    expect(ids(k.body)).toEqual([made.body.id]);
    expect(k.body.pagination).toMatchObject({ total_count: BUILTIN_TEMPLATE_IDS.length + 1, has_next_page: false });
    const bad = await t.admin('GET', `/workspaces/${ws.id}/templates?kind=x`);
    expect(bad.status).toBe(400);
    expect(bad.body.extra.errors[0].field).toBe('query.kind');
  });

  it("DELETE removes a custom one (204); built-ins, other workspaces' and unknown ids are 404 TEMPLATE_NOT_FOUND", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const tpl = (await t.admin('POST', `/workspaces/${a.id}/templates`, { kind: 'template', name: 'Gone soon', config: {} })).body;
    const str = (await t.admin('POST', `/workspaces/${a.id}/templates`, { kind: 'strategy', name: 'Gone too', config: {} })).body;

    const notFound = { status: 404, body: { code: 'TEMPLATE_NOT_FOUND' } };
    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${b.id}/templates/${tpl.id}`))).toEqual(notFound);
    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${a.id}/templates/${BUILTIN_TEMPLATE_IDS[0]}`))).toEqual(notFound);
    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${a.id}/templates/str_default`))).toEqual(notFound);
    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${a.id}/templates/tpl_unknown`))).toEqual(notFound);

    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${a.id}/templates/${tpl.id}`))).toEqual({ status: 204, body: undefined });
    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${a.id}/templates/${str.id}`))).toEqual({ status: 204, body: undefined });
    expect(statusAndBody(await t.admin('DELETE', `/workspaces/${a.id}/templates/${tpl.id}`))).toEqual(notFound);
    expect(ids((await list(a.key)).body)).toEqual(BUILTIN_IDS);
    await expect(t.c.templates.getTemplate(a.id, tpl.id)).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
  });

  it('every route answers 401 without the admin token, or with an API key', async () => {
    const ws = await t.workspace();
    const routes: Array<[Method, string, unknown?]> = [
      ['POST', `/workspaces/${ws.id}/templates`, { kind: 'strategy', name: 'x', config: {} }],
      ['GET', `/workspaces/${ws.id}/templates`],
      ['DELETE', `/workspaces/${ws.id}/templates/tpl_x`],
    ];
    for (const [method, url, payload] of routes) {
      const variants: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${ws.key}` }, { 'x-api-key': ws.key }];
      for (const headers of variants) {
        expect(statusAndBody(await t.admin(method, url, payload, { authorization: undefined, ...headers })), `${method} ${url}`).toEqual({
          status: 401,
          body: { code: 'UNAUTHORIZED' },
        });
      }
    }
    expect(ids((await list(ws.key)).body)).toEqual(BUILTIN_IDS);
  });
});

describe('built-ins at boot', () => {
  it('ensureBuiltins is idempotent, restores a changed built-in and drops one the code no longer has', async () => {
    const before = (await t.admin('GET', `/workspaces/${(await t.workspace()).id}/templates?limit=100`)).body.templates;
    await t.c.database.db
      .update(templates)
      .set({ name: 'Changed', config: { min_seconds: 1 } })
      .where(eq(templates.id, 'str_short'));
    await t.c.database.db.insert(templates).values({ id: 'tpl_dropped', kind: 'template', name: 'Dropped', builtin: true, config: {} });
    await t.c.templates.ensureBuiltins();
    await t.c.templates.ensureBuiltins();
    const ws = await t.workspace();
    const after = (await list(ws.key, '?limit=100')).body.templates;
    expect(after).toEqual(before);
    expect(after.filter((x: any) => x.builtin)).toHaveLength(BUILTIN_IDS.length);
  });
});

describe('on PostgreSQL', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ db: 'postgres' });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('seeds built-ins from several processes at once and lists in the same order', async () => {
    await Promise.all([p.c.templates.ensureBuiltins(), p.c.templates.ensureBuiltins(), p.c.templates.ensureBuiltins()]);
    const ws = await p.workspace();
    const made = await p.c.templates.create(ws.id, { kind: 'strategy', name: 'Mine', config: { max_clips: 2 } });
    const res = await p.app.inject({ method: 'GET', url: '/api/v1/templates?limit=100', headers: { 'x-api-key': ws.key } });
    expect(res.statusCode).toBe(200);
    expect(ids(res.json())).toEqual([...BUILTIN_IDS, made.id]);
    const s = await p.app.inject({ method: 'GET', url: '/api/v1/templates?kind=strategy&limit=2&page=2', headers: { 'x-api-key': ws.key } });
    expect(ids(s.json())).toEqual(['str_long', made.id]);
  });
});
