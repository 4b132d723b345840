import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connections, postItems, posts, renders } from '../../src/adapters/db/schema/index.js';
import type { Publisher } from '../../src/ports/publisher.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { FakeTikTok, FakeYouTube } from '../helpers/fake-networks.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * Connections and posts with the real workers in-process: edits are made directly in the database
 * (test/helpers/clips.ts) on a small 61 s source at 720p, rendered on demand by the post items, and
 * published to `local` and to loopback fakes of YouTube and TikTok.
 */

const BASE = 'http://cutroom.test';
let t: TestApp;
let dir: string;
let yt: FakeYouTube;
let tt: FakeTikTok;
let A: { id: string; key: string };
let B: { id: string; key: string };
/** Edits of workspace A (e1, e2, e3) and of B (b1). */
let e: string[];
let b1: string;

beforeAll(async () => {
  dir = tempDir('cutroom-posts-');
  const source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 320, height: 240, fps: 10 });
  [yt, tt] = await Promise.all([new FakeYouTube().start(), new FakeTikTok().start()]);
  t = await createTestApp({
    workers: true,
    env: {
      PUBLIC_BASE_URL: BASE,
      CUTROOM_YOUTUBE_API_BASE: yt.url,
      CUTROOM_YOUTUBE_OAUTH_BASE: yt.oauthBase,
      CUTROOM_YOUTUBE_CLIENT_ID: yt.clientId,
      CUTROOM_YOUTUBE_CLIENT_SECRET: yt.clientSecret,
      CUTROOM_TIKTOK_API_BASE: tt.url,
      CUTROOM_TIKTOK_CLIENT_KEY: tt.clientKey,
      CUTROOM_TIKTOK_CLIENT_SECRET: tt.clientSecret,
      CUTROOM_PUBLISH_POLL_INTERVAL_MS: '5',
      CUTROOM_PUBLISH_RETRY_BASE_MS: '200',
      CUTROOM_PUBLISH_RENDER_WAIT_MS: '300',
      CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
  });
  await t.c.plans.create('one_post_a_day', { daily_post_limit: 1 });
  A = await t.workspace({ name: 'A' });
  B = await t.workspace({ name: 'B' });
  const tplA = await t.c.templates.create(A.id, { kind: 'template', name: 'Small', config: { layout: { resolution: '720p', reframe: 'center' } } });
  const tplB = await t.c.templates.create(B.id, { kind: 'template', name: 'Small', config: { layout: { resolution: '720p', reframe: 'center' } } });
  const fa = await clipsFixture(t, A.id, source, {
    ranges: [
      { start: 2, end: 3 },
      { start: 5, end: 6 },
      { start: 8, end: 9 },
    ],
    templateId: tplA.id,
  });
  const fb = await clipsFixture(t, B.id, source, { ranges: [{ start: 2, end: 3 }], templateId: tplB.id });
  e = fa.editIds;
  b1 = fb.editIds[0];
});

