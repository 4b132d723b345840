import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { DrizzleSubmissionsRepository } from '../../src/adapters/db/repositories/submissions.repository.js';
import { DrizzleVideosRepository } from '../../src/adapters/db/repositories/videos.repository.js';
import { DrizzleWorkspacesRepository } from '../../src/adapters/db/repositories/workspaces.repository.js';
import { broadcastBatches, broadcasts, ledgerEntries, monitors, submissions } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { ffmpegPath } from '../../src/adapters/media/binaries.js';
import { FfprobeMediaProbe } from '../../src/adapters/media/ffprobe.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { HlsLiveRecorder } from '../../src/adapters/watchers/live-recorder.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { BroadcastEnding } from '../../src/domain/monitors/broadcast-end.js';
import { LiveBatchProcessor } from '../../src/domain/monitors/live-batches.js';
import type { BatchChunk } from '../../src/domain/monitors/monitors.records.js';
import type { EventPublisher } from '../../src/domain/webhooks/events.js';
import { tempDir } from '../helpers/app.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';
import { insertLiveMonitor, livePoller, LiveStand } from '../helpers/live-monitor-stand.js';
import { makeHls } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * The live watcher chain (MonitorPoller) on both databases, with the channel and the live playlist played
 * by stand-ins (the real recorder over a real broadcast is exercised by monitor-live.test.ts): a batch whose
 * price the balance cannot pay stops the monitor with INSUFFICIENT_CREDITS and records nothing; a playlist
 * that stops growing for the stall time ends the broadcast (its batch cut and clipped) and the same stream
 * is not a new broadcast; a stop cuts the batch in progress and nothing is recorded or charged afterwards;
 * a batch's seconds and bytes are capped (LIVE_BATCH_TOO_LARGE); a new process resumes the same broadcast
 * where the last one stopped, storing no segment twice.
 *
 * Batches by measured time, with the real recorder (safe fetcher, ffprobe of each stored chunk, local
 * storage) over real MPEG-TS segments made by ffmpeg, served on loopback under playlists whose `#EXTINF`
 * the test writes, and the real batch job (the submission pipeline stood in for):
 * - a stream declaring 0.5 s for 25-second segments stops its monitor with STREAM_DURATION_MISMATCH: the
 *   lying chunk is neither kept nor billed, the batch keeps the 50 s measured before it and is billed 1
 *   credit (a submission of 50 s costs 1), nothing is recorded afterwards;
 * - a stream declaring 60 s for 1-second segments is billed the 12 s it measures (one batch, 1 credit),
 *   not 12 minutes in two batches;
 * - a batch over its byte cap stops the monitor with LIVE_BATCH_TOO_LARGE; the chunk refused is left
 *   neither in storage nor in the recorder's work folder.
 */

let dir: string;
let srv: StaticServer;
/** 4 segments of 25 s (`long/`) and 12 of 1 s (`short/`). */
let long: string[];
let short: string[];

beforeAll(async () => {
  dir = tempDir('cutroom-live-lies-');
  const base = { width: 160, height: 90, fps: 5 };
  long = (await makeHls(path.join(dir, 'www', 'long'), { ...base, seconds: 100, segmentSeconds: 25 })).segments;
  short = (await makeHls(path.join(dir, 'www', 'short'), { ...base, seconds: 12, segmentSeconds: 1 })).segments;
  srv = await startStaticServer(path.join(dir, 'www'));
}, 120_000);

