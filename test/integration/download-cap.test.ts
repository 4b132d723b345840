import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { pollSubmission } from '../helpers/videos.js';

/**
 * Security audit, finding 5: downloads of a caller's link are capped by the plan's `max_upload_size`,
 * counted while the bytes arrive. The source answers analysis with a small video and the download
 * with an endless body (generated, nothing on disk): the download stops near the cap, the submission
 * fails with SOURCE_TOO_LARGE and is refunded, and no partial file is left.
 */

const MiB = 1024 * 1024;
const CAP = 4 * MiB;
/** What the source would send if nobody stopped reading: far more than the cap. */
const ENDLESS = 300 * MiB;

let t: TestApp;
let dir: string;
let srv: StaticServer;

beforeAll(async () => {
  dir = tempDir('cutroom-cap-');
  await makeVideo(path.join(dir, 'talk.mp4'), { seconds: 70, width: 160, height: 90, fps: 5 });
  srv = await startStaticServer(dir);
  t = await createTestApp({ workers: true, env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true' } });
  await t.c.plans.create('capped', { max_upload_size: CAP });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Serves an endless MP4-typed body without Content-Length, counting what was written until the client leaves. */
function endlessBody(sent: { bytes: number; closed: boolean }) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    if (req.method === 'HEAD') return res.end();
    const chunk = Buffer.alloc(64 * 1024, 0x42);
    res.on('close', () => (sent.closed = true));
    const pump = () => {
      while (!res.destroyed && sent.bytes < ENDLESS) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

describe('downloads of a caller’s link are capped by the plan', () => {
  it('a source that grows past max_upload_size after analysis: stopped near the cap, SOURCE_TOO_LARGE, refunded, nothing left', async () => {
    const ws = await t.workspace({ credits: 10, plan: 'capped' });
    const key = { 'x-api-key': ws.key };
    const info = await t.app.inject({ method: 'POST', url: '/api/v1/clips/info', headers: key, payload: { url: `${srv.url}/talk.mp4` } });
    expect(info.statusCode).toBe(200);
    const videoId = info.json().id as string;

    const sent = { bytes: 0, closed: false };
    srv.route('/talk.mp4', endlessBody(sent));
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/clips', headers: key, payload: { video_id: videoId } });
    expect(created.statusCode).toBe(201);
    expect(created.json().credits_charged).toBe(2);

    const final = await pollSubmission(t, ws.key, videoId, created.json().id, (s) => s.status === 'completed' || s.status === 'failed', 300_000);
    expect(final).toMatchObject({ status: 'failed', error_code: 'SOURCE_TOO_LARGE', clips_count: 0 });

    // Reading stopped at the cap: the connection was closed long before the source ran out.
    for (let i = 0; i < 50 && !sent.closed; i++) await new Promise((r) => setTimeout(r, 100));
    expect(sent.closed).toBe(true);
    expect(sent.bytes).toBeLessThan(CAP + 32 * MiB);

    // Refunded as any failure, and no partial file anywhere: not in storage, not in the work folder.
    const ledger = (await t.app.inject({ method: 'GET', url: '/api/v1/balance/history', headers: key })).json().entries;
    expect(ledger.filter((e: any) => e.job_id === created.json().id).map((e: any) => [e.kind, e.amount])).toEqual([
      ['refund', 2],
      ['charge', -2],
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: key })).json().balance).toBe(10);
    expect(await t.c.storage.head(`videos/${ws.id}/${videoId}/source.mp4`)).toBeNull();
    const work = path.join(t.dataDir, 'tmp');
    expect(fs.existsSync(work) ? fs.readdirSync(work).filter((n) => n.startsWith('cutroom-dl-')) : []).toEqual([]);
  }, 400_000);
});
