import { retryAfterSeconds, sleep } from '../../shared/timing.js';
import fs from 'node:fs';
import { DomainError } from '../../domain/errors.js';
import type { DownloadResult } from '../../ports/source-downloader.js';
import type { WaitingReason } from '../../ports/source-resolver.js';
import { safeFetch, type SafeFetchOptions, type SafeResponse } from '../net/safe-fetch.js';

/** Shared pieces of the source downloader (src/adapters/sources/downloader.ts). */

export type Waiting = Extract<DownloadResult, { kind: 'waiting' }>;
/** What a download strategy produced: a local media file in the work dir, or a waiting state. */
export type Fetched = { kind: 'file'; path: string } | Waiting;

/** Suggested re-check delays of the waiting states, seconds. */
export const RETRY_SECONDS = {
  /** An HLS playlist without `#EXT-X-ENDLIST`. */
  liveHls: 60,
  /** A platform stream on air (yt-dlp). */
  livePlatform: 300,
  /** A platform video still being processed (yt-dlp), or a direct source without a Retry-After. */
  processing: 300,
  /** A premiere without an announced start. */
  premiereUnknown: 900,
  /** Longest delay suggested, whatever the source announced. */
  max: 6 * 3600,
} as const;

/** Everything a download strategy needs; built once per download by the adapter. */
export interface DownloadContext {
  allowPrivate: boolean;
  /** Deadline of each HTTP hop's headers and idle gap of a body (safeFetch `timeoutMs`). */
  fetchTimeoutMs: number;
  /** Deadline of one whole download (ffmpeg, yt-dlp). */
  downloadTimeoutMs: number;
  /** Extra attempts after a transient failure (unreachable, 5xx, cut connection). */
  retries: number;
  /** First backoff delay; doubles each attempt. */
  retryDelayMs: number;
  maxPlaylistBytes: number;
  /** Bytes, finite: the caller's cap (the plan's max_upload_size); there is no unlimited download. */
  maxBytes: number;
  workDir: string;
  ffmpegBinary: string;
  signal?: AbortSignal;
  /** 0..1 of the fetching part (the adapter scales it and keeps it monotonic). */
  progress(fraction: number): void;
  now(): Date;
  resolve?: SafeFetchOptions['resolve'];
  treatAsPublic?: SafeFetchOptions['treatAsPublic'];
}

export function sourceUnavailable(reason: string, cause?: unknown): DomainError {
  const err = new DomainError('SOURCE_UNAVAILABLE');
  err.cause = cause instanceof Error ? new Error(`${reason}: ${cause.message}`) : new Error(reason);
  return err;
}

export function sourceTooLarge(maxBytes: number): DomainError {
  const err = new DomainError('SOURCE_TOO_LARGE', { max_size: maxBytes });
  err.cause = new Error(`source larger than ${maxBytes} bytes`);
  return err;
}

export function sourceUnreadable(reason: string): DomainError {
  const err = new DomainError('SOURCE_UNREADABLE');
  err.cause = new Error(reason);
  return err;
}

export function waiting(reason: WaitingReason, retryAfterSeconds: number, until?: Date): Waiting {
  const seconds = Math.min(RETRY_SECONDS.max, Math.max(1, Math.ceil(retryAfterSeconds)));
  return { kind: 'waiting', reason, ...(until ? { until } : {}), retryAfterSeconds: seconds };
}

/**
 * True for a safeFetch/relay refusal made by the address rules or URL checks (a hop to a private
 * address, a bad scheme, too many redirects): final, answered INVALID_URL. False for an INVALID_URL
 * that only says the host could not be reached (DNS failure, refused connection, timeout), which is
 * retried and then answered SOURCE_UNAVAILABLE.
 */
export function isPolicyRefusal(err: unknown): boolean {
  if (!(err instanceof DomainError) || err.code !== 'INVALID_URL') return false;
  return isPolicyMessage((err.cause as Error | undefined)?.message ?? '');
}

export function isPolicyMessage(message: string): boolean {
  return /address \S+ of \S+ is |scheme \S+ not allowed|credentials in URL|empty host|non-canonical IP literal|malformed URL|more than \d+ redirects/i.test(
    message,
  );
}