afterAll(async () => {
  await t?.close();
  await Promise.all([yt?.close(), tt?.close()]);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(yt.violations).toEqual([]);
  expect(tt.violations).toEqual([]);
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

async function connect(ws: { id: string }, body: Record<string, unknown>): Promise<string> {
  const r = await t.admin('POST', `/workspaces/${ws.id}/connections`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

const local = (ws = A, name = `acct-${Math.random().toString(36).slice(2, 8)}`) => connect(ws, { platform: 'local', account_name: name });
const youtube = () => connect(A, { platform: 'youtube', account_name: 'My channel', credentials: { refresh_token: yt.refreshToken } });
const tiktok = () =>
  connect(A, { platform: 'tiktok', account_name: 'creator', credentials: { refresh_token: tt.refreshToken, open_id: tt.openId, username: 'creator' } });

const title = (s: string) => ({ local: { title: s }, youtube: { title: s }, tiktok: { privacyLevel: 'SELF_ONLY', title: s } });

async function pollPost(id: string, until: (p: any) => boolean = (p) => !['pending', 'processing'].includes(p.status), timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.api(A.key, 'GET', `/posts/${id}`);
    expect(r.status).toBe(200);
    if (until(r.body)) return r.body;
    if (Date.now() > deadline) throw new Error(`post ${id} still ${r.body.status}: ${JSON.stringify(r.body.items)}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

async function postCount(): Promise<number> {
  const [{ n }] = await t.c.database.db.select({ n: count() }).from(posts);
  return Number(n);
}

/** Noon (UTC) of the day after tomorrow: a schedule that never runs during the test and never crosses midnight. */
function farDay(hours = 0): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 2, 12 + hours)).toISOString();
}

describe('connections', () => {
  it('admin connects, lists and revokes accounts; credentials are required per network, sealed and never shown', async () => {
    const created = await t.admin('POST', `/workspaces/${A.id}/connections`, {
      platform: 'youtube',
      account_name: 'Channel',
      credentials: { refresh_token: 'very-secret-token' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ platform: 'youtube', account_name: 'Channel', status: 'active', can_publish_video: true, revoked_at: null });
    expect(created.body.id).toMatch(/^con_/);
    expect(JSON.stringify(created.body)).not.toContain('very-secret-token');
    const [row] = await t.c.database.db.select().from(connections).where(eq(connections.id, created.body.id));
    expect(row.credentialsEncrypted).toMatch(/^v1\./);
    expect(row.credentialsEncrypted).not.toContain('very-secret');

    const noCreds = await t.admin('POST', `/workspaces/${A.id}/connections`, { platform: 'youtube', account_name: 'x' });
    expect(noCreds.status).toBe(400);
    expect(noCreds.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'credentials.access_token', rule: 'required' }] } });
    const ig = await t.admin('POST', `/workspaces/${A.id}/connections`, { platform: 'instagram', account_name: 'x', credentials: { access_token: 't' } });
    expect(ig.body.extra.errors[0].field).toBe('credentials.ig_user_id');
    expect((await t.admin('POST', `/workspaces/${A.id}/connections`, { platform: 'myspace', account_name: 'x' })).body.extra.errors[0].field).toBe('platform');
    expect((await t.admin('POST', '/workspaces/ws_nope/connections', { platform: 'local', account_name: 'x' })).body.code).toBe('WORKSPACE_NOT_FOUND');

    const list = await t.admin('GET', `/workspaces/${A.id}/connections?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.connections.map((c: any) => c.id)).toContain(created.body.id);

    expect((await t.admin('DELETE', `/workspaces/${A.id}/connections/${created.body.id}`)).status).toBe(204);
    expect((await t.admin('DELETE', `/workspaces/${B.id}/connections/${created.body.id}`)).body.code).toBe('CONNECTION_NOT_FOUND');
    const [revoked] = await t.c.database.db.select().from(connections).where(eq(connections.id, created.body.id));
    expect(revoked).toMatchObject({ status: 'revoked', credentialsEncrypted: null });
  });

  it('GET /connections lists the workspace’s own accounts with pagination', async () => {
    const mine = await local(B, 'b-account');
    const r = await t.api(B.key, 'GET', '/connections?limit=1');
    expect(r.status).toBe(200);
    expect(r.body.connections).toEqual([
      { id: mine, platform: 'local', account_name: 'b-account', status: 'active', can_publish_video: true, created_at: expect.any(String) },
    ]);
    expect(r.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 1, has_next_page: false });
    const a = await t.api(A.key, 'GET', '/connections?limit=100');
    expect(a.body.connections.map((c: any) => c.id)).not.toContain(mine);

    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/connections',
        '/api/v1/posts',
        '/api/v1/posts/{id}',
        '/api/v1/posts/{id}/items/{itemId}/retry',
        '/api/v1/posts/{id}/items/{itemId}',
      ]),
    );
    expect(Object.keys(doc.paths).some((p) => p.includes('published'))).toBe(false);
  });
});

