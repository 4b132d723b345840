import type { Credentials, Publisher, PublishInput, PublishResult } from '../../ports/publisher.js';
import { PublishError } from '../../ports/publisher.js';
import { checkFile, checkMetadata, codeForStatus, fileStream, httpError, ownState, readBody, send, sleep, type HttpOptions } from './publish-http.js';
import { checkInstagramCredentials } from './credentials-check.js';
import type { ParsedJson } from '../../shared/json.js';

/**
 * Instagram Graph API, Reels with a resumable upload (developers.facebook.com/docs/instagram-platform/content-publishing/resumable-uploads):
 * `POST /<ig-user-id>/media` (media_type=REELS, upload_type=resumable) → container id, saved through
 * `onState`; POST the bytes to `<upload base>/ig-api-upload/<version>/<container-id>`; poll
 * `GET /<container-id>?fields=status_code` until FINISHED; `POST /<ig-user-id>/media_publish` → media id
 * (saved too); `GET /<media-id>?fields=permalink`. A later attempt reuses the saved container (or media):
 * a container publishes at most once, and an ERROR or EXPIRED one never went public.
 * Instagram has no refresh-token grant: an expired long-lived token is AUTH_EXPIRED (docs/publishing.md).
 */

export interface InstagramPublisherOptions {
  /** `https://graph.facebook.com` */
  graphBase: string;
  /** `https://rupload.facebook.com` */
  uploadBase: string;
  /** `v21.0` */
  apiVersion: string;
  requestTimeoutMs: number;
  pollIntervalMs: number;
  pollTimeoutMs: number;
}

interface InstagramState {
  platform: 'instagram';
  key: string;
  containerId: string;
  /** ISO instant the container was made (to find the media again if publishing answered but was not saved). */
  createdAt: string;
  uploaded?: boolean;
  mediaId?: string;
}

const PARAMS: Record<string, string> = {
  caption: 'caption',
  shareToFeed: 'share_to_feed',
  thumbOffset: 'thumb_offset',
  coverUrl: 'cover_url',
  locationId: 'location_id',
  audioName: 'audio_name',
  collaborators: 'collaborators',
};

/** Parameters of the container call from the network's fields; other keys are not sent. */
export function instagramContainerParams(metadata: Record<string, unknown>): URLSearchParams {
  const p = new URLSearchParams({ media_type: 'REELS', upload_type: 'resumable' });
  const fields: Record<string, unknown> = { shareToFeed: true, ...metadata };
  for (const [k, wire] of Object.entries(PARAMS)) {
    const v = fields[k];
    if (v === undefined) continue;
    p.set(wire, Array.isArray(v) ? JSON.stringify(v) : String(v));
  }
  return p;
}

const RATE_CODES = new Set([4, 17, 32, 613]);
const QUOTA_SUBCODES = new Set([2207042]);
const REVOKED_SUBCODES = new Set([458, 459, 460, 464]);

/** Maps a Graph API error (`{ error: { message, code, error_subcode } }`) to a PublishError. */
export async function instagramError(res: Response, what: string): Promise<PublishError> {
  const { text, json } = await readBody(res);
  const e = json?.error ?? {};
  const code = Number(e.code);
  const sub = Number(e.error_subcode);
  const detail = [Number.isFinite(code) ? `code ${code}${Number.isFinite(sub) ? `/${sub}` : ''}` : '', e.message].filter(Boolean).join(': ') || text;
  if (QUOTA_SUBCODES.has(sub)) return httpError('QUOTA_EXCEEDED', what, res, detail);
  if (RATE_CODES.has(code) || (code >= 80001 && code <= 80099) || res.status === 429) return httpError('RATE_LIMITED', what, res, detail, { retryable: true });
  if (code === 190) return httpError(REVOKED_SUBCODES.has(sub) ? 'AUTH_REVOKED' : 'AUTH_EXPIRED', what, res, detail);
  if (code === 10 || (code >= 200 && code <= 299)) return httpError('AUTH_REVOKED', what, res, detail);
  if (code === 100 || code === 9 || code === 36000 || code === 352) {
    return httpError('METADATA_REJECTED', what, res, detail, /caption/i.test(String(e.message)) ? { field: 'instagram.caption' } : {});
  }
  if (code === 1 || code === 2) return httpError('UPLOAD_FAILED', what, res, detail, { retryable: true });
  return httpError(codeForStatus(res.status), what, res, detail);
}

