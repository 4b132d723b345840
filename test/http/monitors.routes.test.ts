import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastBatches, broadcasts, clips as clipsTable, edits, monitorEntries, renders, submissions, videos } from '../../src/adapters/db/schema/index.js';
import { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { windowStart } from '../../src/ports/rate-limiter.js';
import { makeVideo } from '../helpers/media-fixtures.js';
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
  await makeVideo(path.join(dir, 'upload-a.mp4'), { seconds: 61, width: 160, height: 90, fps: 5 });
  fs.copyFileSync(path.join(dir, 'upload-a.mp4'), path.join(dir, 'upload-b.mp4'));
  await makeVideo(path.join(dir, 'upload-short.mp4'), { seconds: 3, width: 160, height: 90, fps: 5 });
  srv = await startStaticServer(dir);
  // A yt-dlp path so that YouTube channels are accepted (no run happens while the monitors stay stopped).
  t = await createTestApp({
    env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_YTDLP_PATH: '/bin/true', CUTROOM_MONITOR_POLL_SECONDS: '3600' },
    startQueue: true,
  });
  // POST /monitors counts in the analysis limit (10 a minute per key by default): these tests create more with one key.
  await t.c.plans.update('default', { analysis_rate_limit_per_minute: 1000 });
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
    expect(feed.body).toMatchObject({
      type: 'video',
      platform: 'feed',
      status: 'stopped',
      stop_reason: null,
      name: 'Uploads',
      url: `${srv.url}/uploads.xml`,
      source_language: 'auto',
      started_at: null,
      last_checked_at: null,
    });
    expect(Object.keys(feed.body).sort()).toEqual(
      [
        'clip_length',
        'created_at',
        'id',
        'keywords',
        'last_checked_at',
        'name',
        'platform',
        'prompt',
        'source_language',
        'started_at',
        'status',
        'stop_reason',
        'strategy_id',
        'template_id',
        'type',
        'url',
      ].sort(),
    );
    const live = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8`, strategy_id: 'str_short', source_language: 'en' });
    expect(live.status).toBe(201);
    expect(live.body).toMatchObject({ type: 'live', platform: 'hls', strategy_id: 'str_short', source_language: 'en', status: 'stopped' });
    const yt = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: 'https://www.youtube.com/@SomeChannel/streams' });
    expect(yt.body).toMatchObject({ platform: 'youtube', name: '@SomeChannel' });
    const ytFeed = await t.api(ws.key, 'POST', '/monitors', {
      type: 'video',
      url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv',
    });
    expect(ytFeed.body).toMatchObject({ platform: 'feed' });
  });

  it('refuses what is not a channel, feed or live playlist with 422 INVALID_URL, and a video monitor of a playlist with 400', async () => {
    const ws = await t.workspace();
    for (const [url, extra] of [
      [`${srv.url}/page.html`, { reason: 'unsupported_link' }],
      [`${srv.url}/missing.xml`, { reason: 'http_status', status: 404 }],
      ['https://www.youtube.com/watch?v=aaaaaaaaaaa', { reason: 'unsupported_link' }],
      ['https://www.twitch.tv/videos/123', { reason: 'unsupported_link' }],
      ['ftp://example.com/feed.xml', { reason: 'scheme' }],
      ['http://169.254.169.254/latest/feed.xml', { reason: 'metadata_address' }],
    ] as const) {
      const r = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url });
      expect({ url, status: r.status, body: r.body }).toEqual({ url, status: 422, body: { code: 'INVALID_URL', extra } });
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
      expect(r.body).toEqual({ code: 'INVALID_URL', extra: { reason: 'private_address' } });
      const yt = await strict.api(ws.key, 'POST', '/monitors', { type: 'video', url: 'https://www.youtube.com/@SomeChannel' });
      expect(yt.body).toEqual({ code: 'PLATFORM_UNAVAILABLE' });
    } finally {
      await strict.close();
    }
  });
});

/** Runs `fn` again (at most three times) when a minute boundary reset the rate-limit counts while it ran. */
async function inOneWindow(fn: (attempt: number) => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const before = windowStart(Date.now());
    await fn(attempt);
    if (windowStart(Date.now()) === before || attempt === 2) return;
  }
}

describe('creating monitors is limited (second security audit, finding 4)', () => {
  it('counts in the analysis rate limit with POST /clips/info: past it 429 with Retry-After, no fetch, nothing created', async () => {
    await t.c.plans.create('two-analyses', { analysis_rate_limit_per_minute: 2 });
    await inOneWindow(async () => {
      const ws = await t.workspace({ plan: 'two-analyses' });
      expect((await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).status).toBe(201);
      expect((await t.api(ws.key, 'POST', '/clips/info', { url: 'https://www.youtube.com/playlist?list=PL1' })).status).toBe(422);
      const fetched = srv.requests.length;
      const over = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml?over` });
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ code: 'RATE_LIMIT_EXCEEDED', extra: { retry_after: expect.any(Number) } });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(srv.requests.slice(fetched)).toEqual([]);
      expect((await t.api(ws.key, 'GET', '/monitors')).body.pagination.total_count).toBe(1);
      // Other routes are still under the global limit.
      expect((await t.api(ws.key, 'GET', '/balance')).status).toBe(200);
    });
  });

  it('409 MONITOR_LIMIT_REACHED past the plan’s max_monitors, before the link is fetched; a deleted monitor frees its place', async () => {
    await t.c.plans.create('two-monitors', { max_monitors: 2 });
    const ws = await t.workspace({ plan: 'two-monitors' });
    const a = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` });
    expect((await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml` })).status).toBe(201);
    const fetched = srv.requests.length;
    const third = await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml?third` });
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ code: 'MONITOR_LIMIT_REACHED', extra: { max_monitors: 2 } });
    expect(srv.requests.slice(fetched)).toEqual([]);
    expect((await t.api(ws.key, 'GET', '/monitors')).body.pagination.total_count).toBe(2);
    // Another workspace on the same plan has its own count.
    const other = await t.workspace({ plan: 'two-monitors' });
    expect((await t.api(other.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).status).toBe(201);
    expect((await t.api(ws.key, 'DELETE', `/monitors/${a.body.id}`)).status).toBe(204);
    expect((await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).status).toBe(201);
    expect((await t.c.plans.get('default')).maxMonitors).toBe(20);
  });
});

describe.each(DB_KINDS)('simultaneous creations (%s)', (db) => {
  let d: TestApp;
  beforeAll(async () => {
    d = await createTestApp({ db, env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true' } });
    await d.c.plans.create('three-monitors', { max_monitors: 3 });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('never pass max_monitors', async () => {
    const ws = await d.workspace({ plan: 'three-monitors' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => d.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8?n=${i}` })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect((await d.api(ws.key, 'GET', '/monitors')).body.pagination.total_count).toBe(3);
  });

  it('the store counts under a lock on the workspace: of 12 inserts at once, 3 are kept', async () => {
    const ws = await d.workspace({ plan: 'three-monitors' });
    const repo = new DrizzleMonitorsRepository(d.c.database.db);
    // Connections opened first, so the inserts really overlap.
    await Promise.all(Array.from({ length: 12 }, () => repo.countKept(ws.id)));
    const rows = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        repo.insertWithinLimit(
          {
            id: `mon_race${i}`,
            workspaceId: ws.id,
            type: 'live',
            name: `r${i}`,
            url: `${srv.url}/live.m3u8`,
            platform: 'hls',
            watchUrl: `${srv.url}/live.m3u8`,
            templateId: null,
            strategyId: null,
            sourceLanguage: 'auto',
          },
          3,
        ),
      ),
    );
    expect(rows.filter(Boolean)).toHaveLength(3);
    expect(await repo.countKept(ws.id)).toBe(3);
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
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { template_id: 'tpl_bold_pop' })).body).toMatchObject({
      template_id: 'tpl_bold_pop',
      name: 'Renamed',
    });
    expect((await t.api(ws.key, 'GET', `/monitors/${a.id}`)).body.template_id).toBe('tpl_bold_pop');
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { template_id: null })).body.template_id).toBeNull();
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { strategy_id: 'str_nope' })).body.code).toBe('STRATEGY_NOT_FOUND');
    const lang = await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { source_language: 'xx' });
    expect(lang.status).toBe(400);
    expect(lang.body.code).toBe('VALIDATION_ERROR');
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, {})).status).toBe(400);
    // Fields that are not the monitor's to change are refused, not ignored.
    expect((await t.api(ws.key, 'PATCH', `/monitors/${a.id}`, { url: `${srv.url}/uploads.xml` })).status).toBe(400);
    expect((await t.api(ws.key, 'GET', `/monitors/${a.id}`)).body).toMatchObject({ url: `${srv.url}/live.m3u8`, type: 'live', source_language: 'en' });

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

