import { and, asc, count, desc, eq, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import { asTx } from '../../adapters/db/transactions.js';
import type { Db } from '../../adapters/db/database.js';
import { clips, submissions, videos } from '../../adapters/db/schema.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { creditsForSeconds } from '../credits/credits.rules.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { PageRequest } from '../pagination.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { VideosService } from '../videos/videos.service.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import { FINISHED_STATES, estimateSeconds, isFinished, resolveTimeframe, type SubmissionState } from './submission.rules.js';

export type SubmissionRow = typeof submissions.$inferSelect;

export interface SubmissionInput {
  video_id: string;
  timeframe?: { start?: number; end?: number };
  strategy_id?: string;
  template_id?: string;
  source_language?: string;
}

/** What the service needs to know of templates, strategies and the speech engine at creation. */
export interface SubmissionChecks {
  /** Throws 404 STRATEGY_NOT_FOUND / TEMPLATE_NOT_FOUND for an id the workspace cannot use. */
  checkStrategy(workspaceId: string, id: string): Promise<void>;
  checkTemplate(workspaceId: string, id: string): Promise<void>;
  supportsLanguage(lang: string): boolean;
}

export const SUBMISSION_JOB = 'submission';
/** A pipeline run may take long on big videos; retries after a crash come quickly. */
export const SUBMISSION_JOB_OPTIONS = { expireInSeconds: 4 * 3600, retryLimit: 2, retryDelaySeconds: 2 };

export interface SubmissionView {
  id: string;
  video_id: string;
  status: SubmissionState;
  credits_charged: number;
  error_code: string | null;
  clips_count: number;
  queue_position?: number;
  estimated_time?: number;
  waiting_reason?: string;
  waiting_until?: string;
  created_at: string;
}

export class SubmissionsService {
  constructor(
    private readonly db: Db,
    private readonly videos: VideosService,
    private readonly credits: CreditsService,
    private readonly queue: JobQueue,
    private readonly checks: SubmissionChecks,
    private readonly storage: Storage,
  ) {}

  /** POST /clips: checks everything, then creates the submission and charges it in one transaction. */
  async create(ctx: WorkspaceWithPlan, input: SubmissionInput): Promise<SubmissionRow> {
    const ws = ctx.workspace;
    const video = await this.videos.get(ws.id, input.video_id);
    if (video.status !== 'ready') throw new DomainError('FILE_NOT_FOUND');
    // A source that does not exist yet (a scheduled premiere) has no length: the caller's timeframe is charged,
    // and checked against the real length once the source is downloaded.
    const unknownLength = video.source === 'link' && !(video.duration > 0);
    const tf = resolveTimeframe(unknownLength ? (input.timeframe?.end ?? 0) : video.duration, input.timeframe);
    if (input.strategy_id) await this.checks.checkStrategy(ws.id, input.strategy_id);
    if (input.template_id) await this.checks.checkTemplate(ws.id, input.template_id);
    const language = input.source_language ?? 'auto';
    if (!this.checks.supportsLanguage(language)) throw validationError([{ field: 'source_language', rule: 'unsupported_by_engine' }]);

    const amount = creditsForSeconds(tf.end - tf.start, ctx.plan.discountPercent);
    const id = newId('sub');
    const row = await this.db.transaction(async (tx) => {
      // Serialise creations for this video so two identical requests cannot both pass the check.
      await tx.select({ id: videos.id }).from(videos).where(eq(videos.id, video.id)).for('update');
      const prior = await tx
        .select({ status: submissions.status, start: submissions.timeframeStart, end: submissions.timeframeEnd })
        .from(submissions)
        .where(eq(submissions.videoId, video.id));
      if (prior.some((p) => !isFinished(p.status) && Math.abs(p.start - tf.start) < 0.01 && Math.abs(p.end - tf.end) < 0.01)) {
        throw new DomainError('VIDEO_ALREADY_PROCESSING');
      }
      const charge = await this.credits.charge(
        {
          workspaceId: ws.id,
          amount,
          reason: `clipping ${Math.round(tf.end - tf.start)} s of video ${video.id}`,
          jobType: SUBMISSION_JOB,
          jobId: id,
          insufficientExtra: { is_reclip: prior.length > 0, scope: 'workspace', is_owner: true },
        },
        asTx(tx),
      );
      const [inserted] = await tx
        .insert(submissions)
        .values({
          id,
          workspaceId: ws.id,
          videoId: video.id,
          status: 'queued',
          timeframeStart: tf.start,
          timeframeEnd: tf.end,
          strategyId: input.strategy_id ?? null,
          templateId: input.template_id ?? null,
          sourceLanguage: language,
          creditsCharged: charge.charged,
        })
        .returning();
      return inserted;
    });
    try {
      await this.queue.send('submission.process', { submissionId: id }, SUBMISSION_JOB_OPTIONS);
    } catch (err) {
      await this.fail(row, 'QUEUE_UNAVAILABLE');
      throw err;
    }
    return row;
  }

  async get(workspaceId: string, videoId: string, id: string): Promise<SubmissionRow> {
    const [row] = await this.db
      .select()
      .from(submissions)
      .where(and(eq(submissions.id, id), eq(submissions.workspaceId, workspaceId), eq(submissions.videoId, videoId)));
    if (!row) throw new DomainError('SUBMISSION_NOT_FOUND');
    return row;
  }

  async list(workspaceId: string, filter: { status?: string; video_id?: string }, page: PageRequest) {
    const conds: SQL[] = [eq(submissions.workspaceId, workspaceId)];
    if (filter.status) conds.push(eq(submissions.status, filter.status));
    if (filter.video_id) conds.push(eq(submissions.videoId, filter.video_id));
    const where = and(...conds);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(submissions).where(where).orderBy(desc(submissions.createdAt), desc(submissions.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(submissions).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  /** Position in the shared line (1 = next) and the seconds of video ahead, for queued submissions. */
  async queueInfo(row: SubmissionRow): Promise<{ position: number; secondsAhead: number }> {
    const [r] = await this.db
      .select({
        n: count(),
        seconds: sql<string>`coalesce(sum(${submissions.timeframeEnd} - ${submissions.timeframeStart}), 0)`,
      })
      .from(submissions)
      .where(and(eq(submissions.status, 'queued'), lt(submissions.createdAt, row.createdAt)));
    return { position: Number(r.n) + 1, secondsAhead: Number(r.seconds) };
  }

  /** The spec's Submission object. */
  async view(row: SubmissionRow): Promise<SubmissionView> {
    const out: SubmissionView = {
      id: row.id,
      video_id: row.videoId,
      status: row.status as SubmissionState,
      credits_charged: row.creditsCharged,
      error_code: row.errorCode,
      clips_count: row.clipsCount,
      created_at: row.createdAt.toISOString(),
    };
    if (row.status === 'queued') {
      const q = await this.queueInfo(row);
      out.queue_position = q.position;
      out.estimated_time = estimateSeconds(q.secondsAhead + row.timeframeEnd - row.timeframeStart);
    }
    if (row.waitingReason) {
      out.waiting_reason = row.waitingReason;
      if (row.waitingUntil) out.waiting_until = row.waitingUntil.toISOString();
    }
    return out;
  }

  /**
   * DELETE while the source does not exist yet: removes the submission and refunds it. Any other state
   * is refused with 409 SUBMISSION_NOT_WAITING (the work is under way or done).
   */
  async cancelWaiting(workspaceId: string, videoId: string, id: string) {
    const row = await this.get(workspaceId, videoId, id);
    return this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(submissions).where(eq(submissions.id, row.id)).for('update');
      if (!locked || !locked.waitingReason || isFinished(locked.status)) throw new DomainError('SUBMISSION_NOT_WAITING');
      const refund = await this.credits.refund(
        { workspaceId, jobType: SUBMISSION_JOB, jobId: id, reason: 'submission removed while waiting for its source' },
        asTx(tx),
      );
      await tx.delete(submissions).where(eq(submissions.id, id));
      return { id, deleted: true, credits_refunded: refund && !refund.waived ? refund.amount : 0 };
    });
  }

  /** Ends a submission in `failed` with a code and gives its credits back (once). */
  async fail(row: Pick<SubmissionRow, 'id' | 'workspaceId'>, errorCode: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(submissions)
        .set({ status: 'failed', errorCode, waitingReason: null, waitingUntil: null, finishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(submissions.id, row.id), notInArray(submissions.status, [...FINISHED_STATES])));
      await this.credits.refund({ workspaceId: row.workspaceId, jobType: SUBMISSION_JOB, jobId: row.id, reason: `submission failed: ${errorCode}` }, asTx(tx));
    });
  }

  async clipsOf(workspaceId: string, submissionId: string, sort: 'rating' | 'start_time' | 'created_at', order: 'asc' | 'desc', page: PageRequest) {
    const where = and(eq(clips.workspaceId, workspaceId), eq(clips.submissionId, submissionId));
    const column = sort === 'rating' ? clips.rating : sort === 'start_time' ? clips.startTime : clips.createdAt;
    const dir = order === 'asc' ? asc : desc;
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(clips).where(where).orderBy(dir(column), asc(clips.position)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(clips).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  /** The spec's Clip object; `play_url` and `download_url` are signed for one hour. */
  async clipView(row: typeof clips.$inferSelect) {
    const key = row.previewKey;
    const name = `${row.title.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-').slice(0, 60) || 'clip'}.mp4`;
    return {
      id: row.id,
      title: row.title,
      rating: row.rating,
      start_time: row.startTime,
      end_time: row.endTime,
      language: row.language,
      play_url: key ? await this.storage.presignGet(key, { expiresInSeconds: 3600, contentType: 'video/mp4' }) : '',
      download_url: key ? await this.storage.presignGet(key, { expiresInSeconds: 3600, contentType: 'video/mp4', downloadFilename: name }) : '',
      has_template_applied: row.hasTemplateApplied,
      edit_id: row.editId,
    };
  }

  async unfinishedIds(): Promise<string[]> {
    const rows = await this.db
      .select({ id: submissions.id })
      .from(submissions)
      .where(notInArray(submissions.status, [...FINISHED_STATES]));
    return rows.map((r) => r.id);
  }
}