describe('POST /posts refuses before creating anything', () => {
  it('400 VALIDATION_ERROR, 404 EDITS_NOT_FOUND, 400 INVALID_CONNECTIONS, 400 INVALID_METADATA, in that order', async () => {
    const con = await local();
    const before = await postCount();

    const noVideos = await t.api(A.key, 'POST', '/posts', {});
    expect(noVideos.status).toBe(400);
    expect(noVideos.body.code).toBe('VALIDATION_ERROR');
    const past = await t.api(A.key, 'POST', '/posts', {
      videos: [{ edit_id: 'edit_nope', targets: [{ connection_id: 'con_nope' }] }],
      scheduled_at: '2020-01-01T00:00:00Z',
    });
    expect(past.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'scheduled_at', rule: 'future' }] } });

    const edits = await t.api(A.key, 'POST', '/posts', {
      videos: [
        { edit_id: 'edit_nope', targets: [{ connection_id: 'con_nope' }] },
        { edit_id: b1, targets: [{ connection_id: con, metadata: title('x') }] },
        { edit_id: e[0], targets: [{ connection_id: con, metadata: title('x') }] },
      ],
    });
    expect(edits.status).toBe(404);
    expect(edits.body).toEqual({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: ['edit_nope', b1] } });

    const revoked = await local();
    await t.admin('DELETE', `/workspaces/${A.id}/connections/${revoked}`);
    const noVideo = await connect(A, { platform: 'local', account_name: 'pictures-only', can_publish_video: false });
    const foreign = await local(B);
    const cons = await t.api(A.key, 'POST', '/posts', {
      videos: [{ edit_id: e[0], targets: [con, 'con_nope', revoked, noVideo, foreign].map((id) => ({ connection_id: id, metadata: { local: {} } })) }],
    });
    expect(cons.status).toBe(400);
    expect(cons.body).toEqual({ code: 'INVALID_CONNECTIONS', extra: { invalid_connections: ['con_nope', revoked, noVideo, foreign] } });

    const yt1 = await youtube();
    const meta = await t.api(A.key, 'POST', '/posts', {
      videos: [
        {
          edit_id: e[0],
          targets: [
            { connection_id: con, metadata: { local: { title: 'ok' } } },
            { connection_id: yt1, metadata: { youtube: { title: 'ok', privacyStatus: 'everyone' } } },
          ],
        },
      ],
    });
    expect(meta.status).toBe(400);
    expect(meta.body).toEqual({ code: 'INVALID_METADATA', extra: { field: 'youtube.privacyStatus', edit_id: e[0], connection_id: yt1 } });
    const missing = await t.api(A.key, 'POST', '/posts', { videos: [{ edit_id: e[0], targets: [{ connection_id: con }] }] });
    expect(missing.body.extra.field).toBe('local.title');

    expect(await postCount()).toBe(before);
  });

  it('403 DAILY_LIMIT_EXCEEDED per account and UTC day, then 409 DUPLICATE_POST', async () => {
    const con = await local();
    await t.c.workspaces.update(A.id, { plan: 'one_post_a_day' });
    try {
      const two = await t.api(A.key, 'POST', '/posts', {
        videos: [e[0], e[1]].map((id) => ({ edit_id: id, targets: [{ connection_id: con, metadata: title('t') }] })),
        scheduled_at: farDay(),
      });
      expect(two.status).toBe(403);
      expect(two.body).toEqual({ code: 'DAILY_LIMIT_EXCEEDED', extra: { daily_limit: 1, used_today: 0, requested: 2, connection_id: con } });

      const one = await t.api(A.key, 'POST', '/posts', {
        videos: [{ edit_id: e[0], targets: [{ connection_id: con, metadata: title('t') }] }],
        scheduled_at: farDay(),
      });
      expect(one.status).toBe(201);
      expect(one.body).toEqual({ id: expect.stringMatching(/^post_/), item_count: 1, scheduled_at: farDay(), status: 'pending' });
      const sameDay = await t.api(A.key, 'POST', '/posts', {
        videos: [{ edit_id: e[1], targets: [{ connection_id: con, metadata: title('t') }] }],
        scheduled_at: farDay(3),
      });
      expect(sameDay.body).toEqual({ code: 'DAILY_LIMIT_EXCEEDED', extra: { daily_limit: 1, used_today: 1, requested: 1, connection_id: con } });
      // Another account has its own ceiling.
      const other = await local();
      const dup = await t.api(A.key, 'POST', '/posts', {
        videos: [{ edit_id: e[0], targets: [{ connection_id: other, metadata: title('t') }] }],
        scheduled_at: farDay(24),
      });
      expect(dup.status).toBe(201);
      await t.c.workspaces.update(A.id, { plan: 'default' });

      // The same edit already on its way to the same account (the scheduled post above).
      const again = await t.api(A.key, 'POST', '/posts', { videos: [{ edit_id: e[0], targets: [{ connection_id: con, metadata: title('t') }] }] });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: 'DUPLICATE_POST', extra: { edit_id: e[0], connection_id: con, post_id: one.body.id } });
      const twice = await t.api(A.key, 'POST', '/posts', {
        videos: [
          {
            edit_id: e[1],
            targets: [
              { connection_id: con, metadata: title('t') },
              { connection_id: con, metadata: title('t') },
            ],
          },
        ],
      });
      expect(twice.body).toEqual({ code: 'DUPLICATE_POST', extra: { edit_id: e[1], connection_id: con } });

      // Deleting the post cancels its item: the edit may be posted to the account again.
      expect((await t.api(A.key, 'DELETE', `/posts/${one.body.id}`)).status).toBe(204);
      expect((await t.api(A.key, 'GET', `/posts/${one.body.id}`)).body).toEqual({ code: 'POST_NOT_FOUND' });
      const [cancelled] = await t.c.database.db.select().from(postItems).where(eq(postItems.postId, one.body.id));
      expect(cancelled).toMatchObject({ status: 'failed', errorCode: 'CANCELLED' });
      expect(cancelled.removedAt).not.toBeNull();
      const later = await t.api(A.key, 'POST', '/posts', {
        videos: [{ edit_id: e[0], targets: [{ connection_id: con, metadata: title('t') }] }],
        scheduled_at: farDay(),
      });
      expect(later.status).toBe(201);
      await t.api(A.key, 'DELETE', `/posts/${later.body.id}`);
      await t.api(A.key, 'DELETE', `/posts/${dup.body.id}`);
    } finally {
      await t.c.workspaces.update(A.id, { plan: 'default' });
    }
  });
});

