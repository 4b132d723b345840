import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastBatches } from '../../src/adapters/db/schema/index.js';
import { createContainer, type Container } from '../../src/main/container.js';
import { registerHandlers } from '../../src/jobs/registry.js';
import { buildHandlers } from '../../src/jobs/handlers/index.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { airHls, makeBroadcastFixture } from '../helpers/live-airing.js';
import { makeSpeechWav, talkScript } from '../helpers/speech-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * A real local broadcast: ffmpeg writes a live HLS playlist in real time (2 s segments, a 10-segment
 * window) from a fixture of 40 s of talk then 24 s of silence; monitors record it in 20 s batches
 * (CUTROOM_LIVE_BATCH_SECONDS=20) through the worker processes' job runners on one database.
 *
 * Monitor A records the whole broadcast while its worker is replaced mid-way (the first worker's queue
 * stops at once, a second one takes over): batches are contiguous, none lost, none charged twice; the
 * batches with speech have clips with `batch_index` and `broadcast_offset`, the silent ones are refunded;
 * `#EXT-X-ENDLIST` ends the broadcast (`processing`, then `ended`). A live clip renders (202, then 200
 * from_cache) and posts to the `local` network. Monitor B watches a second airing and is stopped
 * mid-way: its batch in progress is cut and processed, nothing is recorded or charged afterwards.
 */

const SEGMENT = 2;
const BATCH = 20;
let t: TestApp;
let srv: StaticServer;
let dir: string;
let source: string;
const workers: Container[] = [];
const streams: ChildProcess[] = [];

async function startWorker(): Promise<Container> {
  // Another process's view of the same database: its own heartbeat, queue runner and handlers.
  const database = { ...t.c.database, close: async () => {} };
  const c = await createContainer({
    config: t.c.config,
    logger: pino({ level: process.env.LIVE_TEST_LOG ?? 'silent' }),
    role: 'worker',
    database,
    queuePollingSeconds: 0.5,
  });
  await c.queue.start();
  await registerHandlers(c.queue, buildHandlers(c), c.config.workerConcurrency);
  workers.push(c);
  return c;
}

