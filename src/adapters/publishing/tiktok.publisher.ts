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
  sleep,
  type HttpOptions,
} from './publish-http.js';
import { checkOAuthCredentials } from './credentials-check.js';
import type { ParsedJson } from '../../shared/json.js';

/**
 * TikTok Content Posting API, direct post from a file (developers.tiktok.com/doc/content-posting-api-reference-direct-post):
 * `POST /v2/post/publish/video/init/` → `publish_id` + `upload_url` (saved through `onState` before any byte
 * is sent), PUT the chunks with `Content-Range`, then poll `POST /v2/post/publish/status/fetch/` until
 * PUBLISH_COMPLETE. A later attempt asks the saved `publish_id` where it stands instead of initialising a
 * new post; a FAILED post never went public, so only then is a new one started.
 */

export interface TikTokPublisherOptions {
  /** `https://open.tiktokapis.com` */
  apiBase: string;
  /** `https://www.tiktok.com` (published URLs are `<webBase>/@<user>/video/<id>`). */
  webBase: string;
  /** App credentials used to refresh tokens when the connection's credentials carry none. */
  clientKey?: string;
  clientSecret?: string;
  /** Bytes per chunk; a file smaller than this goes in one chunk. */
  chunkBytes: number;
  requestTimeoutMs: number;
  pollIntervalMs: number;
  pollTimeoutMs: number;
}

interface TikTokState {
  platform: 'tiktok';
  key: string;
  publishId: string;
  uploadUrl: string;
  size: number;
  chunkSize: number;
  chunkCount: number;
}

/** TikTok's chunk arithmetic: `total_chunk_count = floor(size / chunk_size)`, the last chunk takes the rest. */
export function tiktokChunks(size: number, chunkBytes: number): { chunkSize: number; chunkCount: number } {
  if (size <= chunkBytes) return { chunkSize: size, chunkCount: 1 };
  return { chunkSize: chunkBytes, chunkCount: Math.floor(size / chunkBytes) };
}

const POST_INFO: Record<string, string> = {
  title: 'title',
  privacyLevel: 'privacy_level',
  disableComment: 'disable_comment',
  disableDuet: 'disable_duet',
  disableStitch: 'disable_stitch',
  videoCoverTimestampMs: 'video_cover_timestamp_ms',
  brandContentToggle: 'brand_content_toggle',
  brandOrganicToggle: 'brand_organic_toggle',
  isAigc: 'is_aigc',
};

/** `post_info` of the init call from the network's fields; other keys are not sent. */
export function tiktokPostInfo(metadata: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, wire] of Object.entries(POST_INFO)) if (metadata[k] !== undefined) out[wire] = metadata[k];
  return out;
}

const QUOTA = new Set(['spam_risk_too_many_posts', 'spam_risk_too_many_pending_share', 'reached_active_user_cap']);
const REVOKED = new Set(['scope_not_authorized', 'scope_permission_missed', 'spam_risk_user_banned_from_posting', 'access_token_revoked']);
const PRIVACY = new Set(['privacy_level_option_mismatch', 'unaudited_client_can_only_post_to_private_accounts']);

/** Maps a TikTok answer (`{ data, error: { code, message, log_id } }`) to a PublishError. */
export function tiktokErrorOf(res: Response, body: { text: string; json: ParsedJson }, what: string): PublishError {
  const code: string = body.json?.error?.code ?? '';
  const detail = [code, body.json?.error?.message].filter(Boolean).join(': ') || body.text;
  if (QUOTA.has(code)) return httpError('QUOTA_EXCEEDED', what, res, detail);
  if (code === 'rate_limit_exceeded' || res.status === 429) return httpError('RATE_LIMITED', what, res, detail);
  if (REVOKED.has(code)) return httpError('AUTH_REVOKED', what, res, detail);
  if (code === 'access_token_invalid' || res.status === 401) return httpError('AUTH_EXPIRED', what, res, detail);
  if (PRIVACY.has(code)) return httpError('METADATA_REJECTED', what, res, detail, { field: 'tiktok.privacyLevel' });
  if (code === 'invalid_params') return httpError('METADATA_REJECTED', what, res, detail);
  return httpError(codeForStatus(res.status), what, res, detail);
}

export async function tiktokError(res: Response, what: string): Promise<PublishError> {
  return tiktokErrorOf(res, await readBody(res), what);
}

interface Status {
  status: string;
  failReason?: string;
  postId?: string;
  uploadedBytes?: number;
}

export class TikTokPublisher implements Publisher {
  readonly platform = 'tiktok';
  readonly canPublishVideo = true;

