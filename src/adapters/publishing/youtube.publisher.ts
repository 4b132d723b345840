import type { Credentials, Publisher, PublishInput, PublishResult } from '../../ports/publisher.js';
import { PublishError } from '../../ports/publisher.js';
import {
  OAuthSession,
  checkFile,
  checkMetadata,
  codeForStatus,
  httpError,
  mergeTokens,
  ownState,
  readBody,
  readChunk,
  refreshFailure,
  send,
  type HttpOptions,
} from './publish-http.js';
import { checkOAuthCredentials } from './credentials-check.js';

/**
 * YouTube Data API v3, resumable upload (developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
 * POST the snippet/status to get a session URL (`Location`), saved through `onState` before any byte is sent;
 * PUT the bytes in chunks with `Content-Range`; a 308 answer's `Range` says what the server holds. A later
 * attempt asks the saved session where it stands (`Content-Range: bytes * /size`) and continues, or gets the
 * finished video back: a video exists only once its session completed, so it is never created twice.
 */

export interface YouTubePublisherOptions {
  /** `https://www.googleapis.com` */
  apiBase: string;
  /** `https://oauth2.googleapis.com` (the token endpoint is `${oauthBase}/token`). */
  oauthBase: string;
  /** Prefix of the published URL; the video id is appended. */
  watchBase: string;
  /** OAuth client used to refresh tokens when the connection's credentials carry none. */
  clientId?: string;
  clientSecret?: string;
  /** Bytes per PUT; a multiple of 256 KiB except for the last chunk. */
  chunkBytes: number;
  requestTimeoutMs: number;
}

interface YouTubeState {
  platform: 'youtube';
  key: string;
  sessionUrl: string;
  size: number;
}

const SNIPPET_KEYS = ['title', 'description', 'tags', 'categoryId', 'defaultLanguage', 'defaultAudioLanguage'] as const;
const STATUS_KEYS = ['privacyStatus', 'embeddable', 'publicStatsViewable', 'license', 'publishAt', 'containsSyntheticMedia'] as const;

/** The videos.insert body from the network's fields; other keys are not sent. */
export function youtubeResource(metadata: Record<string, unknown>): { snippet: Record<string, unknown>; status: Record<string, unknown> } {
  const snippet: Record<string, unknown> = {};
  const status: Record<string, unknown> = { privacyStatus: 'private' };
  for (const k of SNIPPET_KEYS) if (metadata[k] !== undefined) snippet[k] = metadata[k];
  for (const k of STATUS_KEYS) if (metadata[k] !== undefined) status[k] = metadata[k];
  if (metadata.madeForKids !== undefined) status.selfDeclaredMadeForKids = metadata.madeForKids;
  return { snippet, status };
}

const FIELD_OF_REASON: Record<string, string> = {
  invalidTitle: 'youtube.title',
  invalidDescription: 'youtube.description',
  invalidTags: 'youtube.tags',
  invalidCategoryId: 'youtube.categoryId',
  invalidPublishAt: 'youtube.publishAt',
  invalidRecordingDetails: 'youtube',
  invalidVideoMetadata: 'youtube',
};

/** Maps a YouTube error answer (`{ error: { code, message, errors: [{ reason }] } }`) to a PublishError. */
export async function youtubeError(res: Response, what: string): Promise<PublishError> {
  const { text, json } = await readBody(res);
  const reason: string = json?.error?.errors?.[0]?.reason ?? json?.error?.status ?? '';
  const detail = [reason, json?.error?.message].filter(Boolean).join(': ') || text;
  const s = res.status;
  if (['quotaExceeded', 'dailyLimitExceeded', 'uploadLimitExceeded'].includes(reason)) return httpError('QUOTA_EXCEEDED', what, res, detail);
  if (['rateLimitExceeded', 'userRateLimitExceeded'].includes(reason) || s === 429) return httpError('RATE_LIMITED', what, res, detail);
  if (s === 401) return httpError(reason === 'youtubeSignupRequired' ? 'AUTH_REVOKED' : 'AUTH_EXPIRED', what, res, detail);
  if (s === 403) return httpError('AUTH_REVOKED', what, res, detail);
  if (s === 400) return httpError('METADATA_REJECTED', what, res, detail, FIELD_OF_REASON[reason] ? { field: FIELD_OF_REASON[reason] } : {});
  return httpError(codeForStatus(s), what, res, detail);
}