export class InstagramPublisher implements Publisher {
  readonly platform = 'instagram';
  readonly canPublishVideo = true;

  constructor(private readonly opts: InstagramPublisherOptions) {}

  checkCredentials(credentials: Credentials): string | null {
    return checkInstagramCredentials(credentials);
  }

  async publish(input: PublishInput): Promise<PublishResult> {
    checkMetadata('instagram', input.metadata);
    await checkFile(input.file, input.sizeBytes);
    const token = input.credentials.access_token;
    const igUser = input.credentials.ig_user_id;
    if (typeof token !== 'string' || !token) throw new PublishError('AUTH_REVOKED', 'instagram: the connection has no access_token');
    if (typeof igUser !== 'string' || !/^\d+$/.test(igUser)) throw new PublishError('AUTH_REVOKED', 'instagram: the connection has no numeric ig_user_id');
    const http: HttpOptions = { timeoutMs: this.opts.requestTimeoutMs, signal: input.signal };
    const ctx: Ctx = { input, token, igUser, http };

    let state = ownState<InstagramState>(
      input.resumeState,
      'instagram',
      input.idempotencyKey,
      (s) => typeof s.containerId === 'string' && /^\d+$/.test(s.containerId),
    );
    if (state?.mediaId) return this.result(ctx, state.mediaId);
    if (state) {
      const status = await this.containerStatus(ctx, state.containerId, true);
      if (status === 'PUBLISHED') return this.result(ctx, await this.findPublished(ctx, state));
      if (status === 'ERROR' || status === 'EXPIRED' || status === 'GONE') state = undefined;
      else if (status === 'FINISHED') state = { ...state, uploaded: true };
    }
    if (!state) {
      state = { platform: 'instagram', key: input.idempotencyKey, containerId: await this.createContainer(ctx), createdAt: new Date().toISOString() };
      await input.onState?.(state);
    }
    if (!state.uploaded) {
      await this.upload(ctx, state.containerId);
      state = { ...state, uploaded: true };
      await input.onState?.(state);
    }
    await this.waitFinished(ctx, state.containerId);
    const mediaId = await this.publishContainer(ctx, state.containerId);
    await input.onState?.({ ...state, mediaId });
    return this.result(ctx, mediaId);
  }

  private graph(path: string): string {
    return `${this.opts.graphBase}/${this.opts.apiVersion}/${path}`;
  }

  private async call(ctx: Ctx, method: 'GET' | 'POST', path: string, what: string, params?: URLSearchParams): Promise<ParsedJson> {
    const url = method === 'GET' && params ? `${this.graph(path)}?${params}` : this.graph(path);
    const init: RequestInit = { method, headers: { authorization: `Bearer ${ctx.token}` } };
    if (method === 'POST') {
      init.headers = { ...init.headers, 'content-type': 'application/x-www-form-urlencoded' };
      init.body = params ?? new URLSearchParams();
    }
    const res = await send(url, init, ctx.http);
    if (!res.ok) throw await instagramError(res, what);
    const { json, text } = await readBody(res);
    if (json === undefined) throw new PublishError('UPLOAD_FAILED', `${what}: unreadable answer ${text.slice(0, 200)}`, { retryable: true });
    return json;
  }

  private async createContainer(ctx: Ctx): Promise<string> {
    const json = await this.call(ctx, 'POST', `${ctx.igUser}/media`, 'instagram container', instagramContainerParams(ctx.input.metadata));
    const id = json?.id === undefined ? '' : String(json.id);
    if (!/^\d+$/.test(id)) throw new PublishError('UPLOAD_FAILED', 'instagram container: no id in the answer');
    return id;
  }

