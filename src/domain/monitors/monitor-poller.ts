import type { Logger } from 'pino';
import { newId } from '../../shared/ids.js';
import { DomainError, errorCodeOf, isRetryable } from '../errors.js';
import type { CreditsService } from '../credits/credits.service.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import { sendJob } from '../jobs/enqueue.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import type { ChannelPlatform, ChannelWatcher, LiveRecorder, LiveSegment, StoredChunk } from '../../ports/channel-watcher.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { BroadcastEnding } from './broadcast-end.js';
import type { MonitorUploads } from './monitor-uploads.js';
import {
  batchJobId,
  batchPrice,
  chunkRefusal,
  maxBatchSeconds,
  nextPollSeconds,
  nextRecordSeconds,
  recordedBytes,
  segmentsForBatch,
  type LiveRefusal,
} from './monitor.rules.js';
import type { BatchChunk, BatchRow, BroadcastRow, MonitorRow, MonitorsRepository } from './monitors.records.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

export interface MonitorPollerDeps {
  repo: MonitorsRepository;
  tx: TransactionRunner;
  queue: JobQueue;
  credits: CreditsService;
  storage: Pick<Storage, 'delete'>;
  logger: Logger;
  ending: BroadcastEnding;
  /** The watcher of a kind of channel; throws PLATFORM_UNAVAILABLE when it is not configured. */
  watcher(platform: ChannelPlatform): ChannelWatcher;
  recorder: LiveRecorder;
  workspaces: { get(id: string): Promise<WorkspaceWithPlan> };
  /** An upload as an ordinary submission, as POST /clips/info + POST /clips would make it (monitor-uploads.ts); answers its id. */
  uploads: Pick<MonitorUploads, 'submit'>;
  /** Stops the monitor (MonitorsService.stopMonitor): INSUFFICIENT_CREDITS, SOURCE_GONE, a LiveRefusal. */
  stopMonitor(id: string, reason: string): Promise<void>;
  pollSeconds: number;
  batchSeconds: number;
  /** CUTROOM_LIVE_BATCH_MAX_BYTES: the stored chunks of one batch take at most this many bytes. */
  maxBatchBytes: number;
  stallSeconds: number;
  /** Announces `broadcast.started` (webhooks). */
  events?: EventPublisher;
  /** How long a poll run holds the monitor (another run waits); default 60 s. A slower run stores nothing twice (advanceBroadcast). */
  leaseSeconds?: number;
}

interface WatchState {
  baseline?: boolean;
}

/** Rolls back a chunk's transaction when its batch no longer records (stopped or cut meanwhile). */
class ChunkRefused extends Error {}

/** Entries submitted per poll at most (a burst of uploads is spread over polls). */
const ENTRIES_PER_POLL = 10;
const EPS = 0.01;

/**
 * The `monitor.poll` job: one run checks one monitor, then sends the next run of its chain. A run works
 * only while its `seq` is the monitor's chain and it holds the monitor's lease, so one watcher runs per
 * monitor across all processes; a stopped monitor's chain ends by itself.
 *
 * - video monitors: the channel's uploads; the first check after a start records the baseline (not
 *   clipped), each later entry becomes one submission (the entry's row is the claim: unique per monitor).
 * - live monitors: while the channel is on air, the playlist is read in Node and new segments are fetched
 *   with the safe fetcher and stored as chunks of the current batch, each measured; a batch full by
 *   measured time is cut and its `monitor.batch` job sent. Each batch is charged in full when it starts
 *   recording (and settled by its measured seconds).
 */
export class MonitorPoller {
  constructor(private readonly d: MonitorPollerDeps) {}

