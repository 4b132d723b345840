import { CutroomError } from '@cutroom/sdk/browser';

type Extra = Record<string, unknown>;
const num = (x: unknown) => (typeof x === 'number' ? x : undefined);

function seconds(s: number | undefined): string {
  if (s === undefined) return '';
  const m = Math.floor(s / 60);
  const r = Math.round(s % 60);
  return m > 0 ? `${m} min ${r} s` : `${r} s`;
}

function bytes(n: number | undefined): string {
  if (n === undefined) return 'the limit';
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

/** What the service's error codes mean, in words a person can act on. */
const WORDS: Record<string, (x: Extra) => string> = {
  UNAUTHORIZED: () => 'This API key was not accepted: it is wrong, revoked or expired.',
  MISSING_WORKSPACE_ID: () => 'This key opens several workspaces: choose one.',
  INSUFFICIENT_CREDITS: (x) =>
    `Not enough credits: this needs ${num(x.credits_needed) ?? 'more'} and the balance is ${num(x.current_balance) ?? 'lower'}. Top up, or clip a shorter stretch.`,
  VIDEO_TOO_SHORT: (x) => `The video is too short to clip${num(x.duration) !== undefined ? ` (${seconds(num(x.duration))})` : ''}: it needs at least 1 minute.`,
  VIDEO_TOO_LONG: (x) => `The video is too long for your plan${num(x.max_duration) !== undefined ? `: at most ${seconds(num(x.max_duration))}` : ''}.`,
  INVALID_DURATION: () => 'The video is under 1 minute or longer than your plan allows.',
  INVALID_URL: () => 'This link is not a video the service can read: the site is not supported or the address is wrong.',
  PLATFORM_UNAVAILABLE: () => 'That video site cannot be reached right now. Try again later.',
  PRIVATE_VIDEO: () => 'That video is private.',
  AGE_RESTRICTED: () => 'That video is age-restricted, so it cannot be fetched.',
  REGION_BLOCKED: () => 'That video is blocked in the service’s region.',
  LIVE_STREAM: () => 'That video is still live: clip it once the broadcast has ended.',
  PLAYLIST_URL: () => 'That is a playlist: give the link of one video.',
  CHANNEL_URL: () => 'That is a channel: give the link of one video.',
  SHORTS_NOT_SUPPORTED: () => 'That is already a vertical short.',
  AUDIO_ONLY: () => 'That file has no picture, only sound.',
  FILE_TOO_LARGE: (x) => `The file is too large: the most your plan takes is ${bytes(num(x.max_size))}.`,
  TIMEFRAME_OUT_OF_BOUNDS: () => 'The timeframe is outside the video: check From and To.',
  VIDEO_NOT_FOUND: () => 'That video is not in this workspace.',
  FILE_NOT_FOUND: () => 'The uploaded file did not arrive: upload it again.',
  SUBMISSION_NOT_FOUND: () => 'There is no such submission in this workspace.',
  CLIP_NOT_FOUND: () => 'There is no such clip in this workspace.',
  EDITS_NOT_FOUND: () => 'That edit is not in this workspace.',
  TEMPLATE_NOT_FOUND: () => 'That template cannot be used in this workspace.',
  STRATEGY_NOT_FOUND: () => 'That clipping strategy cannot be used in this workspace.',
  RENDER_NOT_FOUND: () => 'There is no such render in this workspace.',
  RENDER_NOT_READY: () => 'The file is not ready yet.',
  RENDER_FAILED: () => 'The render failed. Try again; if it fails again, the source may be unreadable.',
  RENDER_FILE_EXPIRED: () => 'The rendered file has expired: render it again.',
  SUBMISSION_FAILED: () => 'Clipping failed.',
  SUBMISSION_EXPIRED: () => 'This submission has expired and its clips were removed.',
  VIDEO_ALREADY_PROCESSING: () => 'This video is already being clipped: wait for it to finish.',
  UPLOAD_ALREADY_COMPLETED: () => 'This upload was already completed.',
  RATE_LIMIT_EXCEEDED: () => 'Too many requests at once: wait a few seconds and try again (renders run a few at a time per plan).',
  REQUEST_IN_PROGRESS: () => 'The same request is still running: wait a moment.',
  INTERNAL_ERROR: () => 'The service failed on its side. Try again in a moment.',
  SERVICE_UNAVAILABLE: () => 'The service is not ready. Try again in a moment.',
  WAIT_TIMEOUT: () => 'This is taking longer than expected.',
  // Failure codes a submission or render records.
  SOURCE_NOT_FOUND: () => 'The source video is gone.',
  SOURCE_UNREADABLE: () => 'The source video could not be read.',
  NO_SPEECH: () => 'Nobody speaks in this video, so there is nothing to clip.',
  JOB_LOST: () => 'The work was lost when the service restarted; credits were refunded.',
};

/** A validation refusal: which fields, in words. */
function validation(x: Extra): string {
  const errors = Array.isArray(x.errors) ? (x.errors as Array<{ field?: string; rule?: string }>) : [];
  if (errors.length === 0) return 'The service refused these values.';
  const unknown = errors.filter((e) => e.rule === 'additionalProperties').map((e) => e.field);
  if (unknown.length > 0 && unknown.length === errors.length)
    return `The service does not take ${unknown.map((f) => `“${f}”`).join(', ')} (not supported yet).`;
  return `The service refused ${errors.map((e) => `“${e.field}” (${e.rule})`).join(', ')}.`;
}

/** A code in words (the code itself stays beside them, for a bug report). */
export function codeInWords(code: string, extra: Extra = {}): string {
  if (code === 'VALIDATION_ERROR') return validation(extra);
  const words = WORDS[code]?.(extra);
  return words ?? `The service refused this (${code}).`;
}

/** Any error the Studio meets, as one sentence. */
export function describe(err: unknown): string {
  if (err instanceof CutroomError) {
    const words = codeInWords(err.code, err.extra ?? {});
    return words.includes(err.code) ? words : `${words} (${err.code})`;
  }
  if (err instanceof DOMException && err.name === 'AbortError') return 'Stopped.';
  if (err instanceof TypeError) return 'The service could not be reached: check the connection and try again.';
  return err instanceof Error ? err.message : String(err);
}
