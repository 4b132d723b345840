import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastBatches, broadcasts } from '../../src/adapters/db/schema.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * /monitors over HTTP: creation with URL classification (channels by path, other addresses by their body
 * read with the safe fetcher), the Monitor object, list/get/patch/delete, start (402) and stop, broadcasts
 * and their clips, render and apply_template, and every id of another workspace → 404.
 */

let t: TestApp;
let srv: StaticServer;
let dir: string;

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
 <title>Uploads</title>
 <entry><id>yt:video:aaaaaaaaaaa</id><yt:videoId>aaaaaaaaaaa</yt:videoId><title>First</title><link rel="alternate" href="https://www.youtube.com/watch?v=aaaaaaaaaaa"/></entry>
</feed>`;
const LIVE = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0', '#EXTINF:2.0,', 'seg0.ts', ''].join('\n');

beforeAll(async () => {
  dir = tempDir('cutroom-mon-http-');
  fs.writeFileSync(path.join(dir, 'uploads.xml'), FEED);
  fs.writeFileSync(path.join(dir, 'live.m3u8'), LIVE);
  fs.writeFileSync(path.join(dir, 'page.html'), '<html><body>hello</body></html>');
  srv = await startStaticServer(dir);
  // A yt-dlp path so that YouTube channels are accepted (no run happens while the monitors stay stopped).
  t = await createTestApp({ env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_YTDLP_PATH: '/bin/true', CUTROOM_MONITOR_POLL_SECONDS: '3600' }, startQueue: true });
});

afterAll(async () => {
  await t?.close();
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('POST /monitors', () => {
  it('classifies feeds, live playlists and channels, created stopped', async () => {
    const ws = await t.workspace({ credits: 10 });
    const feed = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml`, name: 'Uploads' });
    expect(feed.status).toBe(201);
    expect(feed.body).toMatchObject({ type: 'video', platform: 'feed', status: 'stopped', stop_reason: null, name: 'Uploads', url: `${srv.url}/uploads.xml`, source_language: 'auto', started_at: null, last_checked_at: null });
    expect(Object.keys(feed.body).sort()).toEqual(
      ['created_at', 'id', 'last_checked_at', 'name', 'platform', 'source_language', 'started_at', 'status', 'stop_reason', 'strategy_id', 'template_id', 'type', 'url'].sort(),
    );
    const live = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8`, strategy_id: 'str_short', source_language: 'en' });
    expect(live.status).toBe(201);
    expect(live.body).toMatchObject({ type: 'live', platform: 'hls', strategy_id: 'str_short', source_language: 'en', status: 'stopped' });
    const yt = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: 'https://www.youtube.com/@SomeChannel/streams' });
    expect(yt.body).toMatchObject({ platform: 'youtube', name: '@SomeChannel' });
    const ytFeed = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv' });
    expect(ytFeed.body).toMatchObject({ platform: 'feed' });
  });

  it('refuses what is not a channel, feed or live playlist with 422 INVALID_URL, and a video monitor of a playlist with 400', async () => {
    const ws = await t.workspace();
    for (const url of [`${srv.url}/page.html`, `${srv.url}/missing.xml`, 'https://www.youtube.com/watch?v=aaaaaaaaaaa', 'https://www.twitch.tv/videos/123', 'ftp://example.com/feed.xml', 'http://169.254.169.254/latest/feed.xml']) {
      const r = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url });
      expect({ url, status: r.status, body: r.body }).toEqual({ url, status: 422, body: { code: 'INVALID_URL' } });
    }
    const hls = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/live.m3u8` });
    expect(hls.status).toBe(400);
    expect(hls.body.code).toBe('VALIDATION_ERROR');
    expect(hls.body.extra.errors[0].field).toBe('type');
    const bad = await t.api(ws.key, 'POST', '/monitors', { type: 'sometimes', url: `${srv.url}/live.m3u8` });
    expect(bad.status).toBe(400);
    const twitch = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: 'https://www.twitch.tv/somechannel' });
    expect(twitch.status).toBe(400);
    expect(twitch.body).toEqual({ code: 'PLATFORM_UNAVAILABLE' });
    const tpl = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8`, template_id: 'tpl_nope' });
    expect(tpl.status).toBe(404);
    expect(tpl.body.code).toBe('TEMPLATE_NOT_FOUND');
    const str = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8`, strategy_id: 'str_nope' });
    expect(str.body.code).toBe('STRATEGY_NOT_FOUND');
    expect((await t.api(ws.key, 'GET', '/monitors')).body.pagination.total_count).toBe(0);
  });

  it('refuses private addresses unless the operator allows them', async () => {
    const strict = await createTestApp();
    try {
      const ws = await strict.workspace();
      const r = await strict.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ code: 'INVALID_URL' });
      const yt = await strict.api(ws.key, 'POST', '/monitors', { type: 'video', url: 'https://www.youtube.com/@SomeChannel' });
      expect(yt.body).toEqual({ code: 'PLATFORM_UNAVAILABLE' });
    } finally {
      await strict.close();
    }
  });
});

