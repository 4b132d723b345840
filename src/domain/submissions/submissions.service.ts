import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { creditsForSeconds } from '../credits/credits.rules.js';
import type { CreditsService } from '../credits/credits.service.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import type { PageRequest } from '../pagination.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { VideosService } from '../videos/videos.service.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { ClipListOrder, ClipReview, ClipRow, ClipsRepository } from '../clips/clips.records.js';
import { estimateSeconds, isFinished, resolveTimeframe, runningProgress, type SubmissionState } from './submission.rules.js';
import type { SubmissionFailure } from './submission-failure.js';
import type { SubmissionRow, SubmissionsRepository } from './submissions.records.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';
import { scoreDetails } from '../highlights/explain.js';
import { resolveSteering, type PickSteering } from '../highlights/steering.js';

export type { SubmissionRow } from './submissions.records.js';

/** `prompt`, `keywords` and `clip_length` steer the picks (steering.ts, docs/highlights.md). */
export interface SubmissionInput extends PickSteering {
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

export interface SubmissionView {
  id: string;
  video_id: string;
  status: SubmissionState;
  credits_charged: number;
  error_code: string | null;
  clips_count: number;
  queue_position?: number;
  estimated_time?: number;
  /** While running: the stage (the running status) and how far the whole submission is, 0..1 (runningProgress). */
  stage?: SubmissionState;
  progress?: number;
  waiting_reason?: string;
  waiting_until?: string;
  /** The video monitor that made it; null for POST /clips. */
  monitor_id: string | null;
  /** What the picks were asked to follow, when anything was (steering.ts). */
  prompt?: string;
  keywords?: string[];
  clip_length?: { min: number; max: number };
  created_at: string;
}

export interface SubmissionsDeps {
  repo: SubmissionsRepository;
  clips: Pick<ClipsRepository, 'listOfSubmission' | 'findInSubmission' | 'setReview'>;
  tx: TransactionRunner;
  videos: Pick<VideosService, 'get'>;
  credits: CreditsService;
  queue: JobQueue;
  checks: SubmissionChecks;
  /** Signs the clips' preview URLs. */
  storage: Pick<Storage, 'presignGet'>;
  /** How a submission fails (refund, `submission.failed`): shared with the pipeline, which announces `submission.completed`. */
  failure: Pick<SubmissionFailure, 'fail'>;
}

export class SubmissionsService {
  constructor(private readonly d: SubmissionsDeps) {}

  /**
   * POST /clips: checks everything, then creates the submission and charges it in one transaction. A video
   * monitor's upload is created the same way, with `origin.monitorId`.
   */
  async create(ctx: WorkspaceWithPlan, input: SubmissionInput, origin: { monitorId?: string } = {}): Promise<SubmissionRow> {
    const ws = ctx.workspace;
    const steering = resolveSteering(input);
    const video = await this.d.videos.get(ws.id, input.video_id);
    if (video.status !== 'ready') throw new DomainError('FILE_NOT_FOUND');
    // A source that does not exist yet (a scheduled premiere) has no length: the caller's timeframe is charged,
    // and checked against the real length once the source is downloaded.
    const unknownLength = video.source === 'link' && !(video.duration > 0);
    const tf = resolveTimeframe(unknownLength ? (input.timeframe?.end ?? 0) : video.duration, input.timeframe);
    // Every clip must fit the stretch: a minimum clip length longer than it could give no clip at all.
    if (steering.clip_length && steering.clip_length.min > tf.end - tf.start) {
      throw validationError([{ field: 'clip_length.min', rule: 'longer_than_timeframe' }]);
    }
    if (input.strategy_id) await this.d.checks.checkStrategy(ws.id, input.strategy_id);
    if (input.template_id) await this.d.checks.checkTemplate(ws.id, input.template_id);
    const language = input.source_language ?? 'auto';
    if (!this.d.checks.supportsLanguage(language)) throw validationError([{ field: 'source_language', rule: 'unsupported_by_engine' }]);

    const amount = creditsForSeconds(tf.end - tf.start, ctx.plan.discountPercent);
    const id = newId('sub');
    const row = await this.d.tx.run(async (tx) => {
      // Serialise creations for this video so two identical requests cannot both pass the check.
      await this.d.repo.lockVideo(tx, video.id);
      const prior = await this.d.repo.timeframesOfVideo(tx, video.id);
      if (prior.some((p) => !isFinished(p.status) && Math.abs(p.timeframeStart - tf.start) < 0.01 && Math.abs(p.timeframeEnd - tf.end) < 0.01)) {
        throw new DomainError('VIDEO_ALREADY_PROCESSING');
      }
      const charge = await this.d.credits.charge(
        {
          workspaceId: ws.id,
          amount,
          reason: `clipping ${Math.round(tf.end - tf.start)} s of video ${video.id}`,
          jobType: CHARGE_TYPE.submission,
          jobId: id,
          insufficientExtra: { is_reclip: prior.length > 0, scope: 'workspace', is_owner: true },
        },
        tx,
      );
      return this.d.repo.insert(tx, {
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
        monitorId: origin.monitorId ?? null,
        steering: Object.keys(steering).length > 0 ? steering : null,
      });
    });
    await enqueueAfterCommit(this.d.queue, { name: 'submission.process', payload: { submissionId: id } }, (code) => this.fail(row, code));
    return row;
  }

  /** 404 SUBMISSION_NOT_FOUND outside the workspace or for another video; 410 SUBMISSION_EXPIRED once retention purged it. */
  async get(workspaceId: string, videoId: string, id: string): Promise<SubmissionRow> {
    const row = await this.d.repo.findInWorkspace(workspaceId, videoId, id);
    if (!row) throw new DomainError('SUBMISSION_NOT_FOUND');
    if (row.expiredAt) throw new DomainError('SUBMISSION_EXPIRED', { expired_at: row.expiredAt.toISOString() });
    return row;
  }

