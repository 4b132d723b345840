/**
 * The one table of error reasons: every code the API can answer (and the codes a job records, and the
 * SDK's own) → one plain sentence that uses the error's `extra` (the allowed values of a field, the
 * minimum duration, the rule that refused a link, the plan's limit, the seconds to wait). The API's
 * body stays `{ code, extra }` with no message (spec: Errors); clients show this sentence beside the
 * code. The user CLI and the Studio use it; a test fails when the API documents a code missing here.
 */

type Extra = Record<string, unknown>;

const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const str = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);

/** 75 → "1 min 15 s", 42.4 → "42 s", 3600 → "1 h". */
export function formatSeconds(s: number): string {
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const r = t % 60;
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', r || t === 0 ? `${r} s` : ''].filter(Boolean);
  return parts.join(' ');
}

/** 1536 → "1.5 KB". */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

/** ["a", "b", null] → "a, b or null". */
function oneOf(values: readonly unknown[]): string {
  const words = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

const PRIVATE_SOURCES_SETTING = 'CUTROOM_ALLOW_PRIVATE_SOURCES=true';
const PRIVATE_WEBHOOKS_SETTING = 'CUTROOM_WEBHOOKS_ALLOW_PRIVATE=true';

/** Why a link was refused: INVALID_URL's `extra.reason` (docs/api-decisions.md, "Error extras"). */
const URL_REASONS: Record<string, (x: Extra) => string> = {
  malformed: () => 'This is not a web address the service can read: give a full http(s) link.',
  scheme: () => 'Only http and https links are taken.',
  credentials: () => 'Links with a user name or password in them are refused.',
  unsupported_link: () => 'This page of the site is not one video (or, for a monitor, not one channel): give the link of the video itself.',
  unsupported_host: () =>
    'The service does not know this site, and the link is not a media file (.mp4 .mov .webm .mkv .m3u8 …): give a link to a supported platform or to the file itself.',
  private_address: () =>
    `Links to private or loopback addresses (localhost, 127.0.0.1, 10.x, 192.168.x …) are refused; the service’s operator can allow them with ${PRIVATE_SOURCES_SETTING}.`,
  metadata_address: () => 'Links to a cloud metadata address are always refused.',
  unresolvable: () => 'The link’s host name does not exist (it could not be resolved): check the address.',
  unreachable: () => 'The link’s server did not answer: check the address, or try again later.',
  too_many_redirects: () => 'The link redirects too many times.',
  http_status: (x) =>
    `The link answered with an error${num(x.status) !== undefined ? ` (HTTP ${num(x.status)})` : ''}: check that the file is still there and public.`,
  not_media: () => 'The link does not lead to a video the service can read (it is a web page, an unknown format or a broken playlist).',
  no_video: () => 'The site says there is no video at this link (removed, or a wrong id).',
};

/** One failed field of a VALIDATION_ERROR in words. */
function fieldFailure(e: { field?: unknown; rule?: unknown; allowed?: unknown }): string {
  const field = `“${typeof e.field === 'string' ? e.field : '?'}”`;
  const rule = typeof e.rule === 'string' ? e.rule : '';
  const allowed = Array.isArray(e.allowed) && e.allowed.length > 0 ? e.allowed : undefined;
  if (allowed) {
    if (rule === 'extension') return `${field} must end in ${oneOf(allowed)}`;
    if (rule === 'media_type') return `${field} must be ${oneOf(allowed)} for this file`;
    return `${field} must be one of ${oneOf(allowed)}`;
  }
  switch (rule) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      return `${field} is not a field the service takes`;
    case 'type':
      return `${field} has the wrong type`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${field} is too small`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${field} is too large`;
    case 'minLength':
      return `${field} is too short`;
    case 'maxLength':
      return `${field} is too long`;
    case 'minItems':
    case 'min_items':
      return `${field} has too few items`;
    case 'maxItems':
    case 'max_items':
      return `${field} has too many items`;
    case 'pattern':
    case 'format':
      return `${field} is not in the expected form`;
    case 'json':
      return 'the body is not valid JSON';
    case 'media_type':
      return `${field}: this content type is not accepted`;
    case 'nul':
      return `${field} contains a NUL character`;
    case 'utf8':
      return `${field} is not valid UTF-8 text`;
    case 'undecodable':
      return 'the file could not be read as audio or video';
    case 'unsupported_container':
      return 'the file is not an MP4/MOV or Matroska/WebM video';
    case 'no_video_stream':
      return 'the file has no picture, only sound';
    case 'unknown':
      return `${field} is not an option of this model`;
    case 'not_accepted':
      return `${field} is not taken here`;
    case 'unique':
      return `${field} lists the same item twice`;
    case 'future':
      return `${field} must be in the future`;
    case 'reused_with_different_request':
      return 'this Idempotency-Key was already used for a different request';
    default:
      // The service's own rules are often words already ("range 16..240", "one of 9:16, 1:1, 16:9").
      return rule.includes(' ') ? `${field}: ${rule}` : `${field} breaks the rule “${rule}”`;
  }
}