  private async upload(ctx: Ctx, containerId: string): Promise<void> {
    const size = ctx.input.sizeBytes;
    // One stream from offset 0; the upload may take longer than one API request.
    const timeoutMs = ctx.http.timeoutMs + Math.ceil(size / 256);
    const res = await send(
      `${this.opts.uploadBase}/ig-api-upload/${this.opts.apiVersion}/${containerId}`,
      {
        method: 'POST',
        headers: {
          authorization: `OAuth ${ctx.token}`,
          offset: '0',
          file_size: String(size),
          'content-type': 'application/octet-stream',
          'content-length': String(size),
        },
        body: fileStream(ctx.input.file, 0),
      },
      { ...ctx.http, timeoutMs },
    );
    if (!res.ok) {
      const err = await instagramError(res, 'instagram upload');
      if (err.error_code === 'METADATA_REJECTED') throw new PublishError('UPLOAD_FAILED', err.message, { status: res.status, retryable: res.status >= 500 });
      throw err;
    }
    const { json } = await readBody(res);
    if (json?.success === false)
      throw new PublishError('UPLOAD_FAILED', `instagram upload refused: ${JSON.stringify(json).slice(0, 200)}`, { retryable: true });
  }

  /** `status_code` of a container; with `tolerateMissing`, a container the API no longer knows is GONE. */
  private async containerStatus(ctx: Ctx, containerId: string, tolerateMissing = false): Promise<string> {
    try {
      const json = await this.call(ctx, 'GET', containerId, 'instagram container status', new URLSearchParams({ fields: 'status_code,status' }));
      return String(json?.status_code ?? '');
    } catch (err) {
      if (tolerateMissing && err instanceof PublishError && err.error_code === 'METADATA_REJECTED' && err.status === 400) return 'GONE';
      throw err;
    }
  }

  private async waitFinished(ctx: Ctx, containerId: string): Promise<void> {
    const deadline = Date.now() + this.opts.pollTimeoutMs;
    for (;;) {
      const status = await this.containerStatus(ctx, containerId);
      if (status === 'FINISHED') return;
      if (status === 'ERROR') throw new PublishError('PROCESSING_FAILED', `instagram could not process container ${containerId}`);
      if (status === 'EXPIRED') throw new PublishError('PROCESSING_FAILED', `instagram container ${containerId} expired`, { retryable: true });
      if (status === 'PUBLISHED') throw new PublishError('PROCESSING_FAILED', `instagram container ${containerId} is already published`, { retryable: true });
      if (Date.now() >= deadline) {
        throw new PublishError('PROCESSING_FAILED', `instagram still processing container ${containerId} after ${this.opts.pollTimeoutMs} ms`, {
          retryable: true,
        });
      }
      await sleep(this.opts.pollIntervalMs, ctx.http.signal);
    }
  }

  private async publishContainer(ctx: Ctx, containerId: string): Promise<string> {
    const json = await this.call(ctx, 'POST', `${ctx.igUser}/media_publish`, 'instagram publish', new URLSearchParams({ creation_id: containerId }));
    const id = json?.id === undefined ? '' : String(json.id);
    if (!id) throw new PublishError('PROCESSING_FAILED', 'instagram publish: no media id in the answer', { retryable: true });
    return id;
  }

  /**
   * The container was published but its media id was never saved (crash right after media_publish): find
   * the media among the account's latest by caption and time. Not retryable when nothing matches.
   */
  private async findPublished(ctx: Ctx, state: InstagramState): Promise<string> {
    const json = await this.call(
      ctx,
      'GET',
      `${ctx.igUser}/media`,
      'instagram media list',
      new URLSearchParams({ fields: 'id,caption,timestamp', limit: '25' }),
    );
    const caption = typeof ctx.input.metadata.caption === 'string' ? ctx.input.metadata.caption : '';
    const since = Date.parse(state.createdAt) - 60_000;
    const items: ParsedJson[] = Array.isArray(json?.data) ? json.data : [];
    const hit = items.find((m) => (m?.caption ?? '') === caption && (Number.isNaN(since) || Date.parse(String(m?.timestamp)) >= since));
    if (!hit?.id)
      throw new PublishError('PROCESSING_FAILED', `instagram container ${state.containerId} is published but its media was not found`, { retryable: false });
    return String(hit.id);
  }

  private async result(ctx: Ctx, mediaId: string): Promise<PublishResult> {
    const json = await this.call(ctx, 'GET', mediaId, 'instagram permalink', new URLSearchParams({ fields: 'permalink' }));
    if (typeof json?.permalink !== 'string' || !json.permalink)
      throw new PublishError('UPLOAD_FAILED', `instagram media ${mediaId}: no permalink`, { retryable: true });
    return { publishedUrl: json.permalink, externalId: mediaId };
  }
}

interface Ctx {
  input: PublishInput;
  token: string;
  igUser: string;
  http: HttpOptions;
}