  async poll(monitorId: string, seq: number): Promise<void> {
    const lease = (this.d.leaseSeconds ?? 60) * 1000;
    const now = new Date();
    const m = await this.d.repo.claimPoll(monitorId, seq, new Date(now.getTime() + lease), now);
    if (!m) {
      const cur = await this.d.repo.get(monitorId);
      // Another run of this chain holds the monitor (a duplicate after a crash): try again when its lease ends.
      if (cur && cur.pollSeq === seq && cur.status !== 'stopped' && !cur.deletedAt && cur.pollLeaseUntil) {
        await sendJob(this.d.queue, { name: 'monitor.poll', payload: { monitorId, seq }, startAfter: new Date(cur.pollLeaseUntil.getTime() + 100) });
      }
      return;
    }
    let delay = nextPollSeconds(this.d.pollSeconds);
    let changes: { watchState?: unknown; status?: string } = {};
    try {
      if (m.type === 'video') changes = await this.watchUploads(m);
      else ({ delay, changes } = await this.watchLive(m));
    } catch (err) {
      if (errorCodeOf(err) === 'SOURCE_GONE') {
        // The channel or feed no longer exists: the monitor stops (its chain ends with the stop).
        await this.d.stopMonitor(monitorId, 'SOURCE_GONE');
        return;
      }
      // Any other failing check is tried again at the next poll.
      this.d.logger.warn({ err, monitorId, code: errorCodeOf(err) }, 'monitor check failed');
    }
    // The next run first, then the chain moves on: a crash between the two leaves a duplicate run, which finds
    // the chain moved and does nothing, never a chain without a run.
    await sendJob(this.d.queue, { name: 'monitor.poll', payload: { monitorId, seq: seq + 1 }, startAfter: new Date(Date.now() + delay * 1000) });
    await this.d.repo.releasePoll(monitorId, seq, new Date(), changes);
  }

  /** Restarts the chain of monitors on whose poll has not run for a long while (its job was lost). */
  async revive(now = new Date()): Promise<number> {
    const silent = await this.d.repo.silentSince(new Date(now.getTime() - Math.max(300, 5 * this.d.pollSeconds) * 1000), 50);
    for (const m of silent) {
      const seq = m.pollSeq + 1;
      await this.d.repo.setStatus(undefined, m.id, { status: m.status, pollSeq: seq }, now);
      await sendJob(this.d.queue, { name: 'monitor.poll', payload: { monitorId: m.id, seq } });
    }
    return silent.length;
  }

  // ------------------------------------------------------------------ uploads

  private async watchUploads(m: MonitorRow): Promise<{ watchState?: unknown; status?: string }> {
    const state = (m.watchState ?? {}) as WatchState;
    const entries = await this.d.watcher(m.platform as ChannelPlatform).uploads({ platform: m.platform as ChannelPlatform, watchUrl: m.watchUrl });
    if (!state.baseline) {
      // What the channel shows when the monitor starts is the baseline: not clipped. Entries left pending by an
      // earlier run of the monitor were seen while it was off: not clipped either.
      await this.d.repo.skipPending(m.id);
      await this.d.repo.insertEntries(entries.map((e) => ({ monitorId: m.id, entryId: e.id, url: e.url, title: e.title, baseline: true, status: 'skipped' })));
      return { watchState: { ...state, baseline: true }, status: 'watching' };
    }
    // Oldest first; the row is the claim: an entry is inserted once per monitor (primary key), so two runs never both submit it.
    await this.d.repo.insertEntries(
      [...entries].reverse().map((e) => ({ monitorId: m.id, entryId: e.id, url: e.url, title: e.title, baseline: false, status: 'pending' })),
    );
    const pending = await this.d.repo.pendingEntries(m.id, ENTRIES_PER_POLL);
    if (pending.length === 0) return { status: 'watching' };
    const ctx = await this.d.workspaces.get(m.workspaceId);
    for (const entry of pending) {
      try {
        const submissionId = await this.d.uploads.submit(ctx, m, entry);
        await this.d.repo.settleEntry(m.id, entry.entryId, { status: 'submitted', submissionId });
      } catch (err) {
        const code = errorCodeOf(err);
        if (code === 'INSUFFICIENT_CREDITS') {
          await this.d.stopMonitor(m.id, 'INSUFFICIENT_CREDITS');
          return {};
        }
        // Worth another look at the next poll: the platform refusing now, a stream still on air, a queue outage.
        if (isRetryable(err) || code === 'PLATFORM_UNAVAILABLE' || code === 'LIVE_STREAM' || code === 'INTERNAL_ERROR' || !(err instanceof DomainError)) {
          this.d.logger.warn({ err, monitorId: m.id, entry: entry.entryId }, 'monitor upload not submitted yet');
          continue;
        }
        await this.d.repo.settleEntry(m.id, entry.entryId, { status: 'failed', errorCode: code });
      }
    }
    return { status: 'watching' };
  }