function validation(x: Extra): string {
  const errors = Array.isArray(x.errors) ? (x.errors as Array<Record<string, unknown>>) : [];
  if (errors.length === 0) return 'The service refused the values sent.';
  const parts = errors.map(fieldFailure);
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** A job that ended badly, with its recorded `error_code` in words when there is one. */
function jobFailed(what: string, refund = true) {
  return (x: Extra) => {
    // The recorded code in words when the table has it (an engine's own code is shown beside the sentence).
    const code = str(x.error_code);
    const why = code && Object.hasOwn(ERROR_REASONS, code) ? ` ${errorReason(code)}` : '';
    return `${what} failed.${why}${refund ? ' Any credits charged were refunded.' : ''}`;
  };
}

const duration = (x: Extra) => (num(x.duration) !== undefined ? ` (${formatSeconds(num(x.duration)!)})` : '');

/** Every code → its sentence. Exported for the tests that compare it with the API's own list. */
export const ERROR_REASONS: Readonly<Record<string, (extra: Extra) => string>> = {
  // 400
  VALIDATION_ERROR: validation,
  TIMEFRAME_OUT_OF_BOUNDS: (x) =>
    `The timeframe must lie inside the video${num(x.duration) !== undefined ? ` (0 to ${formatSeconds(num(x.duration)!)})` : ''} and be at least ${formatSeconds(num(x.min_length) ?? 60)} long.`,
  INVALID_METADATA: (x) => `The publishing details are not accepted${str(x.field) ? `: check “${str(x.field)}”` : ''}.`,
  INVALID_CONNECTIONS: (x) =>
    `Some accounts cannot publish (unknown, revoked, or unable to post video)${Array.isArray(x.invalid_connections) ? `: ${x.invalid_connections.join(', ')}` : ''}.`,
  PLATFORM_UNAVAILABLE: () => 'That video site cannot be used right now (not configured on this service, or not answering): try again later.',
  MISSING_WORKSPACE_ID: (x) =>
    `This key opens several workspaces: choose one with the X-Workspace-Id header${Array.isArray(x.workspace_ids) ? ` (${x.workspace_ids.join(', ')})` : ''}.`,
  VIDEO_TOO_SHORT: (x) => `The video is too short${duration(x)}: the service needs at least ${formatSeconds(num(x.min_duration) ?? 60)} of video.`,
  VIDEO_TOO_LONG: (x) =>
    `The video is too long${duration(x)}: ${num(x.max_duration) !== undefined ? `the most allowed here is ${formatSeconds(num(x.max_duration)!)}` : 'it is over the plan’s maximum'}.`,
  UNSUPPORTED_IMAGE: (x) =>
    x.reason === 'too_many_pixels'
      ? `The image is too large${num(x.max_pixels) !== undefined ? `: at most ${Math.round(num(x.max_pixels)! / 1e6)} megapixels` : ''}.`
      : x.reason === 'undecodable'
        ? 'The image could not be decoded.'
        : 'The file is not a PNG, JPEG or WebP image.',
  REPLACE_MODE_UNAVAILABLE: (x) =>
    `This swap engine cannot replace “${str(x.replace) ?? '?'}”${Array.isArray(x.available) ? `: choose ${oneOf(x.available)}` : ''}.`,
  NOTE_NOT_UNDERSTOOD: (x) =>
    `The note names none of the traits this engine reads${Array.isArray(x.traits) ? ` (${x.traits.join(', ')})` : ''}; nothing was charged.`,
  // 401, 402
  UNAUTHORIZED: () => 'The API key was not accepted: it is missing, wrong, revoked or expired.',
  INSUFFICIENT_CREDITS: (x) =>
    `Not enough credits: this needs ${num(x.credits_needed) ?? 'more'} and the balance is ${num(x.current_balance) ?? 'lower'}. Top up, or ask for less (a shorter stretch, file or video).`,
  // 403
  PRIVATE_VIDEO: () => 'That video is private or needs a login, so the service cannot fetch it.',
  AGE_RESTRICTED: () => 'That video is age-restricted, so the service cannot fetch it.',
  REGION_BLOCKED: () => 'That video is blocked in the service’s region.',
  DAILY_LIMIT_EXCEEDED: (x) =>
    `The account’s daily publishing limit is reached${num(x.daily_limit) !== undefined ? ` (${num(x.used_today) ?? '?'} of ${num(x.daily_limit)} used today)` : ''}: try again tomorrow.`,
  SIGNATURE_INVALID: () => 'This file address is not valid (its signature does not match): ask the service for a new one.',
  SIGNATURE_EXPIRED: () => 'This file address has expired: ask the service for a new one.',
  // 404
  VIDEO_NOT_FOUND: () => 'There is no such video in this workspace.',
  RENDER_NOT_FOUND: () => 'There is no such render in this workspace.',
  FILE_NOT_FOUND: () => 'The file is not in storage (the upload did not arrive, or it was removed): upload it again.',
  EDITS_NOT_FOUND: (x) => `No such edit in this workspace${Array.isArray(x.invalid_edits) ? `: ${x.invalid_edits.join(', ')}` : ''}.`,
  ROUTE_NOT_FOUND: () => 'The service has no such address: check the URL (it ends in /api/v1) and the method.',
  WORKSPACE_NOT_FOUND: () => 'There is no such workspace.',
  PLAN_NOT_FOUND: () => 'There is no such plan.',
  KEY_NOT_FOUND: () => 'There is no such API key.',
  SUBMISSION_NOT_FOUND: () => 'There is no such submission in this workspace.',
  TEMPLATE_NOT_FOUND: () => 'That template cannot be used in this workspace (unknown, or another workspace’s).',
  STRATEGY_NOT_FOUND: () => 'That clipping strategy cannot be used in this workspace (unknown, or another workspace’s).',
  CLIP_NOT_FOUND: () => 'There is no such clip in that submission.',
  POST_NOT_FOUND: () => 'There is no such post in this workspace.',
  POST_ITEM_NOT_FOUND: () => 'There is no such item in that post.',
  CONNECTION_NOT_FOUND: () => 'There is no such publishing account in this workspace.',
  MEDIA_NOT_FOUND: () => 'There is no such uploaded file in this workspace.',
  TRANSCRIPTION_NOT_FOUND: () => 'There is no such transcription in this workspace.',
  MODEL_NOT_FOUND: () => 'There is no such generation model (unknown or disabled).',
  IMAGE_NOT_FOUND: (x) => `Some images are not in this workspace${Array.isArray(x.image_ids) ? `: ${x.image_ids.join(', ')}` : ''}.`,
  GENERATION_NOT_FOUND: () => 'There is no such generation in this workspace.',
  WEBHOOK_NOT_FOUND: () => 'There is no such webhook in this workspace.',
  MONITOR_NOT_FOUND: () => 'There is no such monitor in this workspace.',
  BROADCAST_NOT_FOUND: () => 'There is no such broadcast of that monitor.',
  PERSONA_NOT_FOUND: () => 'There is no such persona in this workspace.',
  VERSION_NOT_FOUND: () => 'That persona has no such version.',
  PERSONA_VIDEO_NOT_FOUND: () => 'That persona has no such video.',
  PRESET_NOT_FOUND: () => 'There is no such persona preset.',
  FACE_NOT_FOUND: (x) => `Some face photos are not in this workspace${Array.isArray(x.invalid_face_ids) ? `: ${x.invalid_face_ids.join(', ')}` : ''}.`,
  // 409
  VIDEO_ALREADY_PROCESSING: () => 'This video is already being clipped: wait for that to finish.',
  DUPLICATE_POST: () => 'This clip is already on its way to that account.',
  TRANSCRIPTION_NOT_READY: () => 'The transcription is not finished yet: wait, then ask again.',
  PRICE_CHANGED: (x) =>
    `The price has changed${num(x.credits) !== undefined ? `: it is now ${num(x.credits)} credit${num(x.credits) === 1 ? '' : 's'}` : ''}. Nothing was charged; confirm the new price.`,
  PLAN_ALREADY_EXISTS: () => 'A plan with that name exists already.',
  REQUEST_IN_PROGRESS: () => 'The same request (same Idempotency-Key) is still running: wait a moment and try again.',
  SUBMISSION_NOT_WAITING: () => 'Only a submission waiting for its source can be cancelled; this one is under way or finished.',
  SUBMISSION_NOT_COMPLETED: (x) => `The submission is not finished yet${str(x.status) ? ` (${str(x.status)})` : ''}: wait for it to complete.`,
  RENDER_NOT_READY: (x) => `The render is not ready yet${num(x.progress) !== undefined ? ` (${num(x.progress)}%)` : ''}: wait, then download it.`,
  RENDER_FAILED: jobFailed('The render'),
  POST_ALREADY_PROCESSING: () => 'The post is already being published and can no longer be changed.',
  POST_ITEM_NOT_FAILED: () => 'Only a failed item can be retried.',
  TRANSCRIPTION_FAILED: jobFailed('The transcription'),
  UPLOAD_ALREADY_COMPLETED: () => 'This upload was completed already: an upload address takes one file.',
  WEBHOOK_LIMIT_REACHED: (x) =>
    `The workspace has the most webhooks allowed${num(x.max_webhooks) !== undefined ? ` (${num(x.max_webhooks)})` : ''}: delete one first.`,
  MONITOR_LIMIT_REACHED: (x) =>
    `The workspace has the most monitors its plan allows${num(x.max_monitors) !== undefined ? ` (${num(x.max_monitors)})` : ''}: delete one first.`,
  PERSONA_IMAGE_PROCESSING: () => 'A portrait of this persona is being made: wait for it to finish.',
  PERSONA_IMAGE_NOT_READY: () => 'The persona’s first portrait is not ready yet: wait for it.',
  // 410
  SUBMISSION_EXPIRED: () => 'This submission has expired and its clips were removed.',
  RENDER_FILE_EXPIRED: () => 'The rendered file has expired: render the edit again.',
  // 413
  FILE_TOO_LARGE: (x) => `The file is too large: the most allowed here is ${num(x.max_size) !== undefined ? formatBytes(num(x.max_size)!) : 'lower'}.`,
  // 422
  LIVE_STREAM: () => 'That video is still live: clip it once the broadcast has ended.',
  PLAYLIST_URL: () => 'That is a playlist: give the link of one video.',
  CHANNEL_URL: () => 'That is a channel or profile: give the link of one video.',
  SHORTS_NOT_SUPPORTED: () => 'That is already a vertical short.',
  AUDIO_ONLY: () => 'That has no picture, only sound.',
  INVALID_DURATION: (x) =>
    `The video${duration(x)} must be at least ${formatSeconds(num(x.min_duration) ?? 60)} long${num(x.max_duration) !== undefined ? ` and at most ${formatSeconds(num(x.max_duration)!)}` : ''}.`,
  INVALID_URL: (x) =>
    URL_REASONS[str(x.reason) ?? '']?.(x) ?? 'This link is not a video the service can read: the site is not supported or the address is wrong.',
  INVALID_WEBHOOK_URL: (x) =>
    x.reason === 'address_not_allowed'
      ? `Webhooks to private or loopback addresses are refused; the service’s operator can allow them with ${PRIVATE_WEBHOOKS_SETTING}.`
      : x.reason === 'unresolvable'
        ? 'The webhook’s host name does not exist.'
        : 'The webhook address must be a full http(s) URL without a user name or password.',
  NO_FACE_FOUND: () => 'No face was found on the photo: use a clear photo of one face.',
  MULTIPLE_FACES: () => 'More than one face is on the photo: use a photo of one face.',
  // 429, 5xx
  RATE_LIMIT_EXCEEDED: (x) =>
    `Too many requests${num(x.retry_after) !== undefined ? `: wait ${formatSeconds(num(x.retry_after)!)}` : ': wait a little'} and try again (renders also run only a few at a time per plan).`,
  METHOD_NOT_ALLOWED: () =>
    'This address does not take that method: `/mcp` takes POST only (a stateless MCP server has no stream to GET and no session to DELETE).',
  INTERNAL_ERROR: () => 'The service failed on its side: try again in a moment, and quote the request id if it lasts.',
  SERVICE_UNAVAILABLE: () => 'The service is not ready: try again in a moment.',

  // Codes a job records as its `error_code` (never answered over HTTP).
  JOB_LOST: () => 'The work was lost when the service restarted.',
  NO_SPEECH: () => 'Nobody speaks in this video (no sound, or no word recognised), so there is nothing to clip.',
  SOURCE_GONE: () => 'The channel or feed is gone.',
  SOURCE_TOO_LARGE: () => 'The source video is larger than the service takes.',
  SOURCE_UNAVAILABLE: () => 'The source video could not be fetched: try again later.',
  SOURCE_UNREADABLE: () => 'The source video could not be read.',
  SOURCE_NOT_FOUND: () => 'The source video is no longer in storage.',
  SUBMISSION_STATE_CHANGED: () => 'The submission was removed or finished elsewhere while it ran.',
  VIDEO_ANALYSIS_FAILED: () => 'The picture of the video could not be analysed.',
  NETWORK_ERROR: () => 'The service lost its connection to a server it needed.',
  STORAGE_FAILED: () => 'The service’s storage failed.',
  PROCESSING_FAILED: () => 'The service failed while working on it.',
  MEDIA_PROCESSING_FAILED: () => 'The video could not be processed (ffmpeg failed).',
  QUEUE_UNAVAILABLE: () => 'The service’s job queue was not available.',
  EDIT_INVALID: () => 'The edit could not be rendered as it is.',
  RENDER_TIMEOUT: () => 'The render took too long and was stopped.',
  RENDER_LOST: () => 'The render was lost when the service restarted.',
  RENDER_FFMPEG_FAILED: () => 'ffmpeg failed while rendering.',
  RENDER_FONT_MISSING: () => 'A font the template needs is missing on the service.',
  SOURCE_PREMIERE_SCHEDULED: () => 'The video is a premiere that has not started yet.',
  SOURCE_LIVE_IN_PROGRESS: () => 'The video is still being broadcast live.',
  SOURCE_VOD_PROCESSING: () => 'The site is still processing the video.',

  // A post item's `error_code` (docs/publishing.md); NETWORK_ERROR, PROCESSING_FAILED, RENDER_FAILED,
  // EDITS_NOT_FOUND and QUEUE_UNAVAILABLE above also apply.
  AUTH_EXPIRED: () => 'The account’s access has expired and could not be renewed: the account must be connected again.',
  AUTH_REVOKED: () => 'The network no longer lets the service post to this account (access withdrawn or a permission missing): connect it again.',
  QUOTA_EXCEEDED: () => 'The network’s upload quota for this account is used up: retry later.',
  RATE_LIMITED: () => 'The network asked the service to slow down: retry in a while.',
  METADATA_REJECTED: (x) => `The network refused the title, caption or options${str(x.field) ? ` (“${str(x.field)}”)` : ''}.`,
  UPLOAD_FAILED: () => 'The upload to the network failed.',
  CANCELLED: () => 'It was removed before it was published.',
  CONNECTION_REVOKED: () => 'The account was disconnected before the video was published.',
  PUBLISH_FAILED: () => 'Publishing failed unexpectedly, after several tries.',

  // The SDK's own codes (status null: no error answer was received).
  SUBMISSION_FAILED: jobFailed('Clipping'),
  POST_FAILED: jobFailed('Publishing', false),
  POST_PARTIAL: () => 'Some items of the post were published and some failed: see each item’s error.',
  PERSONA_FAILED: jobFailed('The persona portrait'),
  PERSONA_VIDEO_FAILED: jobFailed('The persona video'),
  GENERATION_FAILED: jobFailed('The generation'),
  WAIT_TIMEOUT: () => 'This is taking longer than the wait allowed: it may still finish; look again later.',
  WEBHOOK_INVALID: (x) => `The webhook delivery is not genuine${str(x.reason) ? ` (bad ${str(x.reason)})` : ''}: it was refused.`,
  UPLOAD_STREAM_TOO_SHORT: (x) =>
    `The file ended before its declared size${num(x.missing_bytes) !== undefined ? ` (${num(x.missing_bytes)} bytes missing)` : ''}.`,
  CONFIG_INVALID: () => 'The SDK was called with an invalid setting.',
  DOWNLOAD_FILE_EXISTS: (x) =>
    `${str(x.path) ? `${str(x.path)} exists` : 'The file exists'}: it was kept; pass \`overwrite: true\` to replace it, or another folder.`,
};

/**
 * The plain sentence of an error code, using its `extra`. A body that was not the API's (`HTTP_<status>`)
 * and an unknown code get a generic sentence naming them.
 */
export function errorReason(code: string, extra: Record<string, unknown> = {}): string {
  const reason = Object.hasOwn(ERROR_REASONS, code) ? ERROR_REASONS[code] : undefined;
  if (reason) return reason(extra ?? {});
  const http = /^HTTP_(\d{3})$/.exec(code);
  if (http) return `The address answered HTTP ${http[1]}, not like a Cutroom service: check the service’s address.`;
  return `The service refused this (${code}).`;
}