describe.each(DB_KINDS)('start and stop (%s: the queue gets the watching chain)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_MONITOR_POLL_SECONDS: '3600' }, startQueue: true });
  });
  afterAll(async () => t?.close());

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
    const again = await t.api(ws.key, 'POST', `/monitors/${mon.id}/start`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(started.body);
    // One watching chain: the repeated start sent no second one.
    expect((await t.c.monitors.get(ws.id, mon.id)).pollSeq).toBe(1);
    const stopped = await t.api(ws.key, 'POST', `/monitors/${mon.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: 'stopped', stop_reason: 'USER' });
    const stoppedAgain = await t.api(ws.key, 'POST', `/monitors/${mon.id}/stop`);
    expect(stoppedAgain.status).toBe(200);
    expect(stoppedAgain.body).toEqual(stopped.body);
    // Started again after a stop: a new chain, the reason cleared.
    const restarted = await t.api(ws.key, 'POST', `/monitors/${mon.id}/start`);
    expect(restarted.body).toMatchObject({ status: 'watching', stop_reason: null });
    expect((await t.c.monitors.get(ws.id, mon.id)).pollSeq).toBe(3);
    await t.api(ws.key, 'POST', `/monitors/${mon.id}/stop`);
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
    expect((await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts`)).body).toEqual({
      broadcasts: [],
      pagination: { current_page: 1, total_pages: 0, total_count: 0, has_next_page: false },
    });
    const startedAt = new Date('2026-01-02T03:04:05Z');
    await t.c.database.db.insert(broadcasts).values([
      {
        id: 'bc_test1',
        workspaceId: ws.id,
        monitorId: m.id,
        title: 'Show',
        status: 'ended',
        externalId: 'x',
        playlistUrl: `${srv.url}/live.m3u8`,
        startedAt,
        endedAt: startedAt,
      },
      {
        id: 'bc_other',
        workspaceId: other.id,
        monitorId: om.id,
        title: 'Theirs',
        status: 'ended',
        externalId: 'y',
        playlistUrl: `${srv.url}/live.m3u8`,
        startedAt,
      },
    ]);
    const batch = { workspaceId: ws.id, status: 'done', chunks: [], startedAt, seconds: 20 };
    await t.c.database.db.insert(broadcastBatches).values([
      { ...batch, id: 'batch_t0', broadcastId: 'bc_test1', index: 0, offsetSeconds: 0, clipsCount: 2, creditsCharged: 1 },
      { ...batch, id: 'batch_t1', broadcastId: 'bc_test1', index: 1, offsetSeconds: 20, clipsCount: 0, creditsCharged: 0 },
      { ...batch, id: 'batch_o0', broadcastId: 'bc_other', workspaceId: other.id, index: 0, offsetSeconds: 0, clipsCount: 5, creditsCharged: 3 },
    ]);
    const list = await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts`);
    expect(list.body.broadcasts).toEqual([
      {
        id: 'bc_test1',
        monitor_id: m.id,
        title: 'Show',
        status: 'ended',
        started_at: startedAt.toISOString(),
        ended_at: startedAt.toISOString(),
        batches_count: 2,
        clips_count: 2,
        credits_charged: 1,
      },
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
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_test1/apply_template`, { template_id: 'tpl_nope' })).body).toEqual({
      code: 'TEMPLATE_NOT_FOUND',
    });
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