describe('publishing', () => {
  it('publishes to local: rendered on demand, the file is served at published_url, metadata as published', async () => {
    const con = await local(A, 'my-site');
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [
        {
          edit_id: e[0],
          targets: [{ connection_id: con, metadata: { local: { title: 'First clip', caption: 'hello', extraKey: 1 }, youtube: { title: 'ignored' } } }],
        },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ item_count: 1, scheduled_at: null, status: 'pending' });
    const post = await pollPost(r.body.id);
    expect(post.status).toBe('completed');
    expect(Object.keys(post).sort()).toEqual(['created_at', 'id', 'item_count', 'items', 'scheduled_at', 'status']);
    const [item] = post.items;
    expect(item).toMatchObject({
      edit_id: e[0],
      platform: 'local',
      connection_id: con,
      status: 'published',
      error_code: null,
      metadata: { local: { title: 'First clip', caption: 'hello', extraKey: 1 } },
    });
    expect(item.id).toMatch(/^item_/);
    expect(item.published_url).toBe(`${BASE}/published/my-site/${item.id}.mp4`);
    const rendered = await t.api(A.key, 'GET', `/renders/${item.render_id}`);
    expect(rendered.body).toMatchObject({ status: 'completed', edit_id: e[0], output_resolution: '720p' });

    const served = await t.app.inject({ method: 'GET', url: new URL(item.published_url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('video/mp4');
    expect(served.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    const meta = await t.app.inject({ method: 'GET', url: new URL(item.published_url).pathname.replace(/\.mp4$/, '.json') });
    expect(meta.json()).toMatchObject({ title: 'First clip', caption: 'hello' });
  });

  it('a local target and a failing network target → partial; the failed item retried → completed', async () => {
    const con = await local();
    const ytCon = await youtube();
    // The post's endings are announced to A's webhook endpoint (delivery rows, whatever the receiver does).
    const hook = await t.c.webhooks.create(A.id, { url: 'http://127.0.0.1:9/hooks', events: ['post.completed', 'post.partial', 'post.failed'] });
    const videosBefore = yt.videos.size;
    yt.failOnce({ step: 'init', status: 403, body: { error: { code: 403, message: 'forbidden', errors: [{ reason: 'forbidden' }] } } });
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [
        {
          edit_id: e[0],
          targets: [
            { connection_id: con, metadata: title('Two') },
            { connection_id: ytCon, metadata: title('Two') },
          ],
        },
      ],
    });
    expect(r.status).toBe(201);
    const post = await pollPost(r.body.id);
    expect(post.status).toBe('partial');
    const [ok, bad] = post.items;
    expect(ok).toMatchObject({ platform: 'local', status: 'published' });
    expect(bad).toMatchObject({
      platform: 'youtube',
      status: 'failed',
      error_code: 'AUTH_REVOKED',
      published_url: null,
      metadata: { youtube: { title: 'Two', privacyStatus: 'private' } },
    });
    // The render of the first test is reused.
    expect(ok.render_id).toBe(bad.render_id);

    expect((await t.api(A.key, 'POST', `/posts/${r.body.id}/items/${ok.id}/retry`)).body).toEqual({
      code: 'POST_ITEM_NOT_FAILED',
      extra: { status: 'published' },
    });
    const retried = await t.api(A.key, 'POST', `/posts/${r.body.id}/items/${bad.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('processing');
    expect(retried.body.items[1]).toMatchObject({ error_code: null });
    expect(['pending', 'processing']).toContain(retried.body.items[1].status);
    const done = await pollPost(r.body.id);
    expect(done.status).toBe('completed');
    expect(done.items[1].published_url).toMatch(new RegExp(`^https://www\\.youtube\\.com/watch\\?v=`));
    expect(done.items[0]).toEqual(ok);
    expect(yt.videos.size).toBe(videosBefore + 1);

    const events = (await t.c.webhooks.deliveries(A.id, hook.id, { page: 1, limit: 10, offset: 0 })).rows.reverse();
    expect(events.map((d) => [d.eventType, JSON.parse(d.body).data])).toEqual([
      ['post.partial', { id: r.body.id, status: 'partial' }],
      ['post.completed', { id: r.body.id, status: 'completed' }],
    ]);
    await t.c.webhooks.delete(A.id, hook.id);
  });

  it('a network answering 500 then 200 is retried with backoff → completed, published once', async () => {
    const ytCon = await youtube();
    const ttCon = await tiktok();
    const [videosBefore, ttBefore] = [yt.videos.size, tt.published().length];
    yt.failOnce({ step: 'init', status: 500, body: { error: { code: 500, message: 'backend error', errors: [{ reason: 'backendError' }] } } });
    tt.failOnce({ step: 'init', status: 500, body: { error: { code: 'internal_error', message: 'x', log_id: 'y' } } });
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [
        {
          edit_id: e[1],
          targets: [
            { connection_id: ytCon, metadata: title('Retry') },
            { connection_id: ttCon, metadata: title('Retry') },
          ],
        },
      ],
    });
    const post = await pollPost(r.body.id);
    expect(post.status, JSON.stringify(post.items)).toBe('completed');
    expect(yt.videos.size).toBe(videosBefore + 1);
    expect(tt.published().length).toBe(ttBefore + 1);
    const rows = await t.c.database.db.select().from(postItems).where(eq(postItems.postId, r.body.id));
    expect(rows.map((i) => i.attempts)).toEqual([2, 2]);
  });

  it('schedule then publish after a short delay; PATCH before publishing changes metadata and time; 409 after', async () => {
    const con = await local(A, 'scheduled');
    const at = new Date(Date.now() + 60 * 60_000).toISOString();
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [{ edit_id: e[0], targets: [{ connection_id: con, metadata: title('Before') }] }],
      scheduled_at: at,
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ scheduled_at: at, status: 'pending' });
    const itemId = (await t.api(A.key, 'GET', `/posts/${r.body.id}`)).body.items[0].id;

    expect((await t.api(A.key, 'PATCH', `/posts/${r.body.id}`, { items: [{ id: itemId, metadata: { local: { title: '' } } }] })).body).toEqual({
      code: 'INVALID_METADATA',
      extra: { field: 'local.title', item_id: itemId },
    });
    expect((await t.api(A.key, 'PATCH', `/posts/${r.body.id}`, { items: [{ id: 'item_nope', metadata: {} }] })).body).toEqual({
      code: 'POST_ITEM_NOT_FOUND',
      extra: { item_id: 'item_nope' },
    });
    expect((await t.api(A.key, 'PATCH', `/posts/${r.body.id}`, { scheduled_at: '2020-01-01T00:00:00Z' })).body.extra.errors).toEqual([
      { field: 'scheduled_at', rule: 'future' },
    ]);

    const soon = new Date(Date.now() + 2000).toISOString();
    const patched = await t.api(A.key, 'PATCH', `/posts/${r.body.id}`, {
      scheduled_at: soon,
      items: [{ id: itemId, metadata: { local: { title: 'After' } } }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      scheduled_at: soon,
      status: 'pending',
      items: [{ id: itemId, status: 'pending', metadata: { local: { title: 'After' } } }],
    });

    const post = await pollPost(r.body.id);
    expect(post.status).toBe('completed');
    expect(Date.parse(post.items[0].published_at)).toBeGreaterThanOrEqual(Date.parse(soon) - 1000);
    const meta = await t.app.inject({ method: 'GET', url: new URL(post.items[0].published_url).pathname.replace(/\.mp4$/, '.json') });
    expect(meta.json().title).toBe('After');

    const late = await t.api(A.key, 'PATCH', `/posts/${r.body.id}`, { scheduled_at: null });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ code: 'POST_ALREADY_PROCESSING', extra: { status: 'completed' } });
  });

  it('a crash between upload and recording publishes nothing twice (local and YouTube resume)', async () => {
    const con = await local(A, 'crashy');
    const ytCon = await youtube();
    const map = t.c.publishers as Map<string, Publisher>;
    const real = { local: map.get('local')!, youtube: map.get('youtube')! };
    const crashes: string[] = [];
    for (const [name, p] of Object.entries(real)) {
      let crashed = false;
      map.set(name, {
        platform: p.platform,
        canPublishVideo: p.canPublishVideo,
        checkCredentials: (credentials) => p.checkCredentials(credentials),
        async publish(input) {
          const result = await p.publish(input);
          if (!crashed) {
            crashed = true;
            crashes.push(name);
            throw new Error('simulated crash before the result was recorded');
          }
          return result;
        },
      });
    }
    try {
      const [videosBefore, initsBefore] = [yt.videos.size, yt.inits];
      const r = await t.api(A.key, 'POST', '/posts', {
        videos: [
          {
            edit_id: e[2],
            targets: [
              { connection_id: con, metadata: title('Once') },
              { connection_id: ytCon, metadata: title('Once') },
            ],
          },
        ],
      });
      const post = await pollPost(r.body.id);
      expect(post.status, JSON.stringify(post.items)).toBe('completed');
      expect(crashes.sort()).toEqual(['local', 'youtube']);
      expect(yt.videos.size).toBe(videosBefore + 1);
      expect(yt.inits).toBe(initsBefore + 1);
      expect(post.items[1].published_url).toContain([...yt.videos.keys()].at(-1));
      const files = fs.readdirSync(path.join(t.dataDir, 'published', 'crashy'));
      expect(files.sort()).toEqual([`${post.items[0].id}.json`, `${post.items[0].id}.mp4`]);
    } finally {
      map.set('local', real.local);
      map.set('youtube', real.youtube);
    }
  });
});

