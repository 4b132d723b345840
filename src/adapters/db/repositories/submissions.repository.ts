import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import { FINISHED_STATES, type SubmissionState } from '../../../domain/submissions/submission.rules.js';
import type {
  ExpiringSubmission,
  NewSubmission,
  SourceWait,
  StageChanges,
  SubmissionRow,
  SubmissionsRepository,
} from '../../../domain/submissions/submissions.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { plans, submissions, videos, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Submissions (table `submissions`), plus the video row lock their creation takes. */
export class DrizzleSubmissionsRepository implements SubmissionsRepository {
  constructor(private readonly db: Db) {}

  async lockVideo(tx: Tx, videoId: string): Promise<void> {
    await executor(this.db, tx).select({ id: videos.id }).from(videos).where(eq(videos.id, videoId)).for('update');
  }

  async timeframesOfVideo(tx: Tx, videoId: string): Promise<Array<Pick<SubmissionRow, 'status' | 'timeframeStart' | 'timeframeEnd'>>> {
    return executor(this.db, tx)
      .select({ status: submissions.status, timeframeStart: submissions.timeframeStart, timeframeEnd: submissions.timeframeEnd })
      .from(submissions)
      .where(eq(submissions.videoId, videoId));
  }

  async insert(tx: Tx, submission: NewSubmission): Promise<SubmissionRow> {
    const [row] = await executor(this.db, tx).insert(submissions).values(submission).returning();
    return row;
  }

  async get(id: string): Promise<SubmissionRow | undefined> {
    const [row] = await this.db.select().from(submissions).where(eq(submissions.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, videoId: string, id: string): Promise<SubmissionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(submissions)
      .where(and(eq(submissions.id, id), eq(submissions.workspaceId, workspaceId), eq(submissions.videoId, videoId)));
    return row;
  }

  async list(
    workspaceId: string,
    filter: { status?: string; videoId?: string; monitorId?: string },
    page: PageRequest,
  ): Promise<{ rows: SubmissionRow[]; total: number }> {
    const conds: SQL[] = [eq(submissions.workspaceId, workspaceId), eq(submissions.liveBatch, false)];
    if (filter.monitorId) conds.push(eq(submissions.monitorId, filter.monitorId));
    if (filter.status) conds.push(eq(submissions.status, filter.status));
    if (filter.videoId) conds.push(eq(submissions.videoId, filter.videoId));
    const where = and(...conds);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(submissions).where(where).orderBy(desc(submissions.createdAt), desc(submissions.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(submissions).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async queuedBefore(createdAt: Date): Promise<{ count: number; seconds: number }> {
    const [r] = await this.db
      .select({
        n: count(),
        seconds: sql<string>`coalesce(sum(${submissions.timeframeEnd} - ${submissions.timeframeStart}), 0)`,
      })
      .from(submissions)
      .where(and(eq(submissions.status, 'queued'), lt(submissions.createdAt, createdAt)));
    return { count: Number(r.n), seconds: Number(r.seconds) };
  }

  async lock(tx: Tx, id: string): Promise<SubmissionRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(submissions).where(eq(submissions.id, id)).for('update');
    return row;
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await executor(this.db, tx).delete(submissions).where(eq(submissions.id, id));
  }

  async failIfUnfinished(tx: Tx, id: string, errorCode: string, at: Date): Promise<{ videoId: string; liveBatch: boolean } | undefined> {
    const [row] = await executor(this.db, tx)
      .update(submissions)
      .set({ status: 'failed', errorCode, waitingReason: null, waitingUntil: null, finishedAt: at, updatedAt: at })
      .where(and(eq(submissions.id, id), notInArray(submissions.status, [...FINISHED_STATES])))
      .returning({ videoId: submissions.videoId, liveBatch: submissions.liveBatch });
    return row;
  }

  async transition(id: string, from: SubmissionState, to: SubmissionState, changes: StageChanges, at: Date, tx?: Tx): Promise<SubmissionRow | undefined> {
    const [row] = await executor(this.db, tx)
      .update(submissions)
      .set({ ...changes, status: to, updatedAt: at, stageProgress: null })
      .where(and(eq(submissions.id, id), eq(submissions.status, from)))
      .returning();
    return row;
  }

  async setStageProgress(id: string, status: SubmissionState, fraction: number): Promise<void> {
    await this.db
      .update(submissions)
      .set({ stageProgress: Math.min(1, Math.max(0, fraction)) })
      .where(and(eq(submissions.id, id), eq(submissions.status, status)));
  }

  async setWaiting(id: string, wait: SourceWait, at: Date): Promise<void> {
    await this.db
      .update(submissions)
      .set({ ...wait, updatedAt: at })
      .where(and(eq(submissions.id, id), eq(submissions.status, 'downloading')));
  }

  async dueForExpiry(now: Date, limit: number): Promise<ExpiringSubmission[]> {
    return this.db
      .select({ id: submissions.id, workspaceId: submissions.workspaceId, videoId: submissions.videoId, sourceKey: submissions.sourceKey })
      .from(submissions)
      .innerJoin(workspaces, eq(workspaces.id, submissions.workspaceId))
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(
        and(
          isNull(submissions.expiredAt),
          isNotNull(submissions.finishedAt),
          inArray(submissions.status, [...FINISHED_STATES]),
          lte(submissions.finishedAt, sql`${now.toISOString()}::timestamptz - ${plans.submissionRetentionHours} * interval '1 hour'`),
        ),
      )
      .orderBy(asc(submissions.finishedAt))
      .limit(limit);
  }

  async countUnexpiredOfVideo(tx: Tx, videoId: string, exceptId: string): Promise<number> {
    const [{ n }] = await executor(this.db, tx)
      .select({ n: count() })
      .from(submissions)
      .where(and(eq(submissions.videoId, videoId), ne(submissions.id, exceptId), isNull(submissions.expiredAt)));
    return Number(n);
  }

  async markExpired(id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(submissions)
      .set({ expiredAt: at, transcript: null, analysis: null, updatedAt: at })
      .where(and(eq(submissions.id, id), isNull(submissions.expiredAt)))
      .returning({ id: submissions.id });
    return rows.length > 0;
  }
}