  list(
    workspaceId: string,
    filter: { status?: string; video_id?: string; monitor_id?: string },
    page: PageRequest,
  ): Promise<{ rows: SubmissionRow[]; total: number }> {
    return this.d.repo.list(workspaceId, { status: filter.status, videoId: filter.video_id, monitorId: filter.monitor_id }, page);
  }

  /** Position in the shared line (1 = next) and the seconds of video ahead, for queued submissions. */
  async queueInfo(row: SubmissionRow): Promise<{ position: number; secondsAhead: number }> {
    const ahead = await this.d.repo.queuedBefore(row.createdAt);
    return { position: ahead.count + 1, secondsAhead: ahead.seconds };
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
      monitor_id: row.monitorId ?? null,
      created_at: row.createdAt.toISOString(),
    };
    if (row.status === 'queued') {
      const q = await this.queueInfo(row);
      out.queue_position = q.position;
      out.estimated_time = estimateSeconds(q.secondsAhead + row.timeframeEnd - row.timeframeStart);
    }
    const now = Date.now();
    const running = row.startedAt
      ? runningProgress(row.status as SubmissionState, row.timeframeEnd - row.timeframeStart, {
          sinceStart: (now - row.startedAt.getTime()) / 1000,
          sinceStage: (now - row.updatedAt.getTime()) / 1000,
          stageFraction: row.stageProgress,
        })
      : undefined;
    if (running && !row.waitingReason) {
      out.stage = row.status as SubmissionState;
      out.progress = running.progress;
      out.estimated_time = running.estimated_time;
    }
    if (row.waitingReason) {
      out.waiting_reason = row.waitingReason;
      if (row.waitingUntil) out.waiting_until = row.waitingUntil.toISOString();
    }
    if (row.steering?.prompt) out.prompt = row.steering.prompt;
    if (row.steering?.keywords?.length) out.keywords = row.steering.keywords;
    if (row.steering?.clip_length) out.clip_length = row.steering.clip_length;
    return out;
  }

  /**
   * DELETE while the source does not exist yet: removes the submission and refunds it. Any other state
   * is refused with 409 SUBMISSION_NOT_WAITING (the work is under way or done).
   */
  async cancelWaiting(workspaceId: string, videoId: string, id: string) {
    const row = await this.get(workspaceId, videoId, id);
    return this.d.tx.run(async (tx) => {
      const locked = await this.d.repo.lock(tx, row.id);
      if (!locked || !locked.waitingReason || isFinished(locked.status)) throw new DomainError('SUBMISSION_NOT_WAITING');
      const refund = await this.d.credits.refund(
        { workspaceId, jobType: CHARGE_TYPE.submission, jobId: id, reason: 'submission removed while waiting for its source' },
        tx,
      );
      await this.d.repo.delete(tx, id);
      return { id, deleted: true, credits_refunded: refund && !refund.waived ? refund.amount : 0 };
    });
  }

  /** Ends a submission in `failed` with a code and gives its credits back (once): the failure outcome (submission-failure.ts). */
  fail(row: Pick<SubmissionRow, 'id' | 'workspaceId'>, errorCode: string): Promise<void> {
    return this.d.failure.fail(row, errorCode);
  }

  clipsOf(
    workspaceId: string,
    submissionId: string,
    sort: ClipListOrder['sort'],
    order: ClipListOrder['order'],
    page: PageRequest,
    review?: ClipListOrder['review'],
  ): Promise<{ rows: ClipRow[]; total: number }> {
    return this.d.clips.listOfSubmission(workspaceId, submissionId, { sort, order, review }, page);
  }

  /**
   * PATCH …/clips/{clipId}: sets the clip's review (`kept`, `skipped`, or null) and answers the Clip.
   * 404 SUBMISSION_NOT_FOUND / CLIP_NOT_FOUND outside the workspace.
   */
  async setClipReview(workspaceId: string, videoId: string, submissionId: string, clipId: string, review: ClipReview | null) {
    const sub = await this.get(workspaceId, videoId, submissionId);
    const clip = await this.d.clips.findInSubmission(workspaceId, sub.id, clipId);
    if (!clip) throw new DomainError('CLIP_NOT_FOUND');
    await this.d.clips.setReview(clip.id, review);
    return this.clipView({ ...clip, review });
  }

  /** The spec's Clip object; `play_url` and `download_url` are signed for one hour. */
  async clipView(row: ClipRow) {
    const key = row.previewKey;
    const name = `${
      row.title
        .replace(/[^A-Za-z0-9 _-]+/g, '')
        .trim()
        .replace(/\s+/g, '-')
        .slice(0, 60) || 'clip'
    }.mp4`;
    return {
      id: row.id,
      title: row.title,
      rating: row.rating,
      // Clips made before sub-scores were kept get them from their stored signals.
      score_details: row.scoreDetails ?? (row.signals ? scoreDetails(row.signals) : null),
      reason: row.reason ?? '',
      matched: row.matched ?? [],
      start_time: row.startTime,
      end_time: row.endTime,
      language: row.language,
      play_url: key ? await this.d.storage.presignGet(key, { expiresInSeconds: 3600, contentType: 'video/mp4' }) : '',
      download_url: key ? await this.d.storage.presignGet(key, { expiresInSeconds: 3600, contentType: 'video/mp4', downloadFilename: name }) : '',
      has_template_applied: row.hasTemplateApplied,
      edit_id: row.editId,
      review: row.review,
    };
  }
}
