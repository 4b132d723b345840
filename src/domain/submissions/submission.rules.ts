import { DomainError } from '../errors.js';
import { MIN_VIDEO_SECONDS } from '../videos/upload.rules.js';

/** Spec: Submission states, in processing order. */
export const SUBMISSION_STATES = ['queued', 'downloading', 'transcribing', 'video_analysis', 'analyzing', 'finalizing', 'completed', 'failed'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];
export const FINISHED_STATES: readonly SubmissionState[] = ['completed', 'failed'];
export const SOURCE_LANGUAGES = ['auto', 'en', 'pt'] as const;

export function isFinished(status: string): boolean {
  return (FINISHED_STATES as readonly string[]).includes(status);
}

/** The next state after a stage finished (spec: transitions "in order"). */
export function nextState(status: SubmissionState): SubmissionState {
  const i = SUBMISSION_STATES.indexOf(status);
  if (i < 0 || i >= SUBMISSION_STATES.indexOf('completed')) throw new Error(`no next state after ${status}`);
  return SUBMISSION_STATES[i + 1];
}

/** Tolerance for a timeframe end a little past the probed duration (container rounding). */
const END_SLACK = 0.5;

/**
 * The processed stretch: the whole video when omitted. Outside the video, end ≤ start, or shorter than
 * the 1-minute minimum → 400 TIMEFRAME_OUT_OF_BOUNDS with the video's duration.
 */
export function resolveTimeframe(duration: number, tf?: { start?: number; end?: number }): { start: number; end: number } {
  const start = tf?.start ?? 0;
  const end = Math.min(tf?.end ?? duration, duration);
  const refuse = () => new DomainError('TIMEFRAME_OUT_OF_BOUNDS', { duration, min_length: MIN_VIDEO_SECONDS });
  if (start < 0 || (tf?.end !== undefined && tf.end > duration + END_SLACK)) throw refuse();
  if (!(end > start) || end - start < MIN_VIDEO_SECONDS) throw refuse();
  return { start, end };
}

/**
 * The stretch every stage of a submission works on (transcription, video analysis, highlight picking):
 * the paid timeframe, cut at the duration measured on the stored file, so that neither a timeframe nor
 * the file can make a job process more than was measured and charged. A timeframe starting at or after
 * the measured end → TIMEFRAME_OUT_OF_BOUNDS (the submission fails and is refunded).
 */
export function analysedRange(timeframe: { start: number; end: number }, measuredSeconds: number): { start: number; end: number } {
  const start = Math.max(0, timeframe.start);
  const end = Math.min(timeframe.end, measuredSeconds);
  if (!(measuredSeconds > 0) || !(end > start)) throw new DomainError('TIMEFRAME_OUT_OF_BOUNDS', { duration: measuredSeconds, min_length: MIN_VIDEO_SECONDS });
  return { start, end };
}

/** Seconds of processing per second of video, used for `estimated_time` (measured by `npm run bench`). */
export const PROCESSING_SECONDS_PER_VIDEO_SECOND = 0.6;

export function estimateSeconds(videoSecondsAheadAndOwn: number): number {
  return Math.max(1, Math.round(videoSecondsAheadAndOwn * PROCESSING_SECONDS_PER_VIDEO_SECOND));
}

/**
 * Share of a submission's processing each running stage takes, in order (`npm run bench -- pipeline`
 * on a 10-minute talk: transcription about half, analysis a sixth, rendering the clips' previews a
 * third; a link's download varies).
 */
export const STAGE_SHARE: Readonly<Record<'downloading' | 'transcribing' | 'video_analysis' | 'analyzing' | 'finalizing', number>> = {
  downloading: 0.05,
  transcribing: 0.45,
  video_analysis: 0.17,
  analyzing: 0.01,
  finalizing: 0.32,
};

/**
 * Seconds left of a running submission (`estimated_time` while it runs; pure): the whole estimate
 * (`estimateSeconds` of the stretch) less the time since it started, kept between what the stages
 * after the current one take and what the current one and those after take, so it falls while a
 * stage runs and never says done before the last stage is. Undefined for a state that is not running.
 */
export function remainingSeconds(state: SubmissionState, stretchSeconds: number, elapsedSeconds: number): number | undefined {
  if (!(state in STAGE_SHARE)) return undefined;
  const order = Object.keys(STAGE_SHARE) as Array<keyof typeof STAGE_SHARE>;
  const i = order.indexOf(state as keyof typeof STAGE_SHARE);
  const after = order.slice(i + 1).reduce((sum, k) => sum + STAGE_SHARE[k], 0);
  const total = estimateSeconds(stretchSeconds);
  const byClock = total - Math.max(0, elapsedSeconds);
  return Math.max(1, Math.round(Math.min(total * (after + STAGE_SHARE[order[i]]), Math.max(total * after, byClock))));
}

/** The stages that report how far they are (`stageFraction`); the others move by the clock. */
const REPORTING_STAGES: ReadonlySet<string> = new Set(['video_analysis', 'finalizing']);

/**
 * How far a running submission is (pure): `progress` 0..1 is the shares of the stages done plus the
 * current stage's share times how far it is — as the stage reported it (`stageFraction`: video
 * analysis and finalizing do; 0 until their first report), else by the clock against the stage's
 * expected seconds, never past 90 % of the stage. `estimated_time` is what is left of the estimate: the current stage's part not
 * done plus the stages after it, or `remainingSeconds` when the stage reports nothing. Undefined for a
 * state that is not running.
 */
export function runningProgress(
  state: SubmissionState,
  stretchSeconds: number,
  timing: { sinceStart: number; sinceStage: number; stageFraction: number | null },
): { progress: number; estimated_time: number } | undefined {
  if (!(state in STAGE_SHARE)) return undefined;
  const order = Object.keys(STAGE_SHARE) as Array<keyof typeof STAGE_SHARE>;
  const i = order.indexOf(state as keyof typeof STAGE_SHARE);
  const before = order.slice(0, i).reduce((sum, k) => sum + STAGE_SHARE[k], 0);
  const after = order.slice(i + 1).reduce((sum, k) => sum + STAGE_SHARE[k], 0);
  const share = STAGE_SHARE[order[i]];
  const total = estimateSeconds(stretchSeconds);
  const reported = timing.stageFraction !== null && Number.isFinite(timing.stageFraction);
  // A stage that reports its own fraction is not guessed by the clock before its first report: the
  // guess could run ahead of the report, and progress would then go back when it comes.
  const byClock = REPORTING_STAGES.has(order[i]) ? 0 : Math.min(0.9, Math.max(0, timing.sinceStage) / Math.max(1, total * share));
  const f = reported ? Math.min(1, Math.max(0, timing.stageFraction!)) : byClock;
  const progress = Math.min(0.99, Math.round((before + share * f) * 100) / 100);
  const left = reported ? Math.max(1, Math.round(total * (after + share * (1 - f)))) : remainingSeconds(state, stretchSeconds, timing.sinceStart)!;
  return { progress, estimated_time: left };
}

/** Backoff for re-checking a source that does not fully exist yet: the source's hint, within 30 s … 1 h. */
export function waitingRetrySeconds(hint: number | undefined, attempt: number): number {
  const backoff = Math.min(3600, 30 * 2 ** Math.min(attempt, 7));
  const chosen = hint !== undefined && hint > 0 ? hint : backoff;
  return Math.min(3600, Math.max(1, Math.round(chosen)));
}

/** The storage key of a linked video's downloaded source (written by the downloading stage, deleted by retention). */
export function linkSourceKey(workspaceId: string, videoId: string): string {
  return `videos/${workspaceId}/${videoId}/source.mp4`;
}
