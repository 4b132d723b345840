import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';
import type { SubmissionState } from './submission.rules.js';
import type { PickSteering } from '../highlights/steering.js';

/** A submission (table `submissions`): a paid stretch of a video going through its stages. */
export interface SubmissionRow {
  id: string;
  workspaceId: string;
  videoId: string;
  /** A SubmissionState. */
  status: string;
  timeframeStart: number;
  timeframeEnd: number;
  strategyId: string | null;
  templateId: string | null;
  sourceLanguage: string;
  language: string | null;
  creditsCharged: number;
  errorCode: string | null;
  clipsCount: number;
  waitingReason: string | null;
  waitingUntil: Date | null;
  /** Storage key of the downloaded source (links) or the upload itself. */
  sourceKey: string | null;
  /** Stage results kept so a restarted job resumes where it stopped. */
  transcript: unknown;
  analysis: unknown;
  attempts: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** When the retention sweep purged the source, previews and stage results: the API answers 410 SUBMISSION_EXPIRED. */
  expiredAt: Date | null;
  /** The monitor that made it (a video monitor's upload, or a live monitor's batch); null for POST /clips. */
  monitorId: string | null;
  /** A live monitor's batch (docs/monitors.md): internal, not listed by GET /clips. */
  liveBatch: boolean;
  /** What the caller asked the picks to follow (prompt, keywords, clip length); null: the strategy alone. */
  steering: PickSteering | null;
  createdAt: Date;
  /** When the current stage began (every stage change sets it). */
  updatedAt: Date;
  /** How far the current stage is, 0..1, where the stage reports it; null otherwise. */
  stageProgress: number | null;
}

export type NewSubmission = Pick<
  SubmissionRow,
  'id' | 'workspaceId' | 'videoId' | 'status' | 'timeframeStart' | 'timeframeEnd' | 'strategyId' | 'templateId' | 'sourceLanguage' | 'creditsCharged'
> &
  Partial<Pick<SubmissionRow, 'monitorId' | 'liveBatch' | 'steering'>>;

/** What a stage records when it moves a submission on. */
export type StageChanges = Partial<
  Pick<SubmissionRow, 'startedAt' | 'sourceKey' | 'waitingReason' | 'waitingUntil' | 'transcript' | 'language' | 'analysis' | 'clipsCount' | 'finishedAt'>
>;

/** A finished submission past its plan's retention, for the sweep. */
export type ExpiringSubmission = Pick<SubmissionRow, 'id' | 'workspaceId' | 'videoId' | 'sourceKey'>;

/** A source that is not there yet: why, until when, and how many times it was looked at. */
export type SourceWait = Pick<SubmissionRow, 'waitingReason' | 'waitingUntil' | 'attempts'>;

/** The submissions aggregate's storage (src/adapters/db/repositories/submissions.repository.ts). */
export interface SubmissionsRepository {
  /** Locks the video's row until `tx` ends: a video's submissions are created one at a time. */
  lockVideo(tx: Tx, videoId: string): Promise<void>;
  /** Status and timeframe of every submission of the video. */
  timeframesOfVideo(tx: Tx, videoId: string): Promise<Array<Pick<SubmissionRow, 'status' | 'timeframeStart' | 'timeframeEnd'>>>;
  insert(tx: Tx, submission: NewSubmission): Promise<SubmissionRow>;
  get(id: string): Promise<SubmissionRow | undefined>;
  /** The submission when it belongs to the workspace and the video. */
  findInWorkspace(workspaceId: string, videoId: string, id: string): Promise<SubmissionRow | undefined>;
  /** The workspace's submissions, newest first (a live monitor's batches left out). */
  list(
    workspaceId: string,
    filter: { status?: string; videoId?: string; monitorId?: string },
    page: PageRequest,
  ): Promise<{ rows: SubmissionRow[]; total: number }>;
  /** How many submissions are queued that were created before `createdAt`, and the seconds of video they hold. */
  queuedBefore(createdAt: Date): Promise<{ count: number; seconds: number }>;
  /** The submission, locked until `tx` ends. */
  lock(tx: Tx, id: string): Promise<SubmissionRow | undefined>;
  delete(tx: Tx, id: string): Promise<void>;
  /** Marks the submission failed with `errorCode` (no longer waiting) unless it is finished already; answers its video when it did. */
  failIfUnfinished(tx: Tx, id: string, errorCode: string, at: Date): Promise<{ videoId: string; liveBatch: boolean } | undefined>;
  /** `from` → `to` with the stage's changes (in `tx` when given); undefined when the submission was no longer in `from`. */
  transition(id: string, from: SubmissionState, to: SubmissionState, changes: StageChanges, at: Date, tx?: Tx): Promise<SubmissionRow | undefined>;
  /** Records how far the stage `status` is (0..1); nothing when the submission left that stage. Leaves `updatedAt` as it is. */
  setStageProgress(id: string, status: SubmissionState, fraction: number): Promise<void>;
  /** Records the wait of a submission still downloading (nothing when it left that state). */
  setWaiting(id: string, wait: SourceWait, at: Date): Promise<void>;
  /**
   * Up to `limit` finished (completed or failed) submissions not yet expired whose plan's
   * `submissionRetentionHours` have passed since they finished, oldest first.
   */
  dueForExpiry(now: Date, limit: number): Promise<ExpiringSubmission[]>;
  /** How many other submissions of the video are not expired (they still need its source). */
  countUnexpiredOfVideo(tx: Tx, videoId: string, exceptId: string): Promise<number>;
  /** Marks the submission expired and drops its stage results (transcript, analysis); false when it already was. */
  markExpired(id: string, at: Date): Promise<boolean>;
}