/** Next offset from a 308 answer: `Range: bytes=0-N` → N + 1; no Range → nothing stored yet. */
export function nextOffset(res: Response): number {
  const m = /^bytes=0-(\d+)$/.exec(res.headers.get('range')?.trim() ?? '');
  return m ? Number(m[1]) + 1 : 0;
}

type SessionProbe = { done: string } | { offset: number } | 'gone';

export class YouTubePublisher implements Publisher {
  readonly platform = 'youtube';
  readonly canPublishVideo = true;

  constructor(private readonly opts: YouTubePublisherOptions) {
    if (opts.chunkBytes <= 0 || opts.chunkBytes % (256 * 1024) !== 0) throw new Error('YouTube chunkBytes must be a multiple of 256 KiB');
  }

  checkCredentials(credentials: Credentials): string | null {
    return checkOAuthCredentials(credentials, 'client_id');
  }

  async publish(input: PublishInput): Promise<PublishResult> {
    checkMetadata('youtube', input.metadata);
    await checkFile(input.file, input.sizeBytes);
    const http: HttpOptions = { timeoutMs: this.opts.requestTimeoutMs, signal: input.signal };
    const auth = new OAuthSession(input.credentials, this.refresher(), http);
    try {
      if (!auth.token && !auth.canRefresh) throw new PublishError('AUTH_REVOKED', 'youtube: the connection has no access_token or refresh_token');
      await auth.ensureFresh();
      const videoId = await this.run(input, auth, http);
      const result: PublishResult = { publishedUrl: `${this.opts.watchBase}${encodeURIComponent(videoId)}`, externalId: videoId };
      if (auth.refreshed) result.credentials = auth.credentials;
      return result;
    } catch (err) {
      throw auth.attach(err);
    }
  }

  private async run(input: PublishInput, auth: OAuthSession, http: HttpOptions): Promise<string> {
    const size = input.sizeBytes;
    let state = ownState<YouTubeState>(input.resumeState, 'youtube', input.idempotencyKey, (s) => typeof s.sessionUrl === 'string' && s.size === size);
    let offset = 0;
    if (state) {
      const probe = await this.probe(state.sessionUrl, size, auth, http);
      if (probe === 'gone')
        state = undefined; // expired or unknown session: no video came of it
      else if ('done' in probe) return probe.done;
      else offset = probe.offset;
    }
    if (!state) {
      state = { platform: 'youtube', key: input.idempotencyKey, sessionUrl: await this.startSession(input, auth, http), size };
      await input.onState?.(state);
    }
    return this.upload(input.file, state.sessionUrl, size, offset, auth, http);
  }