  // ------------------------------------------------------------------ live

  private async watchLive(m: MonitorRow): Promise<{ delay: number; changes: { status?: string } }> {
    const poll = nextPollSeconds(this.d.pollSeconds);
    let b = await this.d.repo.liveBroadcast(m.id);
    if (!b) {
      const st = await this.d.watcher(m.platform as ChannelPlatform).live({ platform: m.platform as ChannelPlatform, watchUrl: m.watchUrl });
      if (!st.live) return { delay: poll, changes: { status: 'watching' } };
      const last = await this.d.repo.lastEndedBroadcast(m.id);
      // The same stream that stalled (no new segment for the stall time) is not a new broadcast.
      if (last && last.externalId === st.id && last.endReason === 'STALLED') return { delay: poll, changes: { status: 'watching' } };
      const now = new Date();
      b = await this.d.tx.run(async (tx) => {
        const broadcast = await this.d.repo.insertBroadcast(tx, {
          id: newId('bc'),
          workspaceId: m.workspaceId,
          monitorId: m.id,
          title: st.title,
          status: 'live',
          externalId: st.id,
          playlistUrl: st.playlistUrl,
          startedAt: now,
        });
        await this.d.repo.setStatus(tx, m.id, { status: 'live' }, now);
        const data = { id: broadcast.id, monitor_id: m.id, title: broadcast.title, status: 'live' };
        await (this.d.events ?? noEvents).publish(m.workspaceId, 'broadcast.started', data, tx);
        return broadcast;
      });
    }
    const target = await this.record(m, b);
    if (target === null) return { delay: poll, changes: {} };
    return { delay: nextRecordSeconds(target, this.d.pollSeconds), changes: { status: 'live' } };
  }