describe('the clips of a broadcast, with clipped batches', () => {
  /** A batch with its internal submission (of its recording) and clips, as the batch job leaves them. */
  async function clippedBatch(
    ws: string,
    monitorId: string,
    broadcastId: string,
    index: number,
    offsetSeconds: number,
    clipRows: Array<{ id: string; rating: number; start: number; createdAt: Date }>,
    status = 'completed',
  ) {
    const videoId = `vid_${broadcastId}_${index}`;
    const submissionId = `sub_${broadcastId}_${index}`;
    await t.c.database.db
      .insert(videos)
      .values({ id: videoId, workspaceId: ws, source: 'live', status: 'ready', platform: 'hls', title: 'batch', author: 'm', duration: 20 });
    await t.c.database.db.insert(submissions).values({
      id: submissionId,
      workspaceId: ws,
      videoId,
      status,
      timeframeStart: 0,
      timeframeEnd: 20,
      monitorId,
      liveBatch: true,
      clipsCount: clipRows.length,
    });
    await t.c.database.db.insert(broadcastBatches).values({
      id: `batch_${broadcastId}_${index}`,
      workspaceId: ws,
      broadcastId,
      index,
      status: 'done',
      chunks: [],
      startedAt: new Date(),
      seconds: 20,
      offsetSeconds,
      clipsCount: clipRows.length,
      creditsCharged: 1,
      submissionId,
    });
    if (clipRows.length > 0) {
      await t.c.database.db.insert(clipsTable).values(
        clipRows.map((c, position) => ({
          id: c.id,
          workspaceId: ws,
          submissionId,
          position,
          title: `Clip ${c.id}`,
          rating: c.rating,
          startTime: c.start,
          endTime: c.start + 4,
          language: 'en',
          createdAt: c.createdAt,
        })),
      );
    }
  }

  it('lists every clipped batch’s clips with batch_index and broadcast_offset, sorted and paged; other clips are CLIP_NOT_FOUND; a deleted monitor’s broadcasts stay readable', async () => {
    const ws = await t.workspace({ credits: 5 });
    const other = await t.workspace();
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const om = (await t.api(other.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const at = new Date('2026-03-01T10:00:00Z');
    const bc = { title: 'Show', status: 'ended', externalId: 'x', playlistUrl: `${srv.url}/live.m3u8`, startedAt: at, endedAt: at };
    await t.c.database.db.insert(broadcasts).values([
      { ...bc, id: 'bc_clips', workspaceId: ws.id, monitorId: m.id },
      { ...bc, id: 'bc_clips_second', workspaceId: ws.id, monitorId: m.id, startedAt: new Date('2026-03-02T10:00:00Z') },
      { ...bc, id: 'bc_clips_theirs', workspaceId: other.id, monitorId: om.id },
    ]);
    const t0 = at.getTime();
    // Batch 0 (0–20 s of the broadcast): clips at 5 s and 15 s of its recording; batch 1 (20–40 s): a clip at 2 s (the broadcast's 22 s).
    await clippedBatch(ws.id, m.id, 'bc_clips', 0, 0, [
      { id: 'clip_b0_early', rating: 6, start: 5, createdAt: new Date(t0 + 3000) },
      { id: 'clip_b0_late', rating: 9, start: 15, createdAt: new Date(t0 + 1000) },
    ]);
    await clippedBatch(ws.id, m.id, 'bc_clips', 1, 20, [{ id: 'clip_b1', rating: 7.5, start: 2, createdAt: new Date(t0 + 2000) }], 'processing');
    await clippedBatch(ws.id, m.id, 'bc_clips_second', 0, 0, [{ id: 'clip_second', rating: 5, start: 1, createdAt: at }]);
    await clippedBatch(other.id, om.id, 'bc_clips_theirs', 0, 0, [{ id: 'clip_theirs', rating: 8, start: 1, createdAt: at }]);

    const base = `/monitors/${m.id}/broadcasts/bc_clips/clips`;
    const ids = async (q: string) => (await t.api(ws.key, 'GET', `${base}${q}`)).body.clips.map((c: any) => c.id);
    const byRating = await t.api(ws.key, 'GET', base);
    expect(byRating.status).toBe(200);
    expect(byRating.body.clips.map((c: any) => c.id)).toEqual(['clip_b0_late', 'clip_b1', 'clip_b0_early']);
    expect(byRating.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 3, has_next_page: false });
    const b1 = byRating.body.clips[1];
    expect(b1).toEqual({
      id: 'clip_b1',
      title: 'Clip clip_b1',
      rating: 7.5,
      score_details: null,
      reason: '',
      matched: [],
      start_time: 2,
      end_time: 6,
      language: 'en',
      play_url: '',
      download_url: '',
      has_template_applied: false,
      edit_id: null,
      review: null,
      batch_index: 1,
      broadcast_offset: 22,
      video_id: 'vid_bc_clips_1',
      submission_id: 'sub_bc_clips_1',
    });
    // The batch's submission reads the same clip (the Studio's editor opens it there), though GET /clips does not list it.
    const asSubmissionClip = await t.api(ws.key, 'GET', '/clips/vid_bc_clips_1/submissions/sub_bc_clips_1/clips');
    expect(asSubmissionClip.status).toBe(200);
    expect(asSubmissionClip.body.clips.map((c: any) => c.id)).toEqual(['clip_b1']);
    expect(byRating.body.clips[0]).toMatchObject({ batch_index: 0, start_time: 15, broadcast_offset: 15 });
    expect(await ids('?sort=rating&order=asc')).toEqual(['clip_b0_early', 'clip_b1', 'clip_b0_late']);
    // start_time is the broadcast's timeline (batch offset + start inside the batch), not the batch-relative start alone.
    expect(await ids('?sort=start_time&order=asc')).toEqual(['clip_b0_early', 'clip_b0_late', 'clip_b1']);
    expect(await ids('?sort=start_time&order=desc')).toEqual(['clip_b1', 'clip_b0_late', 'clip_b0_early']);
    expect(await ids('?sort=created_at&order=asc')).toEqual(['clip_b0_late', 'clip_b1', 'clip_b0_early']);
    expect(await ids('?sort=created_at&order=desc')).toEqual(['clip_b0_early', 'clip_b1', 'clip_b0_late']);
    const page2 = await t.api(ws.key, 'GET', `${base}?sort=start_time&order=asc&limit=2&page=2`);
    expect(page2.body.clips.map((c: any) => c.id)).toEqual(['clip_b1']);
    expect(page2.body.pagination).toEqual({ current_page: 2, total_pages: 2, total_count: 3, has_next_page: false });
    expect((await t.api(ws.key, 'GET', `${base}?sort=duration`)).status).toBe(400);
    // The broadcast's counts include its clipped batches.
    expect(
      (await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts`)).body.broadcasts.map((b: any) => [b.id, b.batches_count, b.clips_count, b.credits_charged]),
    ).toEqual([
      ['bc_clips_second', 1, 1, 1],
      ['bc_clips', 2, 3, 2],
    ]);

    // A clip of another broadcast of the monitor, of another workspace's broadcast, or unknown: CLIP_NOT_FOUND on render.
    for (const clipId of ['clip_second', 'clip_theirs', 'clip_nope']) {
      const r = await t.api(ws.key, 'POST', `${base.replace('/clips', '')}/clips/${clipId}/render`);
      expect({ clipId, status: r.status, body: r.body }).toEqual({ clipId, status: 404, body: { code: 'CLIP_NOT_FOUND' } });
    }
    // Another workspace cannot reach these clips through its own monitor either.
    const theirs = await t.api(other.key, 'POST', `/monitors/${om.id}/broadcasts/bc_clips/clips/clip_b1/render`);
    expect(theirs.body).toEqual({ code: 'BROADCAST_NOT_FOUND' });
    expect((await t.api(other.key, 'POST', `/monitors/${om.id}/broadcasts/bc_clips_theirs/clips/clip_b1/render`)).body).toEqual({ code: 'CLIP_NOT_FOUND' });
    expect((await t.api(other.key, 'GET', `/monitors/${om.id}/broadcasts/bc_clips_theirs/clips`)).body.clips.map((c: any) => c.id)).toEqual(['clip_theirs']);
    // The render of a live clip goes to its batch's submission: one still being clipped has no edit yet (409, as for a submission clip).
    const early = await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_clips/clips/clip_b1/render`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('SUBMISSION_NOT_COMPLETED');

    // Deleted: the monitor's own routes answer 404, its broadcasts and their clips stay readable through their ids.
    expect((await t.api(ws.key, 'DELETE', `/monitors/${m.id}`)).status).toBe(204);
    expect((await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body).toEqual({ code: 'MONITOR_NOT_FOUND' });
    for (const [method, p, body] of [
      ['PATCH', `/monitors/${m.id}`, { name: 'x' }],
      ['POST', `/monitors/${m.id}/start`],
      ['POST', `/monitors/${m.id}/stop`],
      ['DELETE', `/monitors/${m.id}`],
    ] as const) {
      expect({ method, p, status: (await t.api(ws.key, method, p, body)).status }).toEqual({ method, p, status: 404 });
    }
    expect((await t.api(ws.key, 'GET', `/monitors/${m.id}/broadcasts`)).body.broadcasts.map((b: any) => b.id)).toEqual(['bc_clips_second', 'bc_clips']);
    expect(await ids('?sort=start_time&order=asc')).toEqual(['clip_b0_early', 'clip_b0_late', 'clip_b1']);
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_clips/clips/clip_b1/render`)).body.code).toBe('SUBMISSION_NOT_COMPLETED');
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_clips/clips/clip_nope/render`)).body).toEqual({ code: 'CLIP_NOT_FOUND' });
    // …but never to another workspace.
    expect((await t.api(other.key, 'GET', `/monitors/${m.id}/broadcasts`)).body).toEqual({ code: 'MONITOR_NOT_FOUND' });
    expect((await t.api(other.key, 'GET', `${base}`)).body).toEqual({ code: 'MONITOR_NOT_FOUND' });
  });

  it('GET /clips: monitor_id on every submission (null for POST /clips), ?monitor_id= filters, live batches are not listed', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml` })).body;
    const om = (await t.api(other.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/uploads.xml` })).body;
    const sub = (id: string, workspaceId: string, monitorId: string | null, liveBatch = false) => ({
      id,
      workspaceId,
      videoId: `vid_${id}`,
      status: 'completed',
      timeframeStart: 0,
      timeframeEnd: 60,
      monitorId,
      liveBatch,
    });
    const rows = [sub('sub_api', ws.id, null), sub('sub_mon', ws.id, m.id), sub('sub_live', ws.id, m.id, true), sub('sub_theirs', other.id, om.id)];
    await t.c.database.db
      .insert(videos)
      .values(rows.map((r) => ({ id: r.videoId, workspaceId: r.workspaceId, source: 'link', status: 'ready', platform: 'youtube', title: 't', author: 'a' })));
    await t.c.database.db.insert(submissions).values(rows);
    const all = (await t.api(ws.key, 'GET', '/clips')).body.submissions;
    expect(all.map((s: any) => [s.id, s.monitor_id]).sort()).toEqual([
      ['sub_api', null],
      ['sub_mon', m.id],
    ]);
    const mine = await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`);
    expect(mine.body.submissions.map((s: any) => s.id)).toEqual(['sub_mon']);
    expect(mine.body.pagination.total_count).toBe(1);
    expect((await t.api(ws.key, 'GET', `/clips?monitor_id=${om.id}`)).body.submissions).toEqual([]);
    expect((await t.api(ws.key, 'GET', '/clips?monitor_id=mon_nope')).body.submissions).toEqual([]);
    expect((await t.api(ws.key, 'GET', `/clips/vid_sub_mon/submissions/sub_mon`)).body.monitor_id).toBe(m.id);
    // A deleted monitor's submissions stay listed under it.
    await t.api(ws.key, 'DELETE', `/monitors/${m.id}`);
    expect((await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions.map((s: any) => s.id)).toEqual(['sub_mon']);
  });

  it('a video monitor’s new upload becomes a submission with the monitor’s template, strategy and language, charged like POST /clips', async () => {
    const rss = (names: string[]) =>
      `<rss version="2.0"><channel><title>Uploads</title>${names.map((x) => `<item><title>${x}</title><guid>${x}</guid><enclosure url="${srv.url}/${x}.mp4" type="video/mp4"/></item>`).join('')}</channel></rss>`;
    fs.writeFileSync(path.join(dir, 'uploads-ab.xml'), rss(['upload-a']));
    const ws = await t.workspace({ credits: 5 });
    const m = (
      await t.api(ws.key, 'POST', '/monitors', {
        type: 'video',
        url: `${srv.url}/uploads-ab.xml`,
        template_id: 'tpl_bold_pop',
        strategy_id: 'str_short',
        source_language: 'en',
      })
    ).body;
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/start`)).status).toBe(200);
    // The chain's runs, run here (this app runs no job handlers): the baseline first, then the new upload.
    const pollNow = async () => t.c.monitorPoller.poll(m.id, (await t.c.monitors.get(ws.id, m.id)).pollSeq);
    await pollNow();
    expect((await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions).toEqual([]);
    fs.writeFileSync(path.join(dir, 'uploads-ab.xml'), rss(['upload-b', 'upload-short', 'upload-a']));
    await pollNow();
    const listed = (await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions;
    expect(listed).toHaveLength(1);
    // One the service refuses (shorter than a submission may be) is skipped, not charged; the monitor goes on.
    const seen = await t.c.database.db.select().from(monitorEntries).where(eq(monitorEntries.monitorId, m.id));
    expect(seen.map((e) => [e.entryId, e.baseline, e.status, e.errorCode]).sort()).toEqual([
      ['upload-a', true, 'skipped', null],
      ['upload-b', false, 'submitted', null],
      ['upload-short', false, 'failed', 'INVALID_DURATION'],
    ]);
    expect((await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body.status).toBe('watching');
    // 61 s: 2 started minutes, as POST /clips charges it.
    expect(listed[0]).toMatchObject({ monitor_id: m.id, credits_charged: 2 });
    const [row] = await t.c.database.db.select().from(submissions).where(eq(submissions.id, listed[0].id));
    expect(row).toMatchObject({ monitorId: m.id, templateId: 'tpl_bold_pop', strategyId: 'str_short', sourceLanguage: 'en', liveBatch: false });
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(3);
    // A PATCH applies to what is clipped afterwards.
    const patched = await t.api(ws.key, 'PATCH', `/monitors/${m.id}`, { template_id: null, source_language: 'auto' });
    expect(patched.body).toMatchObject({ template_id: null, source_language: 'auto' });
    fs.copyFileSync(path.join(dir, 'upload-a.mp4'), path.join(dir, 'upload-c.mp4'));
    fs.writeFileSync(path.join(dir, 'uploads-ab.xml'), rss(['upload-c', 'upload-b', 'upload-short', 'upload-a']));
    await pollNow();
    await pollNow();
    const after = (await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions;
    expect(after).toHaveLength(2);
    const [next] = await t.c.database.db
      .select()
      .from(submissions)
      .where(eq(submissions.id, after.find((x: any) => x.id !== listed[0].id).id));
    expect(next).toMatchObject({ templateId: null, strategyId: 'str_short', sourceLanguage: 'auto' });
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(1);
    await t.api(ws.key, 'POST', `/monitors/${m.id}/stop`);
  });
});