  private refresher() {
    return async (creds: Credentials, http: HttpOptions): Promise<Credentials> => {
      const clientId = typeof creds.client_id === 'string' && creds.client_id ? creds.client_id : this.opts.clientId;
      const clientSecret = typeof creds.client_secret === 'string' && creds.client_secret ? creds.client_secret : this.opts.clientSecret;
      if (!clientId || !clientSecret) {
        throw new PublishError(
          'AUTH_EXPIRED',
          'youtube: the token needs a refresh but no OAuth client is known (client_id/client_secret or CUTROOM_YOUTUBE_CLIENT_ID/_SECRET)',
        );
      }
      const body = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: String(creds.refresh_token),
        client_id: clientId,
        client_secret: clientSecret,
      });
      const res = await send(`${this.opts.oauthBase}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, http);
      if (!res.ok) throw await refreshFailure(res, 'youtube');
      const { json } = await readBody(res);
      if (typeof json?.access_token !== 'string') throw new PublishError('AUTH_EXPIRED', 'youtube token refresh: no access_token in the answer');
      return mergeTokens(creds, json);
    };
  }

  private async startSession(input: PublishInput, auth: OAuthSession, http: HttpOptions): Promise<string> {
    const url = `${this.opts.apiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`;
    const body = JSON.stringify(youtubeResource(input.metadata));
    const res = await auth.call((token) =>
      send(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json; charset=UTF-8',
            'x-upload-content-length': String(input.sizeBytes),
            'x-upload-content-type': 'video/mp4',
          },
          body,
        },
        http,
      ),
    );
    if (!res.ok) throw await youtubeError(res, 'youtube upload session');
    await res.body?.cancel().catch(() => {});
    const location = res.headers.get('location');
    if (!location) throw new PublishError('UPLOAD_FAILED', 'youtube upload session: no Location header in the answer');
    return new URL(location, url).toString();
  }

  /** Asks a saved session how far it got: the finished video, the next offset, or gone (404/410). */
  private async probe(sessionUrl: string, size: number, auth: OAuthSession, http: HttpOptions): Promise<SessionProbe> {
    const res = await auth.call((token) =>
      send(sessionUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-range': `bytes */${size}` }, body: new Uint8Array(0) }, http),
    );
    if (res.status === 308) {
      await res.body?.cancel().catch(() => {});
      return { offset: nextOffset(res) };
    }
    if (res.status === 200 || res.status === 201) return { done: await this.videoId(res) };
    if (res.status === 404 || res.status === 410) {
      await res.body?.cancel().catch(() => {});
      return 'gone';
    }
    throw await youtubeError(res, 'youtube upload status');
  }

  private async upload(file: string, sessionUrl: string, size: number, from: number, auth: OAuthSession, http: HttpOptions): Promise<string> {
    let offset = from;
    let stalls = 0;
    while (offset < size) {
      const length = Math.min(this.opts.chunkBytes, size - offset);
      const chunk = await readChunk(file, offset, length);
      const range = `bytes ${offset}-${offset + length - 1}/${size}`;
      const res = await send(
        sessionUrl,
        { method: 'PUT', headers: { authorization: `Bearer ${auth.token}`, 'content-type': 'video/mp4', 'content-range': range }, body: chunk },
        http,
      );
      if (res.status === 401 && auth.mayRefresh) {
        // The token expired mid-upload: refresh, ask where the session stands, go on from there.
        await res.body?.cancel().catch(() => {});
        await auth.refresh();
        const probe = await this.probe(sessionUrl, size, auth, http);
        if (probe === 'gone') throw new PublishError('UPLOAD_FAILED', 'youtube upload session vanished', { retryable: true });
        if ('done' in probe) return probe.done;
        offset = probe.offset;
        continue;
      }
      if (res.status === 308) {
        await res.body?.cancel().catch(() => {});
        const next = nextOffset(res);
        // The server may keep less than was sent: go on from what it holds; give up when it keeps nothing.
        stalls = next > offset ? 0 : stalls + 1;
        if (next < offset || stalls >= 3) throw new PublishError('UPLOAD_FAILED', `youtube upload stalled at ${next} of ${size} bytes`, { retryable: true });
        offset = next;
        continue;
      }
      if (res.status === 200 || res.status === 201) return this.videoId(res);
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel().catch(() => {});
        throw new PublishError('UPLOAD_FAILED', `youtube upload session expired (HTTP ${res.status})`, { status: res.status, retryable: true });
      }
      throw await youtubeError(res, 'youtube upload');
    }
    // Everything was sent but the last answer was a 308: ask once more (the server may finish late).
    const probe = await this.probe(sessionUrl, size, auth, http);
    if (probe !== 'gone' && 'done' in probe) return probe.done;
    throw new PublishError('UPLOAD_FAILED', 'youtube upload: all bytes sent but no video returned', { retryable: true });
  }

  private async videoId(res: Response): Promise<string> {
    const { json, text } = await readBody(res);
    if (typeof json?.id !== 'string' || !json.id) throw new PublishError('UPLOAD_FAILED', `youtube upload: no video id in the answer ${text.slice(0, 200)}`);
    if (json?.status?.uploadStatus === 'rejected' || json?.status?.uploadStatus === 'failed') {
      const reason = json.status.rejectionReason ?? json.status.failureReason ?? json.status.uploadStatus;
      throw new PublishError('PROCESSING_FAILED', `youtube rejected the video ${json.id}: ${reason}`);
    }
    return json.id;
  }
}