  /**
   * One read of the live playlist: new segments go into the current batch (charged when it starts), full
   * batches are cut. Answers the playlist's target duration, or null when the broadcast ended.
   *
   * Batches are billed and cut by measured time: a chunk adds the seconds the recorder measured in the
   * stored media, never the playlist's `#EXTINF` (docs/monitors.md, "Measured time"). A stream whose chunk
   * measures longer than declared beyond the tolerance, or that would take its batch over its seconds or
   * bytes, stops the monitor (STREAM_DURATION_MISMATCH, LIVE_BATCH_TOO_LARGE): that chunk is deleted,
   * never billed, and the batch keeps what was recorded before it.
   */
  private async record(m: MonitorRow, b: BroadcastRow): Promise<number | null> {
    const now = new Date();
    let playlist;
    try {
      playlist = await this.d.recorder.readPlaylist(b.playlistUrl);
    } catch (err) {
      this.d.logger.warn({ err, broadcastId: b.id }, 'live playlist not read');
      if (now.getTime() - (b.lastGrowthAt ?? b.startedAt).getTime() > this.d.stallSeconds * 1000) {
        await this.end(m, b, 'STALLED');
        return null;
      }
      return 2;
    }
    const next = b.nextSequence ?? playlist.segments[0]?.sequence ?? 0;
    let pending = playlist.segments.filter((s) => s.sequence >= next);
    let grew = false;
    const maxSeconds = maxBatchSeconds(this.d.batchSeconds);
    while (pending.length > 0) {
      // A segment declaring more than a whole batch may hold is not fetched at all.
      if (!(pending[0].duration <= maxSeconds)) return this.refuse(m, b, undefined, 'LIVE_BATCH_TOO_LARGE', { declared: pending[0].duration, maxSeconds });
      let batch = await this.d.repo.recordingBatch(b.id);
      if (!batch) {
        batch = await this.openBatch(m, b);
        if (!batch) return null; // out of credits, or stopped meanwhile: nothing more is recorded
      }
      const chunks = batch.chunks as BatchChunk[];
      const count = segmentsForBatch(
        pending.map((s) => s.duration),
        this.d.batchSeconds - batch.seconds,
        chunks.length === 0,
      );
      if (count === 0) {
        // The batch is full (by measured time): the next segment goes into a new one.
        await this.cut(batch);
        continue;
      }
      const take: LiveSegment[] = pending.slice(0, count);
      const declared = take.reduce((sum, s) => sum + s.duration, 0);
      const first = take[0].sequence;
      const lastSeq = take[take.length - 1].sequence;
      const key = `live/${m.workspaceId}/${b.id}/${batch.index}/${first}.chunk`;
      const batchBytes = recordedBytes(chunks);
      let stored: StoredChunk;
      try {
        stored = await this.d.recorder.storeChunk(take, key, { maxBytes: Math.max(0, this.d.maxBatchBytes - batchBytes) });
      } catch (err) {
        // Over the batch's byte cap while fetching: nothing was stored.
        if (errorCodeOf(err) === 'SOURCE_TOO_LARGE') return this.refuse(m, b, key, 'LIVE_BATCH_TOO_LARGE', { batchBytes, maxBytes: this.d.maxBatchBytes });
        throw err;
      }
      const refusal = chunkRefusal(
        { declared, measured: stored.seconds, segments: take.length, bytes: stored.bytes },
        { seconds: batch.seconds, bytes: batchBytes },
        { maxSeconds, maxBytes: this.d.maxBatchBytes },
      );
      if (refusal) return this.refuse(m, b, key, refusal, { declared, measured: stored.seconds, bytes: stored.bytes, batchSeconds: batch.seconds, batchBytes });
      const seconds = stored.seconds;
      const chunk: BatchChunk = { key, seconds, firstSequence: first, lastSequence: lastSeq, bytes: stored.bytes, declaredSeconds: declared };
      const kept = await this.d.tx
        .run(async (tx) => {
          // Both or neither: the broadcast moves past these segments only once (a slow run whose lease ran out
          // and the run that took over cannot both add them), and only into a batch still recording.
          if (!(await this.d.repo.advanceBroadcast(tx, b.id, first, lastSeq + 1, new Date()))) return false;
          if (!(await this.d.repo.appendChunk(tx, batch.id, chunk))) throw new ChunkRefused();
          return true;
        })
        .catch((err) => {
          if (err instanceof ChunkRefused) return false;
          throw err;
        });
      if (!kept) {
        // Stopped (or cut) meanwhile, or another run stored these segments: nothing is recorded twice or after a stop.
        // (The other run wrote the same key with the same bytes: only a refused batch's chunk is deleted.)
        if ((await this.d.repo.getBatch(batch.id))?.status !== 'recording' || !(await this.d.repo.liveBroadcast(m.id))) {
          await this.d.storage.delete(key).catch(() => undefined);
        }
        return null;
      }
      grew = true;
      pending = pending.slice(take.length);
      // Full by measured time; otherwise the next segments go into it too, or cut it when they do not fit.
      if (batch.seconds + seconds >= this.d.batchSeconds - EPS) await this.cut(batch);
    }
    if (playlist.ended) {
      await this.end(m, b, 'ENDLIST');
      return null;
    }
    if (!grew && now.getTime() - (b.lastGrowthAt ?? b.startedAt).getTime() > this.d.stallSeconds * 1000) {
      await this.end(m, b, 'STALLED');
      return null;
    }
    return playlist.targetDuration;
  }