describe.each(DB_KINDS)('rendering a live clip (%s: the render job is queued)', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ db, env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_MONITOR_POLL_SECONDS: '3600' }, startQueue: true });
  });
  afterAll(async () => app?.close());

  it('202 queued with the clip’s edit, then 200 from_cache once an identical render exists; the edit works with POST /renders', async () => {
    const ws = await app.workspace({ credits: 5 });
    const m = (await app.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const db = app.c.database.db;
    const at = new Date();
    await db.insert(broadcasts).values({
      id: 'bc_render',
      workspaceId: ws.id,
      monitorId: m.id,
      title: 'Show',
      status: 'ended',
      externalId: 'x',
      playlistUrl: `${srv.url}/live.m3u8`,
      startedAt: at,
      endedAt: at,
    });
    await db
      .insert(videos)
      .values({ id: 'vid_render', workspaceId: ws.id, source: 'live', status: 'ready', platform: 'hls', title: 'batch', author: 'm', duration: 20 });
    await db.insert(submissions).values({
      id: 'sub_render',
      workspaceId: ws.id,
      videoId: 'vid_render',
      status: 'completed',
      timeframeStart: 0,
      timeframeEnd: 20,
      monitorId: m.id,
      liveBatch: true,
      clipsCount: 1,
    });
    await db.insert(broadcastBatches).values({
      id: 'batch_render',
      workspaceId: ws.id,
      broadcastId: 'bc_render',
      index: 0,
      status: 'done',
      chunks: [],
      startedAt: at,
      seconds: 20,
      offsetSeconds: 0,
      clipsCount: 1,
      creditsCharged: 1,
      submissionId: 'sub_render',
    });
    await db.insert(edits).values({
      id: 'edit_render',
      workspaceId: ws.id,
      clipId: 'clip_render',
      hash: 'hash-of-edit-render',
      spec: { resolution: '720p', watermark: false, title: 'Live clip' },
    });
    await db.insert(clipsTable).values({
      id: 'clip_render',
      workspaceId: ws.id,
      submissionId: 'sub_render',
      position: 0,
      title: 'Live clip',
      rating: 8,
      startTime: 3,
      endTime: 9,
      language: 'en',
      editId: 'edit_render',
    });

    const route = `/monitors/${m.id}/broadcasts/bc_render/clips/clip_render/render`;
    const first = await app.api(ws.key, 'POST', route);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({ status: 'queued', edit_id: 'edit_render', from_cache: false });
    expect((await app.api(ws.key, 'GET', `/renders/${first.body.id}`)).body).toMatchObject({ id: first.body.id, status: 'queued' });
    // The render job finished (stood in for: this app runs no handlers): the next request of the same edit is a cache hit.
    await db
      .update(renders)
      .set({
        status: 'completed',
        progress: 100,
        storageKey: 'renders/live-clip.mp4',
        size: 10,
        completedAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
      })
      .where(eq(renders.id, first.body.id));
    const again = await app.api(ws.key, 'POST', route);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'completed', from_cache: true, edit_id: 'edit_render' });
    expect(again.body.id).not.toBe(first.body.id);
    const byEdit = await app.api(ws.key, 'POST', '/renders', { edit_id: 'edit_render' });
    expect(byEdit.status).toBe(200);
    expect(byEdit.body).toMatchObject({ from_cache: true, edit_id: 'edit_render' });
    // Another workspace's key reaches none of it.
    const other = await app.workspace();
    expect((await app.api(other.key, 'POST', route)).body).toEqual({ code: 'MONITOR_NOT_FOUND' });
    expect((await app.api(other.key, 'POST', '/renders', { edit_id: 'edit_render' })).status).toBe(404);
    // Once retention purged the batch's submission: 410 SUBMISSION_EXPIRED for its render and the bulk template.
    await db.update(submissions).set({ expiredAt: new Date() }).where(eq(submissions.id, 'sub_render'));
    const expired = await app.api(ws.key, 'POST', route);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('SUBMISSION_EXPIRED');
    const expiredApply = await app.api(ws.key, 'POST', `/monitors/${m.id}/broadcasts/bc_render/apply_template`, { template_id: 'tpl_clean' });
    expect(expiredApply.status).toBe(410);
    expect(expiredApply.body.code).toBe('SUBMISSION_EXPIRED');
  });

  it('429 RATE_LIMIT_EXCEEDED with Retry-After past the plan’s simultaneous renders, nothing created', async () => {
    const plan = `one_render_${Date.now().toString(36)}`;
    await app.c.plans.create(plan, { max_concurrent_renders: 1 });
    const ws = await app.workspace({ plan });
    const m = (await app.api(ws.key, 'POST', '/monitors', { type: 'live', url: `${srv.url}/live.m3u8` })).body;
    const db = app.c.database.db;
    const at = new Date();
    const [bc, sub, vid] = [`bc_busy_${ws.id}`, `sub_busy_${ws.id}`, `vid_busy_${ws.id}`];
    await db.insert(broadcasts).values({
      id: bc,
      workspaceId: ws.id,
      monitorId: m.id,
      title: 'Show',
      status: 'ended',
      externalId: 'x',
      playlistUrl: `${srv.url}/live.m3u8`,
      startedAt: at,
      endedAt: at,
    });
    await db
      .insert(videos)
      .values({ id: vid, workspaceId: ws.id, source: 'live', status: 'ready', platform: 'hls', title: 'batch', author: 'm', duration: 20 });
    await db.insert(submissions).values({
      id: sub,
      workspaceId: ws.id,
      videoId: vid,
      status: 'completed',
      timeframeStart: 0,
      timeframeEnd: 20,
      monitorId: m.id,
      liveBatch: true,
      clipsCount: 2,
    });
    await db.insert(broadcastBatches).values({
      id: `batch_busy_${ws.id}`,
      workspaceId: ws.id,
      broadcastId: bc,
      index: 0,
      status: 'done',
      chunks: [],
      startedAt: at,
      seconds: 20,
      offsetSeconds: 0,
      clipsCount: 2,
      creditsCharged: 1,
      submissionId: sub,
    });
    for (const i of [0, 1]) {
      await db.insert(edits).values({
        id: `edit_busy${i}_${ws.id}`,
        workspaceId: ws.id,
        clipId: `clip_busy${i}_${ws.id}`,
        hash: `hash-busy-${i}-${ws.id}`,
        spec: { resolution: '720p', watermark: false, title: `Live clip ${i}` },
      });
      await db.insert(clipsTable).values({
        id: `clip_busy${i}_${ws.id}`,
        workspaceId: ws.id,
        submissionId: sub,
        position: i,
        title: `Live clip ${i}`,
        rating: 8 - i,
        startTime: 3 + 6 * i,
        endTime: 8 + 6 * i,
        language: 'en',
        editId: `edit_busy${i}_${ws.id}`,
      });
    }
    const route = (i: number) => `/monitors/${m.id}/broadcasts/${bc}/clips/clip_busy${i}_${ws.id}/render`;
    const first = await app.api(ws.key, 'POST', route(0));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const second = await app.api(ws.key, 'POST', route(1));
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('10');
    expect(second.body).toEqual({ code: 'RATE_LIMIT_EXCEEDED', extra: { retry_after: 10, max_concurrent_renders: 1 } });
    expect(await db.select().from(renders).where(eq(renders.workspaceId, ws.id))).toHaveLength(1);
  });
});
