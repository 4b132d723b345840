import pino from 'pino';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { DrizzleSubmissionsRepository } from '../../src/adapters/db/repositories/submissions.repository.js';
import { DrizzleVideosRepository } from '../../src/adapters/db/repositories/videos.repository.js';
import { DrizzleWorkspacesRepository } from '../../src/adapters/db/repositories/workspaces.repository.js';
import { broadcastBatches, broadcasts, ledgerEntries, monitors, submissions } from '../../src/adapters/db/schema.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { BroadcastEnding } from '../../src/domain/monitors/broadcast-end.js';
import { LiveBatchProcessor } from '../../src/domain/monitors/live-batches.js';
import type { BatchChunk } from '../../src/domain/monitors/monitors.records.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';
import { insertLiveMonitor, livePoller, LiveStand } from '../helpers/live-monitor-stand.js';

/**
 * The live watcher chain (MonitorPoller) on both databases, with the channel and the live playlist played
 * by stand-ins (the real recorder is exercised by monitor-live.test.ts): a batch whose price the balance
 * cannot pay stops the monitor with INSUFFICIENT_CREDITS and records nothing; a playlist that stops
 * growing for the stall time ends the broadcast (its batch cut and clipped) and the same stream is not a
 * new broadcast; a stop cuts the batch in progress and nothing is recorded or charged afterwards; a new
 * process resumes the same broadcast where the last one stopped, storing no segment twice.
 */

describe.each(DB_KINDS)('the live watcher chain on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let credits: CreditsService;
  let runner: ReturnType<typeof createTransactionRunner>;
  let repo: DrizzleMonitorsRepository;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertTestPlan(database.db);
    await insertTestPlan(database.db, { name: 'svc20', discountPercent: 20 });
    runner = createTransactionRunner(database.db);
    credits = new CreditsService(new DrizzleCreditsRepository(database.db), runner);
    repo = new DrizzleMonitorsRepository(database.db);
  }, 120_000);
  afterAll(async () => database?.close());

  /** One process's view over the shared database (test/helpers/live-monitor-stand.ts). */
  const process = (stand: LiveStand, opts: { batchSeconds?: number; stallSeconds?: number } = {}) => livePoller({ database, repo, runner, credits }, stand, opts);

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
    await database.db.update(broadcasts).set({ lastGrowthAt: new Date(Date.now() - 10_000) }).where(eq(broadcasts.id, b.id));
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

  it('a new process resumes the same broadcast where the last stored segment ends: no segment lost or stored twice, no batch charged twice', async () => {
    const stand = new LiveStand();
    stand.window(0, 3);
    const { ws, id } = await liveMonitor(10);
    const first = process(stand);
    await first.pollNow(id);
    const seqOfFirst = (await repo.get(id))!.pollSeq;
    const [b] = await broadcastsOf(id);
    // The first process is gone (its last run had not released the monitor: its lease is over by now).
    await database.db.update(monitors).set({ pollLeaseUntil: new Date(Date.now() - 1000) }).where(eq(monitors.id, id));
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
});