  constructor(private readonly opts: TikTokPublisherOptions) {}

  checkCredentials(credentials: Credentials): string | null {
    return checkOAuthCredentials(credentials, 'client_key');
  }

  async publish(input: PublishInput): Promise<PublishResult> {
    checkMetadata('tiktok', input.metadata);
    await checkFile(input.file, input.sizeBytes);
    const http: HttpOptions = { timeoutMs: this.opts.requestTimeoutMs, signal: input.signal };
    const auth = new OAuthSession(input.credentials, this.refresher(), http);
    try {
      if (!auth.token && !auth.canRefresh) throw new PublishError('AUTH_REVOKED', 'tiktok: the connection has no access_token or refresh_token');
      await auth.ensureFresh();
      const { publishId, postId } = await this.run(input, auth, http);
      const creds = auth.credentials;
      const user = [creds.username, input.account].find((u): u is string => typeof u === 'string' && u !== '')?.replace(/^@/, '');
      const profile = user ? `${this.opts.webBase}/@${encodeURIComponent(user)}` : this.opts.webBase;
      // A post that is not public (SELF_ONLY) has no public id: the profile is the best address there is.
      const result: PublishResult = postId
        ? { publishedUrl: `${profile}/video/${postId}`, externalId: postId }
        : { publishedUrl: profile, externalId: publishId };
      if (auth.refreshed) result.credentials = auth.credentials;
      return result;
    } catch (err) {
      throw auth.attach(err);
    }
  }

  private async run(input: PublishInput, auth: OAuthSession, http: HttpOptions): Promise<{ publishId: string; postId?: string }> {
    const size = input.sizeBytes;
    let state = ownState<TikTokState>(
      input.resumeState,
      'tiktok',
      input.idempotencyKey,
      (s) =>
        typeof s.publishId === 'string' &&
        typeof s.uploadUrl === 'string' &&
        s.size === size &&
        typeof s.chunkSize === 'number' &&
        typeof s.chunkCount === 'number',
    );
    if (state) {
      const st = await this.status(state.publishId, auth, http);
      if (st.status === 'PUBLISH_COMPLETE') return { publishId: state.publishId, postId: st.postId };
      if (st.status === 'FAILED') {
        state = undefined; // that post never went public: a new one cannot make a duplicate
      } else if (st.status === 'PROCESSING_UPLOAD') {
        const from = Math.min(Math.floor((st.uploadedBytes ?? 0) / state.chunkSize), state.chunkCount - 1);
        if ((st.uploadedBytes ?? 0) < size && !(await this.upload(input.file, state, from, http, true))) state = undefined;
      }
    }
    if (!state) {
      state = await this.init(input, auth, http);
      await input.onState?.(state);
      await this.upload(input.file, state, 0, http, false);
    }
    return { publishId: state.publishId, postId: await this.poll(state.publishId, auth, http, input.signal) };
  }

  private refresher() {
    return async (creds: Credentials, http: HttpOptions): Promise<Credentials> => {
      const own = [creds.client_key, creds.client_id].find((v): v is string => typeof v === 'string' && v !== '');
      const clientKey = own ?? this.opts.clientKey;
      const clientSecret = typeof creds.client_secret === 'string' && creds.client_secret ? creds.client_secret : this.opts.clientSecret;
      if (!clientKey || !clientSecret) {
        throw new PublishError(
          'AUTH_EXPIRED',
          'tiktok: the token needs a refresh but no client key is known (client_key/client_secret or CUTROOM_TIKTOK_CLIENT_KEY/_SECRET)',
        );
      }
      const body = new URLSearchParams({
        client_key: clientKey,
        client_secret: clientSecret,
        grant_type: 'refresh_token',
        refresh_token: String(creds.refresh_token),
      });
      const res = await send(
        `${this.opts.apiBase}/v2/oauth/token/`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
        http,
      );
      if (!res.ok) throw await refreshFailure(res, 'tiktok');
      const { json } = await readBody(res);
      // TikTok may answer 200 with an OAuth error body.
      if (typeof json?.error === 'string' && json.error) {
        const grant = json.error === 'invalid_grant' || json.error === 'invalid_client';
        throw new PublishError(grant ? 'AUTH_REVOKED' : 'AUTH_EXPIRED', `tiktok token refresh: ${json.error} ${json.error_description ?? ''}`.trim());
      }
      if (typeof json?.access_token !== 'string') throw new PublishError('AUTH_EXPIRED', 'tiktok token refresh: no access_token in the answer');
      return mergeTokens(creds, json);
    };
  }