describe('reading, changing and deleting monitors', () => {
  it('lists, gets, patches and deletes; another workspace gets 404', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const a = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8`, name: 'A' })).body;
    const b = (await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml`, name: 'B' })).body;
    const list = await t.api(ws.key, 'GET', '/monitors?limit=1');
    expect(list.status).toBe(200);
    expect(list.body.monitors.map((m: any) => m.id)).toEqual([b.id]);
    expect(list.body.pagination).toEqual({ current_page: 1, total_pages: 2, total_count: 2, has_next_page: true });
    expect((await t.api(ws.key, 'GET', `/monitors/${a.id}`)).body).toEqual(a);

    const patched = await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { name: 'Renamed', strategy_id: 'str_short', source_language: 'en' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', strategy_id: 'str_short', source_language: 'en' });
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { strategy_id: null })).body.strategy_id).toBeNull();
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { template_id: 'tpl_nope' })).body.code).toBe('TEMPLATE_NOT_FOUND');
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, {})).status).toBe(400);

    for (const [method, p, body] of [
      ['GET', `/monitors/${a.id}`],
      ['PATCH', `/monitors/${a.id}`, { name: 'x' }],
      ['DELETE', `/monitors/${a.id}`],
      ['POST', `/monitors/${a.id}/start`],
      ['POST', `/monitors/${a.id}/stop`],
      ['GET', `/monitors/${a.id}/broadcasts`],
      ['GET', `/monitors/${a.id}/broadcasts/bc_x/clips`],
      ['POST', `/monitors/${a.id}/broadcasts/bc_x/clips/clip_x/render`],
      ['POST', `/monitors/${a.id}/broadcasts/bc_x/apply_template`, { template_id: 'tpl_bold_pop' }],
    ] as const) {
      const r = await t.api(other.key, method, p, body);
      expect({ method, p, status: r.status, body: r.body }).toEqual({ method, p, status: 404, body: { code: 'MONITOR_NOT_FOUND' } });
    }
    expect((await t.api(other.key, 'GET', '/monitors')).body.monitors).toEqual([]);

    const del = await t.api(ws.key, 'DELETE', `/monitors/${b.id}`);
    expect(del.status).toBe(204);
    expect((await t.api(ws.key, 'GET', `/monitors/${b.id}`)).body).toEqual({ code: 'MONITOR_NOT_FOUND' });
    expect((await t.api(ws.key, 'DELETE', `/monitors/${b.id}`)).status).toBe(404);
    expect((await t.api(ws.key, 'GET', '/monitors')).body.monitors.map((m: any) => m.id)).toEqual([a.id]);
  });
});