describe('deleting and cross-workspace access', () => {
  it('DELETE an item leaves its siblings; deleting the last one deletes the post; published stays published', async () => {
    const c1 = await local();
    const c2 = await local();
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [
        {
          edit_id: e[1],
          targets: [
            { connection_id: c1, metadata: title('a') },
            { connection_id: c2, metadata: title('b') },
          ],
        },
      ],
      scheduled_at: farDay(),
    });
    const [i1, i2] = (await t.api(A.key, 'GET', `/posts/${r.body.id}`)).body.items;
    expect((await t.api(A.key, 'DELETE', `/posts/${r.body.id}/items/${i1.id}`)).status).toBe(204);
    const after = (await t.api(A.key, 'GET', `/posts/${r.body.id}`)).body;
    expect(after).toMatchObject({ item_count: 1, status: 'pending', items: [{ id: i2.id, status: 'pending' }] });
    expect((await t.api(A.key, 'DELETE', `/posts/${r.body.id}/items/${i1.id}`)).body).toEqual({ code: 'POST_ITEM_NOT_FOUND' });
    expect((await t.api(A.key, 'DELETE', `/posts/${r.body.id}/items/${i2.id}`)).status).toBe(204);
    expect((await t.api(A.key, 'GET', `/posts/${r.body.id}`)).status).toBe(404);

    // A published post deleted: its video stays where it was published.
    const pub = await t.api(A.key, 'POST', '/posts', { videos: [{ edit_id: e[1], targets: [{ connection_id: c1, metadata: title('kept') }] }] });
    const done = await pollPost(pub.body.id);
    expect(done.status).toBe('completed');
    expect((await t.api(A.key, 'DELETE', `/posts/${pub.body.id}`)).status).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: new URL(done.items[0].published_url).pathname })).statusCode).toBe(200);
  });

  it('another workspace’s posts, items, edits and connections are 404 / invalid', async () => {
    const con = await local();
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [{ edit_id: e[2], targets: [{ connection_id: con, metadata: title('mine') }] }],
      scheduled_at: farDay(),
    });
    const itemId = (await t.api(A.key, 'GET', `/posts/${r.body.id}`)).body.items[0].id;
    for (const [method, url, body] of [
      ['GET', `/posts/${r.body.id}`],
      ['PATCH', `/posts/${r.body.id}`, { scheduled_at: null }],
      ['DELETE', `/posts/${r.body.id}`],
      ['POST', `/posts/${r.body.id}/items/${itemId}/retry`],
      ['DELETE', `/posts/${r.body.id}/items/${itemId}`],
      ['GET', '/posts/post_nope'],
    ] as Array<[Method, string, unknown?]>) {
      const res = await t.api(B.key, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toEqual({ code: 'POST_NOT_FOUND' });
    }
    expect((await t.api(A.key, 'POST', `/posts/${r.body.id}/items/item_nope/retry`)).body).toEqual({ code: 'POST_ITEM_NOT_FOUND' });
    expect((await t.api(B.key, 'POST', '/posts', { videos: [{ edit_id: e[2], targets: [{ connection_id: con }] }] })).body).toEqual({
      code: 'EDITS_NOT_FOUND',
      extra: { invalid_edits: [e[2]] },
    });
    expect((await t.api(B.key, 'POST', '/posts', { videos: [{ edit_id: b1, targets: [{ connection_id: con }] }] })).body).toEqual({
      code: 'INVALID_CONNECTIONS',
      extra: { invalid_connections: [con] },
    });
    // Still there for its owner, untouched.
    expect((await t.api(A.key, 'GET', `/posts/${r.body.id}`)).body).toMatchObject({ status: 'pending', item_count: 1 });
    await t.api(A.key, 'DELETE', `/posts/${r.body.id}`);
  });

  it('an item whose account was revoked before it was published fails with CONNECTION_REVOKED', async () => {
    const con = await local();
    const r = await t.api(A.key, 'POST', '/posts', {
      videos: [{ edit_id: e[2], targets: [{ connection_id: con, metadata: title('gone') }] }],
      scheduled_at: farDay(),
    });
    expect((await t.admin('DELETE', `/workspaces/${A.id}/connections/${con}`)).status).toBe(204);
    expect((await t.api(A.key, 'PATCH', `/posts/${r.body.id}`, { scheduled_at: null })).status).toBe(200);
    const post = await pollPost(r.body.id);
    expect(post).toMatchObject({ status: 'failed', items: [{ status: 'failed', error_code: 'CONNECTION_REVOKED', published_url: null }] });
  });

  it('render_id becomes null once the render’s file is purged', async () => {
    const con = await local();
    const r = await t.api(A.key, 'POST', '/posts', { videos: [{ edit_id: e[2], targets: [{ connection_id: con, metadata: title('purge') }] }] });
    const post = await pollPost(r.body.id);
    const renderId = post.items[0].render_id;
    expect(renderId).toMatch(/^rnd_/);
    await t.c.database.db
      .update(renders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(renders.id, renderId));
    const after = (await t.api(A.key, 'GET', `/posts/${r.body.id}`)).body;
    expect(after.items[0]).toMatchObject({ render_id: null, status: 'published', published_url: post.items[0].published_url });
  });
});
