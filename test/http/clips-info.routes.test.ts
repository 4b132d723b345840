import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, statusAndBody, tempDir, type TestApp } from '../helpers/app.js';
import { makeAudio, makeHls, makeVideo } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { writeFakeYtDlp } from '../helpers/fake-ytdlp.js';

let t: TestApp;
let strict: TestApp;
let srv: StaticServer;
let dir: string;

beforeAll(async () => {
  dir = tempDir('cutroom-info-');
  await makeVideo(path.join(dir, 'talk.mp4'), { seconds: 70, title: 'A talk about clips', artist: 'Ada' });
  await makeVideo(path.join(dir, 'short.mp4'), { seconds: 30 });
  await makeAudio(path.join(dir, 'podcast.mp3'), { seconds: 70 });
  await makeHls(path.join(dir, 'vod'), { seconds: 64, segmentSeconds: 8 });
  await makeHls(path.join(dir, 'live'), { seconds: 16, segmentSeconds: 8, live: true });
  srv = await startStaticServer(dir);
  srv.route('/to-loopback.mp4', (_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${srv.port}/talk.mp4` });
    res.end();
  });
  const ytdlp = writeFakeYtDlp(dir);
  t = await createTestApp({ env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_YTDLP_PATH: ytdlp } });
  strict = await createTestApp({ env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'false', CUTROOM_YTDLP_PATH: 'off' } });
});
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await srv?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const info = (app: TestApp, key: string, url: unknown) => app.api(key, 'POST', '/clips/info', { url });

describe('POST /clips/info', () => {
  it('analyses a direct media link, free of charge, with exactly the spec fields', async () => {
    const ws = await t.workspace({ credits: 4 });
    const res = await info(t, ws.key, `${srv.url}/talk.mp4`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^vid_/),
      title: 'A talk about clips',
      author: 'Ada',
      platform: 'direct',
      duration: expect.closeTo(70, 0),
      credits_cost: 2,
      current_balance: 4,
      credits_unlimited: false,
      force_watermark: false,
      discount_percent: 0,
    });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(4);
    // The same link again is the same video, not a new row.
    const again = await info(t, ws.key, `${srv.url}/talk.mp4`);
    expect(again.body.id).toBe(res.body.id);
    const rows = await t.c.database.sql.executeSql('select count(*)::int as n from videos where workspace_id = $1', [ws.id]);
    expect(rows.rows[0].n).toBe(1);
    // Another workspace gets its own video.
    const other = await t.workspace();
    expect((await info(t, other.key, `${srv.url}/talk.mp4`)).body.id).not.toBe(res.body.id);
  });

  it('reports free usage in credits_unlimited', async () => {
    const ws = await t.workspace();
    await t.c.workspaces.setFreeUsage(ws.id, null);
    expect((await info(t, ws.key, `${srv.url}/talk.mp4`)).body).toMatchObject({ credits_unlimited: true, current_balance: 0 });
  });

  it('analyses an HLS VOD playlist and refuses a live one', async () => {
    const ws = await t.workspace();
    const vod = await info(t, ws.key, `${srv.url}/vod/index.m3u8`);
    expect(vod.status).toBe(200);
    expect(vod.body.duration).toBeGreaterThan(60);
    expect(await info(t, ws.key, `${srv.url}/live/index.m3u8`)).toMatchObject({ status: 422, body: { code: 'LIVE_STREAM' } });
  });

  it('422 AUDIO_ONLY and INVALID_DURATION', async () => {
    const ws = await t.workspace();
    expect(await info(t, ws.key, `${srv.url}/podcast.mp3`)).toMatchObject({ status: 422, body: { code: 'AUDIO_ONLY' } });
    const short = await info(t, ws.key, `${srv.url}/short.mp4`);
    expect(short.status).toBe(422);
    expect(short.body.code).toBe('INVALID_DURATION');
    expect(short.body.extra.duration).toBeCloseTo(30, 0);
  });

  it('classifies links before any network access', async () => {
    const ws = await t.workspace();
    const cases: Array<[string, number, string]> = [
      ['https://www.youtube.com/playlist?list=PL1234567890', 422, 'PLAYLIST_URL'],
      ['https://www.youtube.com/@somechannel', 422, 'CHANNEL_URL'],
      ['https://www.youtube.com/shorts/abcdefghijk', 422, 'SHORTS_NOT_SUPPORTED'],
    ];
    for (const [url, status, code] of cases) {
      expect(await info(t, ws.key, url), url).toMatchObject({ status, body: { code } });
    }
    // INVALID_URL says which rule refused the link.
    const refused: Array<[string, string]> = [
      ['ftp://example.com/video.mp4', 'scheme'],
      ['not a url', 'malformed'],
      ['https://user:pw@example.com/video.mp4', 'credentials'],
      ['https://example.com/about', 'unsupported_host'],
      ['https://www.youtube.com/feed/subscriptions', 'unsupported_link'],
    ];
    for (const [url, reason] of refused) {
      expect(statusAndBody(await info(t, ws.key, url)), url).toEqual({ status: 422, body: { code: 'INVALID_URL', extra: { reason } } });
    }
    expect(await info(t, ws.key, 42)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it('maps platform answers through yt-dlp: metadata, private, age-restricted, region-blocked, live', async () => {
    const ws = await t.workspace();
    const ok = await info(t, ws.key, 'https://www.youtube.com/watch?v=okokokokok1');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ platform: 'youtube', title: 'A long talk', author: 'Some Channel', duration: 300, credits_cost: 5 });
    const cases: Array<[string, number, string]> = [
      ['privatevid1', 403, 'PRIVATE_VIDEO'],
      ['agerestrict', 403, 'AGE_RESTRICTED'],
      ['regionblock', 403, 'REGION_BLOCKED'],
      ['liveliveli1', 422, 'LIVE_STREAM'],
    ];
    for (const [id, status, code] of cases) {
      expect(await info(t, ws.key, `https://www.youtube.com/watch?v=${id}`), id).toMatchObject({ status, body: { code } });
    }
  });

  it('400 PLATFORM_UNAVAILABLE when no resolver handles a recognised platform', async () => {
    const ws = await strict.workspace();
    expect(await info(strict, ws.key, 'https://vimeo.com/123456789')).toMatchObject({ status: 400, body: { code: 'PLATFORM_UNAVAILABLE' } });
  });

  it('refuses loopback and a redirect to it unless the operator allows private sources', async () => {
    const ws = await strict.workspace();
    // `extra.reason` names the rule: the private-address one, which the operator can lift.
    const loopback = { status: 422, body: { code: 'INVALID_URL', extra: { reason: 'private_address' } } };
    expect(statusAndBody(await info(strict, ws.key, `${srv.url}/talk.mp4`))).toEqual(loopback);
    // A server named by host name that redirects to 127.0.0.1.
    expect(statusAndBody(await info(strict, ws.key, `http://localhost:${srv.port}/to-loopback.mp4`))).toEqual(loopback);
  });

  it('allows 10 analyses per minute per key', async () => {
    await t.c.plans.create('few-analyses', { analysis_rate_limit_per_minute: 2 });
    const ws = await t.workspace({ plan: 'few-analyses' });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = await info(t, ws.key, 'https://www.youtube.com/playlist?list=PL1');
      statuses.push(last.status);
    }
    if (statuses[2] === 429) {
      expect(statuses).toEqual([422, 422, 429]);
      expect(last!.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      // Other routes are still under the global limit.
      const ok = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': ws.key } });
      expect(ok.statusCode).toBe(200);
    }
    expect((await t.c.plans.get('default')).analysisRateLimitPerMinute).toBe(10);
  });
});
