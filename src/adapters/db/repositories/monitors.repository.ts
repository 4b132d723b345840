import { and, asc, count, desc, eq, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ClipListOrder } from '../../../domain/clips/clips.records.js';
import type {
  BatchChunk,
  BatchRow,
  BroadcastClipRow,
  BroadcastRow,
  BroadcastSummary,
  MonitorChanges,
  MonitorEntryRow,
  MonitorRow,
  MonitorsRepository,
  NewMonitor,
} from '../../../domain/monitors/monitors.records.js';
import type { PageRequest } from '../../../domain/pagination.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db, Executor } from '../database.js';
import { broadcastBatches, broadcasts, clips, monitorEntries, monitors, submissions, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

const CLIP_SORT = { rating: clips.rating, start_time: clips.startTime, created_at: clips.createdAt } as const;

/** Monitors, the uploads they saw, broadcasts and their batches (tables `monitors`, `monitor_entries`, `broadcasts`, `broadcast_batches`). */
export class DrizzleMonitorsRepository implements MonitorsRepository {
  constructor(private readonly db: Db) {}

  async insertWithinLimit(monitor: NewMonitor, max: number): Promise<MonitorRow | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, monitor.workspaceId)).for('update');
      if ((await countKept(tx, monitor.workspaceId)) >= max) return undefined;
      const [row] = await tx.insert(monitors).values(monitor).returning();
      return row;
    });
  }

  countKept(workspaceId: string): Promise<number> {
    return countKept(this.db, workspaceId);
  }

  async get(id: string, tx?: Tx): Promise<MonitorRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(monitors).where(eq(monitors.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, id: string, opts: { includeDeleted?: boolean } = {}): Promise<MonitorRow | undefined> {
    const [row] = await this.db
      .select()
      .from(monitors)
      .where(and(eq(monitors.id, id), eq(monitors.workspaceId, workspaceId), opts.includeDeleted ? undefined : isNull(monitors.deletedAt)));
    return row;
  }

  async list(workspaceId: string, page: PageRequest): Promise<{ rows: MonitorRow[]; total: number }> {
    const where = and(eq(monitors.workspaceId, workspaceId), isNull(monitors.deletedAt));
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(monitors).where(where).orderBy(desc(monitors.createdAt), desc(monitors.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(monitors).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async update(id: string, changes: MonitorChanges, at: Date): Promise<MonitorRow> {
    const [row] = await this.db
      .update(monitors)
      .set({ ...changes, updatedAt: at })
      .where(eq(monitors.id, id))
      .returning();
    return row;
  }

  async lock(tx: Tx, id: string): Promise<MonitorRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(monitors).where(eq(monitors.id, id)).for('update');
    return row;
  }

  async setStatus(
    tx: Tx | undefined,
    id: string,
    change: { status: string; stopReason?: string | null; startedAt?: Date | null; pollSeq?: number; watchState?: unknown; deletedAt?: Date },
    at: Date,
  ): Promise<void> {
    await executor(this.db, tx)
      .update(monitors)
      .set({ ...change, ...(change.pollSeq !== undefined ? { pollLeaseUntil: null } : {}), updatedAt: at })
      .where(eq(monitors.id, id));
  }

  async claimPoll(id: string, seq: number, until: Date, now: Date): Promise<MonitorRow | undefined> {
    const [row] = await this.db
      .update(monitors)
      .set({ pollLeaseUntil: until })
      .where(
        and(
          eq(monitors.id, id),
          eq(monitors.pollSeq, seq),
          ne(monitors.status, 'stopped'),
          isNull(monitors.deletedAt),
          or(isNull(monitors.pollLeaseUntil), lt(monitors.pollLeaseUntil, now)),
        ),
      )
      .returning();
    return row;
  }

  async releasePoll(id: string, seq: number, at: Date, changes: { watchState?: unknown; status?: string }): Promise<boolean> {
    const rows = await this.db
      .update(monitors)
      .set({ ...changes, pollSeq: seq + 1, pollLeaseUntil: null, lastCheckedAt: at, updatedAt: at })
      .where(and(eq(monitors.id, id), eq(monitors.pollSeq, seq), ne(monitors.status, 'stopped')))
      .returning({ id: monitors.id });
    return rows.length > 0;
  }

  async silentSince(before: Date, limit: number): Promise<MonitorRow[]> {
    return this.db
      .select()
      .from(monitors)
      .where(
        and(
          ne(monitors.status, 'stopped'),
          isNull(monitors.deletedAt),
          lt(sql`coalesce(${monitors.lastCheckedAt}, ${monitors.startedAt}, ${monitors.updatedAt})`, before),
          or(isNull(monitors.pollLeaseUntil), lt(monitors.pollLeaseUntil, before)),
        ),
      )
      .limit(limit);
  }

  async insertEntries(
    entries: ReadonlyArray<Pick<MonitorEntryRow, 'monitorId' | 'entryId' | 'url' | 'title' | 'baseline' | 'status'>>,
  ): Promise<MonitorEntryRow[]> {
    if (entries.length === 0) return [];
    return this.db
      .insert(monitorEntries)
      .values([...entries])
      .onConflictDoNothing()
      .returning();
  }

  async pendingEntries(monitorId: string, limit: number): Promise<MonitorEntryRow[]> {
    return this.db
      .select()
      .from(monitorEntries)
      .where(and(eq(monitorEntries.monitorId, monitorId), eq(monitorEntries.status, 'pending')))
      .orderBy(asc(monitorEntries.createdAt))
      .limit(limit);
  }

  async skipPending(monitorId: string): Promise<void> {
    await this.db
      .update(monitorEntries)
      .set({ status: 'skipped' })
      .where(and(eq(monitorEntries.monitorId, monitorId), eq(monitorEntries.status, 'pending')));
  }

  async settleEntry(monitorId: string, entryId: string, change: { status: string; submissionId?: string | null; errorCode?: string | null }): Promise<void> {
    await this.db
      .update(monitorEntries)
      .set(change)
      .where(and(eq(monitorEntries.monitorId, monitorId), eq(monitorEntries.entryId, entryId)));
  }

  async monitorSubmissionOfVideo(monitorId: string, videoId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.monitorId, monitorId), eq(submissions.videoId, videoId)))
      .limit(1);
    return row?.id;
  }

  async insertBroadcast(
    tx: Tx,
    b: Pick<BroadcastRow, 'id' | 'workspaceId' | 'monitorId' | 'title' | 'status' | 'externalId' | 'playlistUrl' | 'startedAt'>,
  ): Promise<BroadcastRow> {
    const [row] = await executor(this.db, tx).insert(broadcasts).values(b).returning();
    return row;
  }

  async liveBroadcast(monitorId: string, tx?: Tx): Promise<BroadcastRow | undefined> {
    const [row] = await executor(this.db, tx)
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.monitorId, monitorId), eq(broadcasts.status, 'live')));
    return row;
  }

  async lastEndedBroadcast(monitorId: string): Promise<BroadcastRow | undefined> {
    const [row] = await this.db
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.monitorId, monitorId), ne(broadcasts.status, 'live')))
      .orderBy(desc(broadcasts.startedAt))
      .limit(1);
    return row;
  }

  async getBroadcast(id: string): Promise<BroadcastRow | undefined> {
    const [row] = await this.db.select().from(broadcasts).where(eq(broadcasts.id, id));
    return row;
  }

  private summaries(where: SQL | undefined) {
    return this.db
      .select({
        b: broadcasts,
        // Written out: inside the subquery an interpolated column would render unqualified and bind to `bb`.
        batchesCount: sql<number>`(select count(*) from broadcast_batches bb where bb.broadcast_id = broadcasts.id)`.mapWith(Number),
        clipsCount: sql<number>`(select coalesce(sum(bb.clips_count), 0) from broadcast_batches bb where bb.broadcast_id = broadcasts.id)`.mapWith(Number),
        creditsCharged: sql<number>`(select coalesce(sum(bb.credits_charged), 0) from broadcast_batches bb where bb.broadcast_id = broadcasts.id)`.mapWith(
          Number,
        ),
      })
      .from(broadcasts)
      .where(where);
  }

  async findBroadcast(workspaceId: string, monitorId: string, id: string): Promise<BroadcastSummary | undefined> {
    const [r] = await this.summaries(and(eq(broadcasts.id, id), eq(broadcasts.monitorId, monitorId), eq(broadcasts.workspaceId, workspaceId)));
    return r ? { ...r.b, batchesCount: r.batchesCount, clipsCount: r.clipsCount, creditsCharged: r.creditsCharged } : undefined;
  }

  async listBroadcasts(workspaceId: string, monitorId: string, page: PageRequest): Promise<{ rows: BroadcastSummary[]; total: number }> {
    const where = and(eq(broadcasts.monitorId, monitorId), eq(broadcasts.workspaceId, workspaceId));
    const [rows, [{ n }]] = await Promise.all([
      this.summaries(where).orderBy(desc(broadcasts.startedAt), desc(broadcasts.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(broadcasts).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.b, batchesCount: r.batchesCount, clipsCount: r.clipsCount, creditsCharged: r.creditsCharged })), total: Number(n) };
  }

  async advanceBroadcast(tx: Tx, id: string, from: number, to: number, at: Date): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(broadcasts)
      .set({ nextSequence: to, lastGrowthAt: at })
      .where(and(eq(broadcasts.id, id), or(isNull(broadcasts.nextSequence), lte(broadcasts.nextSequence, from))))
      .returning({ id: broadcasts.id });
    return rows.length > 0;
  }

  async endBroadcast(tx: Tx, id: string, status: 'processing' | 'ended', reason: string, at: Date): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(broadcasts)
      .set({ status, endReason: reason, endedAt: at })
      .where(and(eq(broadcasts.id, id), eq(broadcasts.status, 'live')))
      .returning({ id: broadcasts.id });
    return rows.length > 0;
  }

  async finishBroadcastIfDone(id: string): Promise<boolean> {
    const rows = await this.db
      .update(broadcasts)
      .set({ status: 'ended' })
      .where(
        and(
          eq(broadcasts.id, id),
          eq(broadcasts.status, 'processing'),
          sql`not exists (select 1 from broadcast_batches bb where bb.broadcast_id = broadcasts.id and bb.status in ('recording', 'recorded', 'processing'))`,
        ),
      )
      .returning({ id: broadcasts.id });
    return rows.length > 0;
  }

  async insertBatch(
    tx: Tx,
    b: Pick<BatchRow, 'id' | 'workspaceId' | 'broadcastId' | 'index' | 'status' | 'offsetSeconds' | 'creditsCharged' | 'startedAt'>,
  ): Promise<BatchRow> {
    const [row] = await executor(this.db, tx)
      .insert(broadcastBatches)
      .values({ ...b, chunks: [] })
      .returning();
    return row;
  }

  async getBatch(id: string, tx?: Tx): Promise<BatchRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(broadcastBatches).where(eq(broadcastBatches.id, id));
    return row;
  }

  async recordingBatch(broadcastId: string, tx?: Tx): Promise<BatchRow | undefined> {
    const [row] = await executor(this.db, tx)
      .select()
      .from(broadcastBatches)
      .where(and(eq(broadcastBatches.broadcastId, broadcastId), eq(broadcastBatches.status, 'recording')));
    return row;
  }

  async lastBatch(broadcastId: string, tx?: Tx): Promise<BatchRow | undefined> {
    const [row] = await executor(this.db, tx)
      .select()
      .from(broadcastBatches)
      .where(eq(broadcastBatches.broadcastId, broadcastId))
      .orderBy(desc(broadcastBatches.index))
      .limit(1);
    return row;
  }

  async appendChunk(tx: Tx, batchId: string, chunk: BatchChunk): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(broadcastBatches)
      .set({
        chunks: sql`${broadcastBatches.chunks} || ${JSON.stringify([chunk])}::jsonb`,
        seconds: sql`${broadcastBatches.seconds} + ${chunk.seconds}`,
      })
      .where(and(eq(broadcastBatches.id, batchId), eq(broadcastBatches.status, 'recording')))
      .returning({ id: broadcastBatches.id });
    return rows.length > 0;
  }

  async cutBatch(tx: Tx, batchId: string, at: Date): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(broadcastBatches)
      .set({ status: 'recorded', recordedAt: at })
      .where(and(eq(broadcastBatches.id, batchId), eq(broadcastBatches.status, 'recording')))
      .returning({ id: broadcastBatches.id });
    return rows.length > 0;
  }

  async setBatchSubmission(tx: Tx, batchId: string, submissionId: string): Promise<void> {
    await executor(this.db, tx)
      .update(broadcastBatches)
      .set({ submissionId, status: 'processing' })
      .where(and(eq(broadcastBatches.id, batchId), isNull(broadcastBatches.submissionId)));
  }

  async finishBatch(tx: Tx, batchId: string, r: { clipsCount: number; creditsCharged: number; errorCode: string | null }, at: Date): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(broadcastBatches)
      .set({ ...r, status: 'done', finishedAt: at })
      .where(and(eq(broadcastBatches.id, batchId), ne(broadcastBatches.status, 'done')))
      .returning({ id: broadcastBatches.id });
    return rows.length > 0;
  }

  private clipRows(where: SQL | undefined) {
    return this.db
      .select({ clip: clips, batchIndex: broadcastBatches.index, batchOffset: broadcastBatches.offsetSeconds, videoId: submissions.videoId })
      .from(clips)
      .innerJoin(broadcastBatches, eq(broadcastBatches.submissionId, clips.submissionId))
      .innerJoin(submissions, eq(submissions.id, clips.submissionId))
      .where(where);
  }

  async listBroadcastClips(
    workspaceId: string,
    broadcastId: string,
    order: ClipListOrder,
    page: PageRequest,
  ): Promise<{ rows: BroadcastClipRow[]; total: number }> {
    const where = and(eq(clips.workspaceId, workspaceId), eq(broadcastBatches.broadcastId, broadcastId));
    const dir = order.order === 'asc' ? asc : desc;
    const ordering =
      order.sort === 'start_time'
        ? [dir(sql`${broadcastBatches.offsetSeconds} + ${clips.startTime}`), asc(clips.position)]
        : [dir(CLIP_SORT[order.sort]), asc(broadcastBatches.index), asc(clips.position)];
    const [rows, [{ n }]] = await Promise.all([
      this.clipRows(where)
        .orderBy(...ordering)
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ n: count() }).from(clips).innerJoin(broadcastBatches, eq(broadcastBatches.submissionId, clips.submissionId)).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.clip, batchIndex: r.batchIndex, batchOffset: r.batchOffset, videoId: r.videoId })), total: Number(n) };
  }

  async findBroadcastClip(workspaceId: string, broadcastId: string, clipId: string): Promise<BroadcastClipRow | undefined> {
    const [r] = await this.clipRows(and(eq(clips.id, clipId), eq(clips.workspaceId, workspaceId), eq(broadcastBatches.broadcastId, broadcastId)));
    return r ? { ...r.clip, batchIndex: r.batchIndex, batchOffset: r.batchOffset, videoId: r.videoId } : undefined;
  }

  async batchSubmissions(broadcastId: string): Promise<Array<{ submissionId: string; videoId: string; status: string }>> {
    return this.db
      .select({ submissionId: submissions.id, videoId: submissions.videoId, status: submissions.status })
      .from(broadcastBatches)
      .innerJoin(submissions, eq(submissions.id, broadcastBatches.submissionId))
      .where(eq(broadcastBatches.broadcastId, broadcastId))
      .orderBy(asc(broadcastBatches.index));
  }
}

async function countKept(db: Executor, workspaceId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(monitors)
    .where(and(eq(monitors.workspaceId, workspaceId), isNull(monitors.deletedAt)));
  return Number(n);
}