  /**
   * A new batch, charged its full price now (credit rule 5); 402 stops the monitor and ends the broadcast.
   * Undefined when no batch may start (out of credits, stopped, the broadcast over).
   */
  private async openBatch(m: MonitorRow, b: BroadcastRow): Promise<BatchRow | undefined> {
    const ctx = await this.d.workspaces.get(m.workspaceId);
    const last = await this.d.repo.lastBatch(b.id);
    const index = last ? last.index + 1 : 0;
    const offset = last ? last.offsetSeconds + last.seconds : 0;
    const amount = batchPrice(this.d.batchSeconds, ctx.plan.discountPercent);
    try {
      return await this.d.tx.run(async (tx) => {
        // Under the monitor's row lock, as a stop takes it: a run that began before a stop (or on a worker that
        // lost the monitor) opens no batch and charges nothing once the monitor is stopped or the broadcast over.
        const cur = await this.d.repo.lock(tx, m.id);
        if (!cur || cur.status === 'stopped' || cur.deletedAt) return undefined;
        if ((await this.d.repo.liveBroadcast(m.id, tx))?.id !== b.id) return undefined;
        const charge = await this.d.credits.charge(
          {
            workspaceId: m.workspaceId,
            amount,
            reason: `live batch ${index} of broadcast ${b.id}`,
            jobType: CHARGE_TYPE.liveBatch,
            jobId: batchJobId(b.id, index),
          },
          tx,
        );
        return this.d.repo.insertBatch(tx, {
          id: newId('batch'),
          workspaceId: m.workspaceId,
          broadcastId: b.id,
          index,
          status: 'recording',
          offsetSeconds: offset,
          creditsCharged: charge.charged,
          startedAt: new Date(),
        });
      });
    } catch (err) {
      if (errorCodeOf(err) !== 'INSUFFICIENT_CREDITS') throw err;
      await this.d.stopMonitor(m.id, 'INSUFFICIENT_CREDITS');
      return undefined;
    }
  }

  /**
   * The stream broke a rule of recording (a LiveRefusal): the chunk at `key`, if stored, is deleted and
   * never billed; the monitor stops with the refusal as its reason (`monitor.stopped`), which cuts the
   * batch being recorded where it was (processed and billed for what it measured, refunded at once when
   * empty) and ends the broadcast. Nothing is recorded afterwards. Answers null (the broadcast is over).
   */
  private async refuse(m: MonitorRow, b: BroadcastRow, key: string | undefined, reason: LiveRefusal, details: Record<string, number>): Promise<null> {
    if (key) await this.d.storage.delete(key).catch(() => undefined);
    this.d.logger.warn({ monitorId: m.id, broadcastId: b.id, reason, ...details }, 'live stream refused: monitor stopped');
    await this.d.stopMonitor(m.id, reason);
    return null;
  }

  private async cut(batch: BatchRow): Promise<void> {
    const cut = await this.d.tx.run((tx) => this.d.repo.cutBatch(tx, batch.id, new Date()));
    if (cut) await sendJob(this.d.queue, { name: 'monitor.batch', payload: { batchId: batch.id } });
  }

  /** The broadcast is over: the batch in progress is cut, the monitor waits for the next one. */
  private async end(m: MonitorRow, b: BroadcastRow, reason: string): Promise<void> {
    const now = new Date();
    const batchId = await this.d.tx.run(async (tx) => {
      const id = await this.d.ending.endInTx(tx, b, reason, now);
      const cur = await this.d.repo.get(m.id, tx);
      if (cur && cur.status === 'live') await this.d.repo.setStatus(tx, m.id, { status: 'watching' }, now);
      return id;
    });
    await this.d.ending.afterEnd(b.id, batchId);
  }
}