describe('start and stop', () => {
  it('402 without credits (one batch needed), then watching, stop with USER; both idempotent', async () => {
    const poor = await t.workspace({ credits: 0 });
    const m = (await t.api(poor.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const refused = await t.api(poor.key, 'POST', `/monitors/${m.id}/start`);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ code: 'INSUFFICIENT_CREDITS', extra: { credits_needed: 10, current_balance: 0 } });
    expect((await t.api(poor.key, 'GET', `/monitors/${m.id}`)).body.status).toBe('stopped');
    const video = (await t.api(poor.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml` })).body;
    expect((await t.api(poor.key, 'POST', `/monitors/${video.id}/start`)).body.extra).toEqual({ credits_needed: 1, current_balance: 0 });

    const ws = await t.workspace({ credits: 3 });
    const mon = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const started = await t.api(ws.key, 'POST', `/monitors/${mon.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).not.toBe('stopped');
    expect(started.body.started_at).toEqual(expect.any(String));
    expect((await t.api(ws.key, 'POST', `/monitors/${mon.id}/start`)).body.status).not.toBe('stopped');
    const stopped = await t.api(ws.key, 'POST', `/monitors/${mon.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: 'stopped', stop_reason: 'USER' });
    expect((await t.api(ws.key, 'POST', `/monitors/${mon.id}/stop`)).body).toMatchObject({ status: 'stopped', stop_reason: 'USER' });
    // Nothing was charged by starting or stopping.
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(3);
  });

  it('free usage starts without credits', async () => {
    const ws = await t.workspace({ credits: 0 });
    expect((await t.admin('PUT', `/workspaces/${ws.id}/free-usage`, { until: null })).status).toBe(200);
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml` })).body;
    const r = await t.api(ws.key, 'POST', `/monitors/${m.id}/start`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('watching');
    await t.api(ws.key, 'POST', `/monitors/${m.id}/stop`);
  });
});

describe('broadcasts, their clips, render and apply_template', () => {
  it('lists broadcasts; unknown broadcast and clip ids answer 404 with their codes', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const m2 = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const om = (await t.api(other.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    expect((await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts`)).body).toEqual({ broadcasts: [], pagination: { current_page: 1, total_pages: 0, total_count: 0, has_next_page: false } });
    const startedAt = new Date('2026-01-02T03:04:05Z');
    await t.c.database.db.insert(broadcasts).values([
      { id: 'bc_test1', workspaceId: ws.id, monitorId: m.id, title: 'Show', status: 'ended', externalId: 'x', playlistUrl: `${srv.url}/live.m3u8`, startedAt, endedAt: startedAt },
      { id: 'bc_other', workspaceId: other.id, monitorId: om.id, title: 'Theirs', status: 'ended', externalId: 'y', playlistUrl: `${srv.url}/live.m3u8`, startedAt },
    ]);
    const batch = { workspaceId: ws.id, status: 'done', chunks: [], startedAt, seconds: 20 };
    await t.c.database.db.insert(broadcastBatches).values([
      { ...batch, id: 'batch_t0', broadcastId: 'bc_test1', index: 0, offsetSeconds: 0, clipsCount: 2, creditsCharged: 1 },
      { ...batch, id: 'batch_t1', broadcastId: 'bc_test1', index: 1, offsetSeconds: 20, clipsCount: 0, creditsCharged: 0 },
      { ...batch, id: 'batch_o0', broadcastId: 'bc_other', workspaceId: other.id, index: 0, offsetSeconds: 0, clipsCount: 5, creditsCharged: 3 },
    ]);
    const list = await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts`);
    expect(list.body.broadcasts).toEqual([
      { id: 'bc_test1', monitor_id: m.id, title: 'Show', status: 'ended', started_at: startedAt.toISOString(), ended_at: startedAt.toISOString(), batches_count: 2, clips_count: 2, credits_charged: 1 },
    ]);
    expect((await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts/bc_test1/clips?sort=start_time&order=asc`)).body).toEqual({
      clips: [],
      pagination: { current_page: 1, total_pages: 0, total_count: 0, has_next_page: false },
    });
    const render = await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_test1/clips/clip_nope/render`);
    expect(render.status).toBe(404);
    expect(render.body).toEqual({ code: 'CLIP_NOT_FOUND' });
    const applied = await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_test1/apply_template`, { template_id: 'tpl_bold_pop' });
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ broadcast_id: 'bc_test1', template_id: 'tpl_bold_pop', clips: [] });
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_test1/apply_template`, { template_id: 'tpl_nope' })).body).toEqual({ code: 'TEMPLATE_NOT_FOUND' });
    // Another monitor's broadcast, another workspace's broadcast: BROADCAST_NOT_FOUND.
    for (const [mon, bc] of [
      [m2.id, 'bc_test1'],
      [m.id, 'bc_other'],
      [m.id, 'bc_nope'],
    ]) {
      for (const [method, p, body] of [
        ['GET', `/monitors/${mon}/broadcasts/${bc}/clips`],
        ['POST', `/monitors/${mon}/broadcasts/${bc}/clips/clip_x/render`],
        ['POST', `/monitors/${mon}/broadcasts/${bc}/apply_template`, { template_id: 'tpl_bold_pop' }],
      ] as const) {
        const r = await t.api(ws.key, method, p, body);
        expect({ p, status: r.status, body: r.body }).toEqual({ p, status: 404, body: { code: 'BROADCAST_NOT_FOUND' } });
      }
    }
  });
});