/** The fixture aired in real time as a live HLS playlist at `<dir>/<name>/live.m3u8`; ends with #EXT-X-ENDLIST. */
function air(name: string): { url: string; done: Promise<void> } {
  const airing = airHls(source, dir, name, srv.url, SEGMENT);
  streams.push(airing.proc);
  return airing;
}

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) {
      const batches = (await t.c.database.db.select().from(broadcastBatches)).map((b) => ({ ...b, chunks: (b.chunks as unknown[]).length }));
      throw new Error(`timed out waiting for ${what}; batches: ${JSON.stringify(batches)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  dir = tempDir('cutroom-live-');
  const wav = await makeSpeechWav(path.join(dir, 'talk.wav'), [...talkScript(40), { silence: 24 }]);
  source = path.join(dir, 'broadcast.ts');
  await makeBroadcastFixture(wav.path, wav.duration, source);
  srv = await startStaticServer(dir);
  t = await createTestApp({
    startQueue: true,
    env: {
      CUTROOM_ALLOW_PRIVATE_SOURCES: 'true',
      CUTROOM_MONITOR_POLL_SECONDS: '1',
      CUTROOM_LIVE_BATCH_SECONDS: String(BATCH),
      CUTROOM_LIVE_STALL_SECONDS: '30',
    },
  });
}, 300_000);

afterAll(async () => {
  for (const p of streams) p.kill('SIGKILL');
  for (const w of workers) {
    await w.queue.stop({ graceful: false, timeoutMs: 1000 }).catch(() => undefined);
    await w.close();
  }
  await t?.close();
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a live monitor records a real broadcast in batches', () => {
  it('records, survives a worker restart, bills per batch with clips, ends on ENDLIST; a stopped monitor records nothing more', async () => {
    const ws = await t.workspace({ credits: 20 });
    const strategy = await t.admin('POST', `/workspaces/${ws.id}/templates`, {
      kind: 'strategy',
      name: 'Live short',
      config: { min_seconds: 5, max_seconds: 15, max_clips: 3 },
    });
    expect(strategy.status, JSON.stringify(strategy.body)).toBe(201);
    const w1 = await startWorker();

    const a = air('a');
    const b = air('b');
    await until('the playlists', async () => fs.existsSync(path.join(dir, 'a', 'live.m3u8')) && fs.existsSync(path.join(dir, 'b', 'live.m3u8')), 20_000);
    const ma = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: a.url, name: 'A', strategy_id: strategy.body.id, source_language: 'en' })).body;
    const mb = (await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: b.url, name: 'B', strategy_id: strategy.body.id, source_language: 'en' })).body;
    expect(ma.platform).toBe('hls');
    expect((await t.api(ws.key, 'POST', `/monitors/${ma.id}/start`)).status).toBe(200);
    expect((await t.api(ws.key, 'POST', `/monitors/${mb.id}/start`)).status).toBe(200);
    await until('A live', async () => (await t.api(ws.key, 'GET', `/monitors/${ma.id}`)).body.status === 'live', 30_000);
    const [broadcastA] = (await t.api(ws.key, 'GET', `/monitors/${ma.id}/broadcasts`)).body.broadcasts;
    expect(broadcastA.status).toBe('live');

    // Once the first batch is cut: the worker is replaced (its running jobs return to the queue) and B is stopped.
    await until('a second batch', async () => (await t.api(ws.key, 'GET', `/monitors/${ma.id}/broadcasts`)).body.broadcasts[0].batches_count >= 2, 60_000);
    await w1.queue.stop({ graceful: false, timeoutMs: 100 });
    const stopped = await t.api(ws.key, 'POST', `/monitors/${mb.id}/stop`);
    expect(stopped.body).toMatchObject({ status: 'stopped', stop_reason: 'USER' });
    const [broadcastB] = (await t.api(ws.key, 'GET', `/monitors/${mb.id}/broadcasts`)).body.broadcasts;
    expect(['processing', 'ended']).toContain(broadcastB.status);
    const batchesAtStop = broadcastB.batches_count;
    await new Promise((r) => setTimeout(r, 4000));
    await startWorker();

    await a.done;
    await b.done;
    const endedA = await until(
      'A ended',
      async () => {
        const bc = (await t.api(ws.key, 'GET', `/monitors/${ma.id}/broadcasts`)).body.broadcasts[0];
        return bc.status === 'ended' ? bc : undefined;
      },
      240_000,
    );
    expect((await t.api(ws.key, 'GET', `/monitors/${ma.id}`)).body.status).toBe('watching');
    const endedB = await until('B ended', async () => {
      const bc = (await t.api(ws.key, 'GET', `/monitors/${mb.id}/broadcasts`)).body.broadcasts[0];
      return bc.status === 'ended' ? bc : undefined;
    });
    expect(endedB.batches_count).toBe(batchesAtStop);

    // A: contiguous batches covering the whole broadcast (none lost), clips only from the talk.
    const rows = (await t.c.database.db.select().from(broadcastBatches)).filter((r) => r.broadcastId === broadcastA.id).sort((x, y) => x.index - y.index);
    expect(rows.map((r) => r.index)).toEqual(rows.map((_, i) => i));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const [i, r] of rows.entries()) {
      expect(r.status).toBe('done');
      if (i > 0) expect(r.offsetSeconds).toBeCloseTo(rows[i - 1].offsetSeconds + rows[i - 1].seconds, 3);
      if (i < rows.length - 1) expect(r.seconds).toBeCloseTo(BATCH, 0);
    }
    const total = rows.reduce((s, r) => s + r.seconds, 0);
    expect(total).toBeGreaterThan(60);
    const withClips = rows.filter((r) => r.clipsCount > 0);
    expect(withClips.map((r) => r.index)).toEqual([0, 1]);
    expect(endedA.clips_count).toBe(withClips.reduce((s, r) => s + r.clipsCount, 0));
    expect(endedA.batches_count).toBe(rows.length);

    // The ledger: each batch charged once (its broadcast and index named), refunded once when it had no clips.
    const ledger = (await t.api(ws.key, 'GET', '/balance/history?limit=100')).body;
    const entries = ledger.entries as any[];
    const live = entries.filter((e) => e.job_type === 'live_batch' && String(e.job_id).startsWith(`${broadcastA.id}:`));
    for (const r of rows) {
      const mine = live.filter((e) => e.job_id === `${broadcastA.id}:${r.index}`);
      expect(mine.filter((e) => e.kind === 'charge')).toHaveLength(1);
      expect(mine.filter((e) => e.kind === 'refund')).toHaveLength(r.clipsCount > 0 ? 0 : 1);
      expect(mine.reduce((s, e) => s + e.amount, 0)).toBe(r.clipsCount > 0 ? -1 : 0);
    }
    expect(endedA.credits_charged).toBe(withClips.length);
    const netB = endedB.credits_charged;
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(20 - withClips.length - netB);

    // Clips carry their batch and their place in the broadcast.
    const clips = (await t.api(ws.key, 'GET', `/monitors/${ma.id}/broadcasts/${broadcastA.id}/clips?sort=start_time&order=asc&limit=100`)).body.clips;
    expect(clips.length).toBe(endedA.clips_count);
    for (const c of clips) {
      const batch = rows[c.batch_index];
      expect(c.broadcast_offset).toBeCloseTo(batch.offsetSeconds + c.start_time, 2);
      expect(c.end_time).toBeLessThanOrEqual(batch.seconds + 0.5);
      expect(c.play_url).toMatch(/^http/);
    }
    expect(new Set(clips.map((c: any) => c.batch_index))).toEqual(new Set([0, 1]));

    // A live clip renders like any clip (202, then 200 from_cache) and posts to the local network.
    const renderPath = `/monitors/${ma.id}/broadcasts/${broadcastA.id}/clips/${clips[0].id}/render`;
    const first = await t.api(ws.key, 'POST', renderPath);
    expect(first.status).toBe(202);
    await until('the render', async () => (await t.api(ws.key, 'GET', `/renders/${first.body.id}`)).body.status === 'completed', 180_000);
    const again = await t.api(ws.key, 'POST', renderPath);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ from_cache: true, status: 'completed', edit_id: first.body.edit_id });
    const con = await t.admin('POST', `/workspaces/${ws.id}/connections`, { platform: 'local', account_name: 'live-site' });
    const post = await t.api(ws.key, 'POST', '/posts', {
      videos: [{ edit_id: first.body.edit_id, targets: [{ connection_id: con.body.id, metadata: { local: { title: 'Live clip' } } }] }],
    });
    expect(post.status).toBe(201);
    const done = await until('the post', async () => {
      const p = (await t.api(ws.key, 'GET', `/posts/${post.body.id}`)).body;
      return p.status === 'completed' ? p : undefined;
    });
    expect(done.items[0]).toMatchObject({ platform: 'local', status: 'published' });

    // Bulk template application over the broadcast's batches: every clip of every clipped batch, the submission rules.
    const applied = await t.api(ws.key, 'POST', `/monitors/${ma.id}/broadcasts/${broadcastA.id}/apply_template`, { template_id: 'tpl_bold_pop' });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ broadcast_id: broadcastA.id, template_id: 'tpl_bold_pop' });
    expect(applied.body.clips.map((c: any) => c.id).sort()).toEqual(clips.map((c: any) => c.id).sort());
    const templated = (await t.api(ws.key, 'GET', `/monitors/${ma.id}/broadcasts/${broadcastA.id}/clips?limit=100`)).body.clips;
    for (const c of templated) {
      expect(c.has_template_applied).toBe(true);
      expect(c.edit_id).toBe(applied.body.clips.find((x: any) => x.id === c.id).edit_id);
    }
    // tpl_bold_pop is the default template the batch's edits were made with: as for a submission, an identical edit is kept.
    expect(templated.find((c: any) => c.id === clips[0].id).edit_id).toBe(first.body.edit_id);

    // Live batches are not submissions of the API: GET /clips lists none.
    expect((await t.api(ws.key, 'GET', '/clips')).body.submissions).toEqual([]);
    await t.api(ws.key, 'POST', `/monitors/${ma.id}/stop`);
  }, 600_000);
});
