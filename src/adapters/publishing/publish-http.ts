import { retryAfterSeconds as parseRetryAfter, sleep as abortableSleep } from '../../shared/timing.js';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { PublishError, type Credentials, type PublishErrorCode } from '../../ports/publisher.js';
import { validateMetadata } from '../../domain/publishing/metadata.rules.js';
import type { ParsedJson } from '../../shared/json.js';

/** Plumbing shared by the network publishers: requests, file chunks, polling, OAuth sessions, resume states. */

export interface HttpOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** fetch without redirects (a 308 is YouTube's "resume incomplete"); transport failures become NETWORK_ERROR. */
export async function send(url: string, init: RequestInit, opts: HttpOptions): Promise<Response> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal, ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
  } catch (err) {
    const what = timeout.aborted ? `timed out after ${opts.timeoutMs} ms` : opts.signal?.aborted ? 'aborted' : (err as Error).message;
    throw new PublishError('NETWORK_ERROR', `${init.method ?? 'GET'} ${new URL(url).origin}${new URL(url).pathname}: ${what}`, { cause: err });
  }
}

/** The body as text (empty on a read failure) and as JSON when it parses. */
export async function readBody(res: Response): Promise<{ text: string; json: ParsedJson }> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    text = '';
  }
  let json: ParsedJson;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { text, json };
}

export function retryAfterSeconds(res: Response): number | undefined {
  const s = parseRetryAfter(res.headers.get('retry-after'));
  return s === undefined ? undefined : Math.ceil(s);
}

/** The fallback mapping by HTTP status when a network's own error body says nothing more precise. */
export function codeForStatus(status: number): PublishErrorCode {
  if (status === 401) return 'AUTH_EXPIRED';
  if (status === 403) return 'AUTH_REVOKED';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 400 || status === 422) return 'METADATA_REJECTED';
  return 'UPLOAD_FAILED';
}

export function httpError(
  code: PublishErrorCode,
  what: string,
  res: Response,
  detail: string,
  extra: { field?: string; retryable?: boolean } = {},
): PublishError {
  const retryable = extra.retryable ?? (code === 'UPLOAD_FAILED' ? res.status >= 500 || res.status === 408 : undefined);
  return new PublishError(code, `${what}: HTTP ${res.status}${detail ? ` ${detail.slice(0, 300)}` : ''}`, {
    status: res.status,
    retryAfterSeconds: retryAfterSeconds(res),
    ...(extra.field ? { field: extra.field } : {}),
    ...(retryable !== undefined ? { retryable } : {}),
  });
}

/** Refuses metadata the rules refuse (the API checked it already; this guards other callers). */
export function checkMetadata(platform: string, metadata: Record<string, unknown>): void {
  const bad = validateMetadata(platform, metadata);
  if (bad) throw new PublishError('METADATA_REJECTED', `invalid ${bad.field}`, { field: bad.field });
}

/** The file must exist with the announced size (a purged render is not retryable). */
export async function checkFile(file: string, sizeBytes: number): Promise<void> {
  let size: number;
  try {
    const st = await fs.promises.stat(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    throw new PublishError('UPLOAD_FAILED', `the file to publish is missing: ${file}`, { retryable: false });
  }
  if (size !== sizeBytes || size === 0) {
    throw new PublishError('UPLOAD_FAILED', `the file to publish has ${size} bytes, ${sizeBytes} announced`, { retryable: false });
  }
}

export async function readChunk(file: string, start: number, length: number): Promise<Buffer<ArrayBuffer>> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await fh.read(buf, got, length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    if (got !== length) throw new PublishError('UPLOAD_FAILED', `short read of ${file} at ${start}`, { retryable: false });
    return buf;
  } finally {
    await fh.close();
  }
}

/** The file from `start` to its end as a request body stream. */
export function fileStream(file: string, start: number): ReadableStream {
  return Readable.toWeb(fs.createReadStream(file, { start })) as ReadableStream;
}

/** Waits `ms`; an abort rejects with a NETWORK_ERROR PublishError. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortableSleep(ms, signal).catch(() => {
    throw new PublishError('NETWORK_ERROR', 'aborted');
  });
}

/**
 * A saved resume state of this network and this item, or undefined (another item's or network's state,
 * or a malformed one, is ignored: starting afresh is then the only safe choice).
 */