afterAll(async () => {
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes `<folder>/<name>.m3u8` listing `segments` with the durations given (what the stream declares); answers its URL. */
function playlist(folder: 'long' | 'short', name: string, segments: Array<[file: string, declared: number]>, ended = false): string {
  const target = Math.max(1, ...segments.map(([, d]) => Math.ceil(d)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0'];
  for (const [file, declared] of segments) lines.push(`#EXTINF:${declared},`, file);
  if (ended) lines.push('#EXT-X-ENDLIST');
  fs.writeFileSync(path.join(dir, 'www', folder, `${name}.m3u8`), `${lines.join('\n')}\n`);
  return `${srv.url}/${folder}/${name}.m3u8`;
}

describe.each(DB_KINDS)('the live watcher chain on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let credits: CreditsService;
  let runner: ReturnType<typeof createTransactionRunner>;
  let repo: DrizzleMonitorsRepository;
  let storage: LocalStorage;
  let work: string;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertTestPlan(database.db);
    await insertTestPlan(database.db, { name: 'svc20', discountPercent: 20 });
    runner = createTransactionRunner(database.db);
    credits = new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: runner });
    repo = new DrizzleMonitorsRepository(database.db);
    storage = new LocalStorage({
      dataDir: path.join(dir, `data-${kind}`),
      publicBaseUrl: 'http://localhost:8080',
      signingSecret: 'test-secret-test-secret-test-secret',
    });
    work = path.join(dir, `work-${kind}`);
  }, 120_000);
  afterAll(async () => database?.close());

  /** One process's view over the shared database (test/helpers/live-monitor-stand.ts). */
  const process = (stand: LiveStand, opts: Parameters<typeof livePoller>[2] = {}) => livePoller({ database, repo, runner, credits }, stand, opts);

  const liveMonitor = (balance: number, plan = 'svc', unlimited = false) =>
    insertLiveMonitor(database.db, { ws: `ws_poll_${kind}_${++n}`, id: `mon_poll_${kind}_${n}` }, { balance, plan, unlimited });

  const broadcastsOf = (id: string) => database.db.select().from(broadcasts).where(eq(broadcasts.monitorId, id));
  const batchesOf = async (broadcastId: string) =>
    (await database.db.select().from(broadcastBatches).where(eq(broadcastBatches.broadcastId, broadcastId))).sort((a, b) => a.index - b.index);
  const batchJobs = (queue: FakeQueue) => queue.sent.filter((j) => j.name === 'monitor.batch').map((j) => (j.payload as { batchId: string }).batchId);

  it('a batch the balance cannot pay stops the monitor with INSUFFICIENT_CREDITS and records nothing', async () => {
    const stand = new LiveStand();
    stand.window(0, 4);
    const { ws, id } = await liveMonitor(1);
    const p = process(stand, { batchSeconds: 120 }); // one batch costs 2 credits
    await p.pollNow(id);
    expect(await repo.get(id)).toMatchObject({ status: 'stopped', stopReason: 'INSUFFICIENT_CREDITS' });
    const [b] = await broadcastsOf(id);
    expect(b).toMatchObject({ status: 'ended' });
    expect(await batchesOf(b.id)).toEqual([]);
    expect(stand.stored).toEqual([]);
    expect(await credits.ledgerSum(ws)).toBe(0);
    // The chain is over: its next run does nothing.
    stand.window(0, 9);
    await p.pollNow(id);
    expect(stand.stored).toEqual([]);
    expect(await broadcastsOf(id)).toHaveLength(1);
  });

  it('records into 20 s batches; a playlist that stops growing ends the broadcast, and the same stream is not a new one', async () => {
    const stand = new LiveStand();
    stand.window(0, 4);
    const { ws, id } = await liveMonitor(10);
    const p = process(stand, { stallSeconds: 5 });
    await p.pollNow(id);
    expect((await repo.get(id))!.status).toBe('live');
    const [b] = await broadcastsOf(id);
    expect(b.status).toBe('live');
    // 10 s more than the batch holds: batch 0 is cut at 20 s and sent to its job, batch 1 starts (charged at its start).
    stand.window(0, 12);
    await p.pollNow(id);
    let rows = await batchesOf(b.id);
    expect(rows.map((r) => [r.index, r.status, r.seconds, r.offsetSeconds])).toEqual([
      [0, 'recorded', 20, 0],
      [1, 'recording', 6, 20],
    ]);
    expect(batchJobs(p.queue)).toEqual([rows[0].id]);
    expect(await credits.ledgerSum(ws)).toBe(-2);
    // No new segment, for longer than the stall time: the broadcast ends, its batch in progress is cut and clipped.
    await p.pollNow(id);
    expect((await repo.getBroadcast(b.id))!.status).toBe('live');
    await database.db
      .update(broadcasts)
      .set({ lastGrowthAt: new Date(Date.now() - 10_000) })
      .where(eq(broadcasts.id, b.id));
    await p.pollNow(id);
    expect((await repo.getBroadcast(b.id))!).toMatchObject({ status: 'processing', endReason: 'STALLED' });
    expect((await repo.get(id))!.status).toBe('watching');
    rows = await batchesOf(b.id);
    expect(rows.map((r) => r.status)).toEqual(['recorded', 'recorded']);
    expect(batchJobs(p.queue)).toEqual([rows[0].id, rows[1].id]);
    // The stream still answers as on air with the same id: not a new broadcast, nothing more recorded or charged.
    const storedBefore = stand.stored.length;
    await p.pollNow(id);
    await p.pollNow(id);
    expect(await broadcastsOf(id)).toHaveLength(1);
    expect(stand.stored).toHaveLength(storedBefore);
    expect(await credits.ledgerSum(ws)).toBe(-2);
    expect(stand.stored.flatMap((s) => s.sequences)).toEqual([...Array(13).keys()]);
  });

  it('a stop cuts the batch in progress there (processed like a last batch); nothing is recorded or charged afterwards', async () => {
    const stand = new LiveStand();
    stand.window(0, 2);
    const { ws, id } = await liveMonitor(10);
    const p = process(stand);
    await p.pollNow(id);
    const [b] = await broadcastsOf(id);
    const seqBeforeStop = (await repo.get(id))!.pollSeq;
    await p.service.stopMonitor(id, 'USER');
    expect(await repo.get(id)).toMatchObject({ status: 'stopped', stopReason: 'USER' });
    const [batch] = await batchesOf(b.id);
    expect(batch).toMatchObject({ index: 0, status: 'recorded', seconds: 6 });
    expect(batchJobs(p.queue)).toEqual([batch.id]);
    expect((await repo.getBroadcast(b.id))!).toMatchObject({ status: 'processing', endReason: 'STOPPED' });
    // The run that was due when the stop came, and the stream going on: nothing more.
    stand.window(0, 20);
    await p.poller.poll(id, seqBeforeStop);
    await p.pollNow(id);
    expect(await batchesOf(b.id)).toHaveLength(1);
    expect(stand.stored.flatMap((s) => s.sequences)).toEqual([0, 1, 2]);
    expect(await credits.ledgerSum(ws)).toBe(-1);
    // Stopping again changes nothing.
    await p.service.stopMonitor(id, 'USER');
    expect(batchJobs(p.queue)).toEqual([batch.id]);
  });

  it('caps a batch: a segment declared longer than a batch may hold, or a chunk over its seconds or bytes, stops the monitor with LIVE_BATCH_TOO_LARGE', async () => {
    const deleted: string[] = [];
    const storage = { delete: async (key: string) => void deleted.push(key) };
    // Seconds, declared: a 20 s batch holds at most 80 s; a segment declaring 90 s is refused before it is fetched.
    const long = new LiveStand();
    long.playlist.segments = [{ sequence: 0, duration: 90, source: null }];
    const a = await liveMonitor(10);
    await process(long, { storage }).pollNow(a.id);
    expect(await repo.get(a.id)).toMatchObject({ status: 'stopped', stopReason: 'LIVE_BATCH_TOO_LARGE' });
    expect(long.stored).toEqual([]);
    expect(await credits.ledgerSum(a.ws)).toBe(0);
    expect((await broadcastsOf(a.id))[0]).toMatchObject({ status: 'ended', endReason: 'STOPPED' });

    // Seconds, measured: 200 segments declaring 0.1 s that measure 0.5 s each (within the tolerance, 100 s over the 80 s cap):
    // the chunk is deleted, the batch opened for it refunded at once.
    const many = new LiveStand();
    many.playlist.segments = Array.from({ length: 200 }, (_, i) => ({ sequence: i, duration: 0.1, source: null }));
    many.measure = (segs) => ({ seconds: segs.length * 0.5, bytes: 1 });
    const b = await liveMonitor(10);
    await process(many, { storage }).pollNow(b.id);
    expect(await repo.get(b.id)).toMatchObject({ status: 'stopped', stopReason: 'LIVE_BATCH_TOO_LARGE' });
    expect(many.stored.map((x) => x.key)).toHaveLength(1);
    expect(deleted).toEqual([many.stored[0].key]);
    const [bb] = await broadcastsOf(b.id);
    expect((await batchesOf(bb.id)).map((r) => [r.status, r.seconds, r.creditsCharged])).toEqual([['done', 0, 0]]);
    expect(await credits.ledgerSum(b.ws)).toBe(0);

    // Bytes: 1000 a batch; a first chunk of 600 is kept, the second (600 more) is refused and deleted; the batch keeps the first.
    const heavy = new LiveStand();
    heavy.measure = (segs) => ({ seconds: segs.length * 2, bytes: 600 });
    heavy.window(0, 1);
    const c = await liveMonitor(10);
    const p = process(heavy, { storage, maxBatchBytes: 1000 });
    await p.pollNow(c.id);
    heavy.window(0, 3);
    await p.pollNow(c.id);
    expect(await repo.get(c.id)).toMatchObject({ status: 'stopped', stopReason: 'LIVE_BATCH_TOO_LARGE' });
    expect(heavy.stored.map((x) => x.sequences)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(deleted.slice(1)).toEqual([heavy.stored[1].key]);
    const [bc] = await broadcastsOf(c.id);
    const [batch] = await batchesOf(bc.id);
    expect(batch).toMatchObject({ status: 'recorded', seconds: 4 });
    expect((batch.chunks as BatchChunk[]).map((k) => [k.key, k.bytes])).toEqual([[heavy.stored[0].key, 600]]);
    expect(batchJobs(p.queue)).toEqual([batch.id]);
    // Nothing more after the stop.
    heavy.window(0, 9);
    await p.pollNow(c.id);
    expect(heavy.stored).toHaveLength(2);
  });

  it('a new process resumes the same broadcast where the last stored segment ends: no segment lost or stored twice, no batch charged twice', async () => {
    const stand = new LiveStand();
    stand.window(0, 3);
    const { ws, id } = await liveMonitor(10);
    const first = process(stand);
    await first.pollNow(id);
    const seqOfFirst = (await repo.get(id))!.pollSeq;
    const [b] = await broadcastsOf(id);
    // The first process is gone (its last run had not released the monitor: its lease is over by now).
    await database.db
      .update(monitors)
      .set({ pollLeaseUntil: new Date(Date.now() - 1000) })
      .where(eq(monitors.id, id));
    // Meanwhile the playlist's window moved on (segments 0–1 dropped, 4–11 added).
    stand.window(2, 11);
    const second = process(stand);
    await second.poller.poll(id, seqOfFirst);
    await second.pollNow(id);
    expect(await broadcastsOf(id)).toHaveLength(1);
    const rows = await batchesOf(b.id);
    expect(rows.map((r) => [r.index, r.seconds, r.status])).toEqual([
      [0, 20, 'recorded'],
      [1, 4, 'recording'],
    ]);
    expect(rows.flatMap((r) => (r.chunks as BatchChunk[]).map((c) => [c.firstSequence, c.lastSequence]))).toEqual([
      [0, 3],
      [4, 9],
      [10, 11],
    ]);
    expect(stand.stored.flatMap((s) => s.sequences)).toEqual([...Array(12).keys()]);
    // A late duplicate of the first process's run finds the chain moved on and does nothing.
    await first.poller.poll(id, seqOfFirst);
    expect(stand.stored.flatMap((s) => s.sequences)).toEqual([...Array(12).keys()]);
    expect(await credits.ledgerSum(ws)).toBe(-2);
    await second.service.stopMonitor(id, 'USER');
  });

  it('the batch job settles credit rule 5 once: the worked example (20 % discount, 600 s batches), a silent batch, free usage', async () => {
    const pipelineClips = new Map<string, number>();
    const workspacesRepo = new DrizzleWorkspacesRepository(database.db, database.sql);
    /** The monitor records a broadcast of `seconds` (2 s segments) into 600 s batches, ended by #EXT-X-ENDLIST; its batch jobs run. */
    async function broadcastOf(monitorId: string, seconds: number, clipsPerBatch: number[]) {
      const stand = new LiveStand();
      stand.window(0, seconds / 2 - 1);
      stand.playlist.ended = true;
      const p = process(stand, { batchSeconds: 600 });
      await p.pollNow(monitorId);
      const [b] = await broadcastsOf(monitorId);
      const rows = await batchesOf(b.id);
      expect(batchJobs(p.queue)).toEqual(rows.map((r) => r.id));
      const job = new LiveBatchProcessor({
        repo,
        tx: runner,
        credits,
        videos: new DrizzleVideosRepository(database.db),
        submissions: new DrizzleSubmissionsRepository(database.db),
        // The submission pipeline's outcome, stood in for: the batch's submission completes with its clips.
        pipeline: {
          run: async (submissionId: string) => {
            const [sub] = await database.db.select().from(submissions).where(eq(submissions.id, submissionId));
            const index = rows.find((r) => `vid_${r.id}` === sub.videoId)!.index;
            await database.db.update(submissions).set({ status: 'completed', clipsCount: clipsPerBatch[index] }).where(eq(submissions.id, submissionId));
            pipelineClips.set(submissionId, clipsPerBatch[index]);
          },
        },
        recorder: { cutBatch: async (_keys, _key) => ({ duration: 1, width: 160, height: 90, hasAudio: true }) },
        ending: new BroadcastEnding({ repo, credits, queue: new FakeQueue() }),
        storage: { delete: async () => {} },
        workspaces: { get: async (id) => (await workspacesRepo.findWithPlan(id))! },
        logger: pino({ level: 'silent' }),
        batchSeconds: 600,
      });
      // Each job runs twice (a retry, a second worker): nothing is settled twice.
      for (const r of rows) {
        await job.run(r.id, { retryCount: 0, retryLimit: 3 });
        await job.run(r.id, { retryCount: 1, retryLimit: 3 });
      }
      return { b, rows: await batchesOf(b.id) };
    }
    const ledgerOf = async (ws: string) =>
      (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.workspaceId, ws))).map((e) => [e.jobId, e.kind, e.amount, e.waived]).sort();

    // 27 min 30 s, batch 1 silent: charged 8 each at its start; batch 1 refunded 8, batch 2 (450 s) refunded 8 − ceil(7.5 × 0.8) = 2.
    const a = await liveMonitor(30, 'svc20');
    const { b, rows } = await broadcastOf(a.id, 1650, [4, 0, 2]);
    expect(rows.map((r) => [r.index, r.seconds, r.status, r.clipsCount, r.creditsCharged])).toEqual([
      [0, 600, 'done', 4, 8],
      [1, 600, 'done', 0, 0],
      [2, 450, 'done', 2, 6],
    ]);
    expect(await ledgerOf(a.ws)).toEqual(
      [
        [`${b.id}:0`, 'charge', -8, false],
        [`${b.id}:1`, 'charge', -8, false],
        [`${b.id}:1`, 'refund', 8, false],
        [`${b.id}:2`, 'charge', -8, false],
        [`${b.id}:2`, 'refund', 2, false],
      ].sort(),
    );
    expect(await credits.ledgerSum(a.ws)).toBe(-14);
    expect((await repo.findBroadcast(a.ws, a.id, b.id))!).toMatchObject({ status: 'ended', batchesCount: 3, clipsCount: 6, creditsCharged: 14 });

    // Free usage: the same rows, waived; the balance does not move and the broadcast charged nothing.
    const f = await liveMonitor(0, 'svc', true);
    const free = await broadcastOf(f.id, 100, [0]);
    expect(free.rows.map((r) => [r.seconds, r.clipsCount, r.creditsCharged])).toEqual([[100, 0, 0]]);
    expect(await ledgerOf(f.ws)).toEqual([
      [`${free.b.id}:0`, 'charge', -10, true],
      [`${free.b.id}:0`, 'refund', 10, true],
    ]);
    expect((await workspacesRepo.findWithPlan(f.ws))!.workspace.credits).toBe(0);
  });

  // ------------------------------------------------------------ batches by measured time (the real recorder)

  const recorder = (maxBytes?: number) =>
    new HlsLiveRecorder({
      storage,
      probe: new FfprobeMediaProbe(),
      ffmpegBinary: ffmpegPath(),
      allowPrivate: true,
      tmpDir: work,
      ...(maxBytes ? { maxBytes } : {}),
    });

  /** The monitor's chain over the real recorder and storage, its events recorded. */
  function chain(url: string, o: { maxBatchBytes?: number } = {}) {
    const stand = new LiveStand('Lying show');
    stand.playlistUrl = url;
    const published: Array<{ type: string; data: Record<string, unknown> }> = [];
    const events: EventPublisher = {
      publish: async (_ws, type, data) => {
        published.push({ type, data });
      },
    };
    const rec = recorder(o.maxBatchBytes);
    const p = livePoller({ database, repo, runner, credits }, stand, {
      batchSeconds: 600,
      events,
      recorder: rec,
      storage,
      ...(o.maxBatchBytes ? { maxBatchBytes: o.maxBatchBytes } : {}),
    });
    return { ...p, published, recorder: rec };
  }

  /** The `monitor.batch` job over the real recorder; the pipeline stood in for: each batch's submission completes with `clips` clips. */
  function batchJob(rec: HlsLiveRecorder, clips: number) {
    const workspacesRepo = new DrizzleWorkspacesRepository(database.db, database.sql);
    return new LiveBatchProcessor({
      repo,
      tx: runner,
      credits,
      videos: new DrizzleVideosRepository(database.db),
      submissions: new DrizzleSubmissionsRepository(database.db),
      pipeline: {
        run: async (submissionId: string) => {
          await database.db.update(submissions).set({ status: 'completed', clipsCount: clips }).where(eq(submissions.id, submissionId));
        },
      },
      recorder: rec,
      ending: new BroadcastEnding({ repo, credits, queue: new FakeQueue() }),
      storage,
      workspaces: { get: async (id) => (await workspacesRepo.findWithPlan(id))! },
      logger: pino({ level: 'silent' }),
      batchSeconds: 600,
    });
  }

  const broadcastOf = async (id: string) => (await database.db.select().from(broadcasts).where(eq(broadcasts.monitorId, id)))[0];
  const ledgerRows = async (ws: string) =>
    (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.workspaceId, ws))).map((e) => [e.jobId, e.kind, e.amount]).sort();
  /** The objects stored under the broadcast's prefix. */
  const storedOf = (ws: string, broadcastId: string): string[] => {
    const root = path.join(storage.root, 'live', ws, broadcastId);
    if (!fs.existsSync(root)) return [];
    return (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(root, f)).isFile())
      .map((f) => f.split(path.sep).join('/'))
      .sort();
  };
  const workLeft = () => (fs.existsSync(work) ? fs.readdirSync(work) : []);

  it('a stream declaring 0.5 s for 25-second segments stops with STREAM_DURATION_MISMATCH; the batch is billed the 50 s measured before the lie', async () => {
    const { ws, id } = await liveMonitor(20);
    const url = playlist('long', `lie-${kind}`, [
      [long[0], 25],
      [long[1], 25],
    ]);
    const c = chain(url);
    await c.pollNow(id);
    const b = await broadcastOf(id);
    let [batch] = await batchesOf(b.id);
    // The honest part: stored, measured (about 50 s), charged the full batch at its start.
    expect(batch).toMatchObject({ index: 0, status: 'recording' });
    expect(batch.seconds).toBeCloseTo(50, 0);
    expect(await credits.ledgerSum(ws)).toBe(-10);

    // The stream goes on declaring 0.5 s for segments of 25 s.
    playlist('long', `lie-${kind}`, [
      [long[0], 25],
      [long[1], 25],
      [long[2], 0.5],
      [long[3], 0.5],
    ]);
    await c.pollNow(id);
    expect(await repo.get(id)).toMatchObject({ status: 'stopped', stopReason: 'STREAM_DURATION_MISMATCH' });
    expect(c.published.map((e) => e.type)).toEqual(['broadcast.started', 'monitor.stopped']);
    expect(c.published[1].data).toEqual({ id, status: 'stopped', stop_reason: 'STREAM_DURATION_MISMATCH' });
    expect(await broadcastOf(id)).toMatchObject({ status: 'processing', endReason: 'STOPPED' });
    [batch] = await batchesOf(b.id);
    // The lying chunk is not part of the batch, nor left in storage.
    expect(batch.status).toBe('recorded');
    expect(batch.seconds).toBeCloseTo(50, 0);
    const chunks = batch.chunks as BatchChunk[];
    expect(chunks.map((k) => [k.firstSequence, k.lastSequence])).toEqual([[0, 1]]);
    expect(chunks[0].bytes).toBe(fs.statSync(path.join(dir, 'www', 'long', long[0])).size + fs.statSync(path.join(dir, 'www', 'long', long[1])).size);
    expect(storedOf(ws, b.id)).toEqual(['0/0.chunk']);
    expect(workLeft()).toEqual([]);

    // The batch job: one MP4 of the 50 s, clipped; the batch is billed what it measured (1 credit), not the full 10.
    await batchJob(c.recorder, 3).run(batch.id, { retryCount: 0, retryLimit: 3 });
    [batch] = await batchesOf(b.id);
    expect(batch).toMatchObject({ status: 'done', clipsCount: 3, creditsCharged: 1 });
    const [sub] = await database.db.select().from(submissions).where(eq(submissions.id, batch.submissionId!));
    expect(sub.timeframeEnd).toBeCloseTo(50, 0);
    expect(await ledgerRows(ws)).toEqual(
      [
        [`${b.id}:0`, 'charge', -10],
        [`${b.id}:0`, 'refund', 9],
      ].sort(),
    );
    expect(await credits.ledgerSum(ws)).toBe(-1);
    expect(storedOf(ws, b.id)).toEqual(['batch-0.mp4']);
    expect(await broadcastOf(id)).toMatchObject({ status: 'ended' });

    // Nothing is recorded after the stop.
    await c.pollNow(id);
    expect(await batchesOf(b.id)).toHaveLength(1);
    expect(storedOf(ws, b.id)).toEqual(['batch-0.mp4']);
    expect(await credits.ledgerSum(ws)).toBe(-1);
  });

  it('a stream declaring 60 s for 1-second segments is billed the 12 s it measures: one batch, 1 credit', async () => {
    const { ws, id } = await liveMonitor(30);
    const url = playlist(
      'short',
      `over-${kind}`,
      short.map((f) => [f, 60]),
      true,
    );
    const c = chain(url);
    await c.pollNow(id);
    const b = await broadcastOf(id);
    expect(b).toMatchObject({ status: 'processing', endReason: 'ENDLIST' });
    // Shorter than declared is no lie: the monitor keeps watching.
    expect(await repo.get(id)).toMatchObject({ status: 'watching', stopReason: null });
    let rows = await batchesOf(b.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('recorded');
    expect(rows[0].seconds).toBeCloseTo(12, 0);
    expect((rows[0].chunks as BatchChunk[]).map((k) => [k.firstSequence, k.lastSequence])).toEqual([
      [0, 9],
      [10, 11],
    ]);
    await batchJob(c.recorder, 1).run(rows[0].id, { retryCount: 0, retryLimit: 3 });
    rows = await batchesOf(b.id);
    expect(rows[0]).toMatchObject({ status: 'done', creditsCharged: 1 });
    expect(await credits.ledgerSum(ws)).toBe(-1);
  });

  it('a batch over its byte cap stops the monitor with LIVE_BATCH_TOO_LARGE; the chunk refused is left nowhere', async () => {
    const size = (f: string) => fs.statSync(path.join(dir, 'www', 'long', f)).size;
    const cap = size(long[0]) + Math.floor(size(long[1]) / 2);
    const { ws, id } = await liveMonitor(20);
    const url = playlist('long', `cap-${kind}`, [[long[0], 25]]);
    const c = chain(url, { maxBatchBytes: cap });
    await c.pollNow(id);
    const b = await broadcastOf(id);
    playlist('long', `cap-${kind}`, [
      [long[0], 25],
      [long[1], 25],
    ]);
    await c.pollNow(id);
    expect(await repo.get(id)).toMatchObject({ status: 'stopped', stopReason: 'LIVE_BATCH_TOO_LARGE' });
    expect(c.published.find((e) => e.type === 'monitor.stopped')?.data).toEqual({ id, status: 'stopped', stop_reason: 'LIVE_BATCH_TOO_LARGE' });
    const [batch] = await batchesOf(b.id);
    expect(batch.status).toBe('recorded');
    expect(batch.seconds).toBeCloseTo(25, 0);
    expect(storedOf(ws, b.id)).toEqual(['0/0.chunk']);
    expect(workLeft()).toEqual([]);
    // Charged in full at its start; its job settles it by the 25 s measured, as above.
    expect(await credits.ledgerSum(ws)).toBe(-10);

    // A cap below the first segment: nothing is stored, the batch opened for it is refunded at once.
    const small = await liveMonitor(20);
    const d = chain(playlist('long', `tiny-${kind}`, [[long[0], 25]]), { maxBatchBytes: 1024 });
    await d.pollNow(small.id);
    expect(await repo.get(small.id)).toMatchObject({ status: 'stopped', stopReason: 'LIVE_BATCH_TOO_LARGE' });
    const sb = await broadcastOf(small.id);
    expect(sb).toMatchObject({ status: 'ended', endReason: 'STOPPED' });
    expect(storedOf(small.ws, sb.id)).toEqual([]);
    expect(await credits.ledgerSum(small.ws)).toBe(0);
    expect(workLeft()).toEqual([]);
  });
});