  private async api(path: string, body: unknown, auth: OAuthSession, http: HttpOptions, what: string): Promise<{ json: ParsedJson; text: string }> {
    const res = await auth.call((token) =>
      send(
        `${this.opts.apiBase}${path}`,
        { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) },
        http,
      ),
    );
    const answer = await readBody(res);
    const code = answer.json?.error?.code;
    if (!res.ok || (typeof code === 'string' && code !== 'ok')) throw tiktokErrorOf(res, answer, what);
    return answer;
  }

  private async init(input: PublishInput, auth: OAuthSession, http: HttpOptions): Promise<TikTokState> {
    const { chunkSize, chunkCount } = tiktokChunks(input.sizeBytes, this.opts.chunkBytes);
    const { json } = await this.api(
      '/v2/post/publish/video/init/',
      {
        post_info: tiktokPostInfo(input.metadata),
        source_info: { source: 'FILE_UPLOAD', video_size: input.sizeBytes, chunk_size: chunkSize, total_chunk_count: chunkCount },
      },
      auth,
      http,
      'tiktok init',
    );
    const publishId = json?.data?.publish_id;
    const uploadUrl = json?.data?.upload_url;
    if (typeof publishId !== 'string' || typeof uploadUrl !== 'string')
      throw new PublishError('UPLOAD_FAILED', 'tiktok init: no publish_id or upload_url in the answer');
    return { platform: 'tiktok', key: input.idempotencyKey, publishId, uploadUrl, size: input.sizeBytes, chunkSize, chunkCount };
  }

  /**
   * PUTs chunks `from`.. to the upload URL (it carries its own authorisation). When `resuming`, a 4xx
   * (URL expired) returns false: the caller starts a new post, the old one never completes.
   */
  private async upload(file: string, s: TikTokState, from: number, http: HttpOptions, resuming: boolean): Promise<boolean> {
    for (let i = from; i < s.chunkCount; i++) {
      const start = i * s.chunkSize;
      const end = i === s.chunkCount - 1 ? s.size - 1 : start + s.chunkSize - 1;
      const chunk = await readChunk(file, start, end - start + 1);
      const res = await send(
        s.uploadUrl,
        { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${start}-${end}/${s.size}` }, body: chunk },
        http,
      );
      if (res.status === 201 || res.status === 206 || res.ok) {
        await res.body?.cancel().catch(() => {});
        continue;
      }
      if (resuming && res.status >= 400 && res.status < 500 && res.status !== 429) {
        await res.body?.cancel().catch(() => {});
        return false;
      }
      const err = await tiktokError(res, `tiktok upload chunk ${i + 1}/${s.chunkCount}`);
      // A refused chunk is a transfer failure, not a metadata one; the next attempt resumes the same post.
      if (err.error_code === 'METADATA_REJECTED' || err.error_code === 'AUTH_REVOKED' || err.error_code === 'AUTH_EXPIRED') {
        throw new PublishError('UPLOAD_FAILED', err.message, { status: res.status, retryable: true });
      }
      throw err;
    }
    return true;
  }

  private async status(publishId: string, auth: OAuthSession, http: HttpOptions): Promise<Status> {
    const { json, text } = await this.api('/v2/post/publish/status/fetch/', { publish_id: publishId }, auth, http, 'tiktok status');
    const data = json?.data ?? {};
    // Post ids are 64-bit: read them from the text, JSON numbers would lose digits.
    const m = /"publicaly?_available_post_id"\s*:\s*\[\s*"?(\d+)/.exec(text);
    const out: Status = { status: String(data.status ?? '') };
    if (m) out.postId = m[1];
    if (typeof data.fail_reason === 'string' && data.fail_reason) out.failReason = data.fail_reason;
    if (typeof data.uploaded_bytes === 'number') out.uploadedBytes = data.uploaded_bytes;
    return out;
  }

  private async poll(publishId: string, auth: OAuthSession, http: HttpOptions, signal?: AbortSignal): Promise<string | undefined> {
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      const st = await this.status(publishId, auth, http);
      if (st.status === 'PUBLISH_COMPLETE') return st.postId;
      if (st.status === 'FAILED') throw new PublishError('PROCESSING_FAILED', `tiktok could not publish ${publishId}: ${st.failReason ?? 'no reason given'}`);
      if (Date.now() >= deadline) {
        // Still processing: the next attempt polls the same publish_id again.
        throw new PublishError('PROCESSING_FAILED', `tiktok still processing ${publishId} after ${this.opts.pollTimeoutMs} ms`, { retryable: true });
      }
      await sleep(this.opts.pollIntervalMs, signal);
    }
  }
}