export function ownState<T extends { platform: string; key: string }>(
  raw: unknown,
  platform: string,
  key: string,
  valid: (s: Record<string, unknown>) => boolean,
): T | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const s = raw as Record<string, unknown>;
  if (s.platform !== platform || s.key !== key || !valid(s)) return undefined;
  return s as unknown as T;
}

export type TokenRefresher = (credentials: Credentials, http: HttpOptions) => Promise<Credentials>;

const EXPIRY_SKEW_MS = 60_000;

/**
 * An access token for one publish attempt: refreshed ahead of `expires_at`, or once after a 401.
 * `refreshed` tells whether `credentials` changed (to be saved by the caller).
 */
export class OAuthSession {
  credentials: Credentials;
  refreshed = false;
  private tried = false;

  constructor(
    credentials: Credentials,
    private readonly refresher: TokenRefresher | undefined,
    private readonly http: HttpOptions,
  ) {
    this.credentials = { ...credentials };
  }

  get canRefresh(): boolean {
    return this.refresher !== undefined && typeof this.credentials.refresh_token === 'string' && this.credentials.refresh_token !== '';
  }

  /** A refresh is still possible in this attempt (one per attempt). */
  get mayRefresh(): boolean {
    return this.canRefresh && !this.tried;
  }

  get token(): string {
    const t = this.credentials.access_token;
    return typeof t === 'string' ? t : '';
  }

  async refresh(): Promise<void> {
    if (!this.refresher) throw new PublishError('AUTH_EXPIRED', 'the access token is invalid and this network cannot refresh it');
    this.tried = true;
    this.credentials = await this.refresher(this.credentials, this.http);
    this.refreshed = true;
  }

  /** Before the first request: refresh when there is no access token or it expires within a minute. */
  async ensureFresh(): Promise<void> {
    if (!this.mayRefresh) return;
    const exp = typeof this.credentials.expires_at === 'string' ? Date.parse(this.credentials.expires_at) : NaN;
    if (!this.token || (!Number.isNaN(exp) && exp - Date.now() < EXPIRY_SKEW_MS)) await this.refresh();
  }

  /** Runs `request` with the token; after a 401, refreshes once (if possible) and runs it again. */
  async call(request: (token: string) => Promise<Response>): Promise<Response> {
    const res = await request(this.token);
    if (res.status !== 401 || !this.mayRefresh) return res;
    await res.body?.cancel().catch(() => {});
    await this.refresh();
    return request(this.token);
  }

  /** Attaches refreshed tokens to a failure so the caller still saves them. */
  attach(err: unknown): unknown {
    if (err instanceof PublishError && this.refreshed && !err.credentials) err.credentials = this.credentials;
    return err;
  }
}

/** New credentials from an OAuth token answer (`expires_in` seconds → `expires_at`). */
export function mergeTokens(old: Credentials, answer: Record<string, unknown>): Credentials {
  const next: Credentials = { ...old, access_token: String(answer.access_token) };
  if (typeof answer.refresh_token === 'string' && answer.refresh_token) next.refresh_token = answer.refresh_token;
  if (typeof answer.expires_in === 'number') next.expires_at = new Date(Date.now() + answer.expires_in * 1000).toISOString();
  else delete next.expires_at;
  if (typeof answer.refresh_expires_in === 'number') {
    next.refresh_expires_at = new Date(Date.now() + answer.refresh_expires_in * 1000).toISOString();
  }
  if (typeof answer.open_id === 'string' && answer.open_id) next.open_id = answer.open_id;
  return next;
}

/** Maps a failed OAuth refresh (RFC 6749 error body) to a PublishError. */
export async function refreshFailure(res: Response, network: string): Promise<PublishError> {
  const { text, json } = await readBody(res);
  const error = typeof json?.error === 'string' ? json.error : '';
  if (res.status === 429) return httpError('RATE_LIMITED', `${network} token refresh`, res, text);
  if (res.status >= 500) return httpError('UPLOAD_FAILED', `${network} token refresh`, res, text);
  // invalid_grant: the refresh token was revoked or expired; invalid_client: the OAuth client is wrong.
  return httpError(
    error === 'invalid_grant' || error === 'invalid_client' || error === 'unauthorized_client' ? 'AUTH_REVOKED' : 'AUTH_EXPIRED',
    `${network} token refresh`,
    res,
    error || text,
  );
}