/** `Retry-After` as seconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const s = retryAfterSeconds(value, now.getTime());
  return s === undefined ? null : Math.max(1, Math.ceil(s));
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError');
}

export { sleep };

/** Delay before attempt `attempt` (1 = first retry): base, 2×base, 4×base... capped at 60 s. */
export function backoffMs(attempt: number, baseMs: number): number {
  return Math.min(60_000, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** Bytes under `dir` (not recursive into symlinks). */
export function dirSize(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = `${dir}/${e.name}`;
    try {
      if (e.isDirectory()) total += dirSize(p);
      else if (e.isFile()) total += fs.statSync(p).size;
    } catch {
      // removed while we looked
    }
  }
  return total;
}

/**
 * Calls `onExceeded` once when the bytes under `target` (a file or folder) go over `limit`, checking
 * every `everyMs`. Returns the stop function. Used while ffmpeg or yt-dlp write, to kill them early.
 */
export function watchSize(target: string, limit: number, onExceeded: () => void, everyMs = 500): () => void {
  if (!Number.isFinite(limit)) return () => {};
  const timer = setInterval(() => {
    let size: number;
    try {
      const st = fs.statSync(target);
      size = st.isDirectory() ? dirSize(target) : st.size;
    } catch {
      return;
    }
    if (size > limit) {
      clearInterval(timer);
      onExceeded();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Error codes of file systems that are the service's problem, not the source's (rethrown as they are). */
export function isLocalIoError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EACCES' || code === 'EROFS' || code === 'EIO' || code === 'EMFILE' || code === 'EPERM';
}

/** One HTTP answer of a caller's source, sorted: usable, worth another attempt, or a waiting state. Final errors are thrown. */
export type Attempt = { kind: 'response'; res: SafeResponse } | { kind: 'retry'; error: Error; delayMs?: number } | Waiting;

/** Statuses that mean "not yet" when they come with a Retry-After (the source is still preparing the file). */
const NOT_YET = new Set([404, 409, 425, 503]);

/**
 * GETs `url` with safeFetch (address rules on every hop) and sorts the answer:
 * 2xx → response; 401/403 → PRIVATE_VIDEO; 451 → REGION_BLOCKED; 404/409/425/503 with Retry-After →
 * waiting SOURCE_VOD_PROCESSING; 404/410 → SOURCE_UNAVAILABLE; 408/429/5xx, an unreachable host or a
 * timeout → retry; a hop refused by the address rules → INVALID_URL; any other status → SOURCE_UNAVAILABLE.
 */
export async function fetchAttempt(url: string, ctx: DownloadContext, extra: Partial<SafeFetchOptions> = {}): Promise<Attempt> {
  let res: SafeResponse;
  try {
    res = await safeFetch(url, {
      allowPrivate: ctx.allowPrivate,
      timeoutMs: ctx.fetchTimeoutMs,
      maxRedirects: 5,
      resolve: ctx.resolve,
      treatAsPublic: ctx.treatAsPublic,
      signal: ctx.signal,
      ...extra,
    });
  } catch (err) {
    throwIfAborted(ctx.signal);
    if (err instanceof DomainError && err.code === 'FILE_TOO_LARGE') {
      // Only playlists are fetched with a cap (media bodies are counted while written).
      throw extra.maxBytes !== undefined ? sourceUnreadable(`${url}: playlist over ${extra.maxBytes} bytes`) : sourceTooLarge(ctx.maxBytes);
    }
    if (isPolicyRefusal(err)) throw err;
    if (err instanceof DomainError && err.code === 'INVALID_URL') return { kind: 'retry', error: (err.cause as Error | undefined) ?? err };
    throw err;
  }
  const status = res.status;
  if (status >= 200 && status < 300) return { kind: 'response', res };
  res.discard();
  const retryAfter = parseRetryAfter(res.headers['retry-after'], ctx.now());
  if (status === 401 || status === 403) throw new DomainError('PRIVATE_VIDEO');
  if (status === 451) throw new DomainError('REGION_BLOCKED');
  if (retryAfter !== null && NOT_YET.has(status)) return waiting('SOURCE_VOD_PROCESSING', retryAfter);
  if (status === 404 || status === 410) throw sourceUnavailable(`${res.url} answered HTTP ${status}`);
  if (status === 408 || status === 429 || status >= 500) {
    return {
      kind: 'retry',
      error: new Error(`${res.url} answered HTTP ${status}`),
      ...(retryAfter !== null ? { delayMs: Math.min(60, retryAfter) * 1000 } : {}),
    };
  }
  throw sourceUnavailable(`${res.url} answered HTTP ${status}`);
}

/**
 * Runs `attempt` until it answers something other than `retry`, at most `ctx.retries` extra times
 * with exponential backoff; then SOURCE_UNAVAILABLE carrying the last reason.
 */
export async function withRetries<T>(
  ctx: DownloadContext,
  what: string,
  attempt: (n: number) => Promise<T | { kind: 'retry'; error: Error; delayMs?: number }>,
): Promise<T> {
  let last: Error | undefined;
  for (let n = 0; n <= ctx.retries; n++) {
    throwIfAborted(ctx.signal);
    const out = await attempt(n);
    if (!isRetry(out)) return out;
    last = out.error;
    if (n < ctx.retries) await sleep(Math.max(out.delayMs ?? 0, backoffMs(n + 1, ctx.retryDelayMs)), ctx.signal);
  }
  throw sourceUnavailable(`${what}: failed after ${ctx.retries + 1} attempts`, last);
}

function isRetry(v: unknown): v is { kind: 'retry'; error: Error; delayMs?: number } {
  return !!v && typeof v === 'object' && (v as { kind?: unknown }).kind === 'retry';
}
