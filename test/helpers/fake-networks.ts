import crypto from 'node:crypto';
import { FakeServer, parseContentRange, type Answer, type Req } from './fake-network-server.js';

export { FakeServer, parseContentRange, type Answer, type Failure, type Req } from './fake-network-server.js';

/**
 * Loopback stand-ins for the publishing networks, close enough to their protocols to prove the adapters:
 * they check paths, headers, tokens, bodies and Content-Range arithmetic, keep what was published, and can
 * be told to fail once (`failOnce`), expire every token (`expireTokens`), or fail processing.
 * A protocol mistake by the client is answered 400 and recorded in `violations` (tests assert it stays empty).
 */

// ---------------------------------------------------------------------------------------------- YouTube

export interface FakeVideo {
  id: string;
  snippet: Record<string, any>;
  status: Record<string, any>;
  bytes: Buffer;
}

interface YtSession {
  size: number;
  resource: { snippet: Record<string, any>; status: Record<string, any> };
  parts: Buffer[];
  received: number;
  videoId?: string;
}

const YT_CHUNK_UNIT = 256 * 1024;

/** YouTube Data API v3 resumable uploads and Google's OAuth token endpoint (`${url}/oauth/token`). */
export class FakeYouTube extends FakeServer {
  readonly clientId = 'yt-client.apps.googleusercontent.com';
  readonly clientSecret = 'yt-secret';
  refreshToken = '1//yt-refresh';
  readonly videos = new Map<string, FakeVideo>();
  readonly sessions = new Map<string, YtSession>();
  inits = 0;
  chunkPuts = 0;
  refreshes = 0;

  get oauthBase(): string {
    return `${this.url}/oauth`;
  }

  protected handle(r: Req): Answer {
    const p = r.url.pathname;
    if (r.method === 'POST' && p === '/oauth/token') return this.token(r);
    if (p !== '/upload/youtube/v3/videos') return { status: 404, body: { error: { code: 404, message: 'Not Found' } } };
    if (r.method === 'POST') return this.init(r);
    if (r.method === 'PUT') return this.put(r);
    return { status: 405 };
  }

  private token(r: Req): Answer {
    const f = this.form(r);
    if (f.get('grant_type') !== 'refresh_token') return this.violation(`oauth grant_type ${f.get('grant_type')}`);
    if (f.get('client_id') !== this.clientId || f.get('client_secret') !== this.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
    if (f.get('refresh_token') !== this.refreshToken)
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
    this.refreshes++;
    return {
      status: 200,
      body: { access_token: this.issueToken('ya29'), expires_in: 3599, scope: 'https://www.googleapis.com/auth/youtube.upload', token_type: 'Bearer' },
    };
  }

  private unauthorized(): Answer {
    return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', errors: [{ reason: 'authError' }] } } };
  }

  private init(r: Req): Answer {
    if (r.url.searchParams.get('uploadType') !== 'resumable' || r.url.searchParams.get('part') !== 'snippet,status')
      return this.violation(`init query ${r.url.search}`);
    if (!this.bearer(r)) return this.unauthorized();
    const failed = this.injected('init');
    if (failed) return failed;
    const size = Number(r.headers['x-upload-content-length']);
    if (!Number.isSafeInteger(size) || size <= 0) return this.violation('X-Upload-Content-Length');
    if (!String(r.headers['x-upload-content-type'] ?? '').startsWith('video/')) return this.violation('X-Upload-Content-Type');
    if (!String(r.headers['content-type']).startsWith('application/json')) return this.violation('init content-type');
    const body = this.json(r);
    const title = body?.snippet?.title;
    if (typeof title !== 'string' || !title.trim() || title.length > 100 || /[<>]/.test(title)) {
      return {
        status: 400,
        body: { error: { code: 400, message: 'The request metadata specifies an invalid video title.', errors: [{ reason: 'invalidTitle' }] } },
      };
    }
    if (!['public', 'unlisted', 'private'].includes(body?.status?.privacyStatus)) return this.violation(`privacyStatus ${body?.status?.privacyStatus}`);
    this.inits++;
    const sid = crypto.randomBytes(8).toString('hex');
    this.sessions.set(sid, { size, resource: body, parts: [], received: 0 });
    return { status: 200, headers: { location: `${this.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=${sid}` } };
  }

  private put(r: Req): Answer {
    const s = this.sessions.get(r.url.searchParams.get('upload_id') ?? '');
    if (!s) return { status: 404, body: { error: { code: 404, message: 'upload session not found' } } };
    if (!this.bearer(r)) return this.unauthorized();
    const cr = parseContentRange(r.headers['content-range']);
    if (!cr || cr.total !== s.size) return this.violation(`Content-Range ${r.headers['content-range']} for ${s.size} bytes`);
    if (cr.start === undefined) {
      if (r.body.length !== 0) return this.violation('status query with a body');
      return this.position(s);
    }
    this.chunkPuts++;
    const failed = this.injected('chunk');
    if (failed) return failed;
    if (s.videoId) return this.position(s);
    const length = cr.end! - cr.start + 1;
    if (cr.start !== s.received) return this.violation(`chunk starts at ${cr.start}, session holds ${s.received}`);
    if (r.body.length !== length) return this.violation(`chunk of ${r.body.length} bytes announced as ${length}`);
    if (cr.end! + 1 < s.size && length % YT_CHUNK_UNIT !== 0) return this.violation(`non-final chunk of ${length} bytes is not a multiple of 256 KiB`);
    s.parts.push(r.body);
    s.received += length;
    if (s.received === s.size) {
      const id = crypto.randomBytes(8).toString('base64url').slice(0, 11);
      s.videoId = id;
      this.videos.set(id, { id, snippet: s.resource.snippet, status: s.resource.status, bytes: Buffer.concat(s.parts) });
    }
    return this.position(s);
  }

  private position(s: YtSession): Answer {
    if (s.videoId) {
      const v = this.videos.get(s.videoId)!;
      return { status: 200, body: { kind: 'youtube#video', id: v.id, snippet: v.snippet, status: { ...v.status, uploadStatus: 'uploaded' } } };
    }
    return { status: 308, headers: s.received > 0 ? { range: `bytes=0-${s.received - 1}` } : {} };
  }
}

// ---------------------------------------------------------------------------------------------- TikTok

interface TtPost {
  publishId: string;
  postInfo: Record<string, any>;
  size: number;
  chunkSize: number;
  chunkCount: number;
  uploadToken: string;
  parts: Buffer[];
  received: number;
  nextChunk: number;
  status: 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'PUBLISH_COMPLETE' | 'FAILED';
  polls: number;
  postId?: string;
}

const TT_PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];

/** TikTok Content Posting API (direct post, FILE_UPLOAD) and the v2 OAuth token endpoint. */
export class FakeTikTok extends FakeServer {
  readonly clientKey = 'tt-client-key';
  readonly clientSecret = 'tt-secret';
  refreshToken = 'rft.tt-1';
  readonly openId = '_000abcOPENID';
  /** The real minimum is 5 MB; tests use small files. */
  minChunkBytes = 64 * 1024;
  /** Status answers in PROCESSING_DOWNLOAD before PUBLISH_COMPLETE. */
  processingPolls = 1;
  failProcessing = false;
  readonly posts = new Map<string, TtPost>();
  inits = 0;
  refreshes = 0;
  onUploadComplete?: (publishId: string) => void;

  published(): TtPost[] {
    return [...this.posts.values()].filter((p) => p.status === 'PUBLISH_COMPLETE');
  }

  protected handle(r: Req): Answer {
    const p = r.url.pathname;
    if (r.method === 'POST' && p === '/v2/oauth/token/') return this.token(r);
    if (r.method === 'POST' && p === '/v2/post/publish/video/init/') return this.init(r);
    if (r.method === 'POST' && p === '/v2/post/publish/status/fetch/') return this.status(r);
    if (r.method === 'PUT' && p === '/upload/') return this.chunk(r);
    return { status: 404, body: this.err('not_found') };
  }

  private err(code: string, message = code): unknown {
    return { error: { code, message, log_id: crypto.randomBytes(6).toString('hex') } };
  }

  private token(r: Req): Answer {
    const f = this.form(r);
    if (f.get('client_key') !== this.clientKey || f.get('client_secret') !== this.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
    if (f.get('grant_type') !== 'refresh_token' || f.get('refresh_token') !== this.refreshToken) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Refresh token is invalid or expired.' } };
    }
    this.refreshes++;
    this.refreshToken = `rft.tt-${this.refreshes + 1}`; // TikTok rotates refresh tokens
    return {
      status: 200,
      body: {
        access_token: this.issueToken('act'),
        expires_in: 86400,
        open_id: this.openId,
        refresh_expires_in: 31536000,
        refresh_token: this.refreshToken,
        scope: 'video.publish',
        token_type: 'Bearer',
      },
    };
  }

  private authed(r: Req, step: string): Answer | undefined {
    if (!String(r.headers['content-type'] ?? '').startsWith('application/json')) return this.violation(`${step} content-type`);
    if (!this.bearer(r)) return { status: 401, body: this.err('access_token_invalid', 'The access token is invalid or not found in the request.') };
    return this.injected(step);
  }

  private init(r: Req): Answer {
    const early = this.authed(r, 'init');
    if (early) return early;
    const b = this.json(r);
    const pi = b?.post_info ?? {};
    const si = b?.source_info ?? {};
    if (!TT_PRIVACY.includes(pi.privacy_level)) return { status: 400, body: this.err('invalid_params', 'privacy_level') };
    if (pi.title !== undefined && (typeof pi.title !== 'string' || pi.title.length > 2200)) return { status: 400, body: this.err('invalid_params', 'title') };
    for (const k of ['disable_comment', 'disable_duet', 'disable_stitch'])
      if (pi[k] !== undefined && typeof pi[k] !== 'boolean') return this.violation(`post_info.${k}`);
    if (si.source !== 'FILE_UPLOAD') return this.violation(`source ${si.source}`);
    const { video_size: size, chunk_size: cs, total_chunk_count: n } = si;
    if (!Number.isSafeInteger(size) || size <= 0) return this.violation('video_size');
    const whole = size < this.minChunkBytes || (cs === size && n === 1);
    if (whole ? cs !== size || n !== 1 : cs < this.minChunkBytes || cs > 64 * 1024 * 1024 || n !== Math.floor(size / cs)) {
      return { status: 400, body: this.err('invalid_params', `chunk_size ${cs} / total_chunk_count ${n} do not fit video_size ${size}`) };
    }
    this.inits++;
    const publishId = `v_pub_file~v2-1.${7300000000000000000n + BigInt(this.inits)}`;
    const post: TtPost = {
      publishId,
      postInfo: pi,
      size,
      chunkSize: cs,
      chunkCount: n,
      uploadToken: crypto.randomBytes(6).toString('hex'),
      parts: [],
      received: 0,
      nextChunk: 0,
      status: 'PROCESSING_UPLOAD',
      polls: 0,
    };
    this.posts.set(publishId, post);
    return {
      status: 200,
      body: {
        data: { publish_id: publishId, upload_url: `${this.url}/upload/?upload_id=${this.inits}&upload_token=${post.uploadToken}` },
        error: { code: 'ok', message: '', log_id: 'x' },
      },
    };
  }

  private chunk(r: Req): Answer {
    const post = [...this.posts.values()].find((p) => p.uploadToken === r.url.searchParams.get('upload_token'));
    if (!post) return { status: 404, body: this.err('upload_url_invalid') };
    const failed = this.injected('chunk');
    if (failed) return failed;
    if (!['video/mp4', 'video/quicktime', 'video/webm'].includes(String(r.headers['content-type']))) return this.violation('chunk content-type');
    const cr = parseContentRange(r.headers['content-range']);
    const i = post.nextChunk;
    const start = i * post.chunkSize;
    const end = i === post.chunkCount - 1 ? post.size - 1 : start + post.chunkSize - 1;
    if (!cr || cr.total !== post.size || cr.start !== start || cr.end !== end)
      return this.violation(`chunk ${i}: Content-Range ${r.headers['content-range']}, expected bytes ${start}-${end}/${post.size}`);
    if (r.body.length !== end - start + 1) return this.violation(`chunk ${i} has ${r.body.length} bytes`);
    post.parts.push(r.body);
    post.received += r.body.length;
    post.nextChunk++;
    if (post.nextChunk < post.chunkCount) return { status: 206 };
    post.status = 'PROCESSING_DOWNLOAD';
    this.onUploadComplete?.(post.publishId);
    return { status: 201 };
  }

  private status(r: Req): Answer {
    const early = this.authed(r, 'status');
    if (early) return early;
    const post = this.posts.get(this.json(r)?.publish_id);
    if (!post) return { status: 400, body: this.err('invalid_publish_id') };
    if (post.status === 'PROCESSING_DOWNLOAD' && ++post.polls > this.processingPolls) {
      post.status = this.failProcessing ? 'FAILED' : 'PUBLISH_COMPLETE';
      if (!this.failProcessing) post.postId = String(7345678901234567890n + BigInt(this.published().length));
    }
    const fail = post.status === 'FAILED' ? `,"fail_reason":"file_format_check_failed"` : '';
    const ids = post.postId ? `[${post.postId}]` : '[]'; // a JSON number of 19 digits, like TikTok's
    return {
      status: 200,
      body: `{"data":{"status":"${post.status}"${fail},"publicaly_available_post_id":${ids},"uploaded_bytes":${post.received}},"error":{"code":"ok","message":"","log_id":"x"}}`,
    };
  }
}

// ---------------------------------------------------------------------------------------------- Instagram

interface IgContainer {
  id: string;
  params: URLSearchParams;
  bytes?: Buffer;
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
  polls: number;
  mediaId?: string;
}

export interface IgMedia {
  id: string;
  caption: string;
  permalink: string;
  timestamp: string;
  containerId: string;
}

/** Instagram Graph API (Reels, resumable upload), `rupload` on the same server. */
export class FakeInstagram extends FakeServer {
  readonly version = 'v21.0';
  readonly igUserId = '17841400000000001';
  processingPolls = 1;
  failProcessing = false;
  readonly containers = new Map<string, IgContainer>();
  readonly media: IgMedia[] = [];
  publishCalls = 0;
  uploads = 0;
  private seq = 17900000000000000n;

  protected handle(r: Req): Answer {
    const p = r.url.pathname;
    const up = new RegExp(`^/ig-api-upload/${this.version.replace('.', '\\.')}/(\\d+)$`).exec(p);
    if (up && r.method === 'POST') return this.upload(r, up[1]);
    const m = new RegExp(`^/${this.version.replace('.', '\\.')}/(\\d+)(?:/(media|media_publish))?$`).exec(p);
    if (!m) return { status: 404, body: this.err(100, 'Unknown path') };
    if (!this.bearer(r)) return { status: 400, body: this.err(190, 'Error validating access token: Session has expired.', 463, 'OAuthException') };
    const [, id, edge] = m;
    if (edge && id !== this.igUserId) return { status: 400, body: this.err(100, 'Unsupported request: object does not exist') };
    const params = r.method === 'POST' ? this.form(r) : r.url.searchParams;
    for (const [k, v] of r.url.searchParams) if (!params.has(k)) params.set(k, v);
    if (edge === 'media' && r.method === 'POST') return this.create(params);
    if (edge === 'media' && r.method === 'GET')
      return { status: 200, body: { data: [...this.media].reverse().map(({ id: mid, caption, timestamp }) => ({ id: mid, caption, timestamp })) } };
    if (edge === 'media_publish' && r.method === 'POST') return this.publish(params);
    if (!edge && r.method === 'GET') return this.read(id, params);
    return { status: 400, body: this.err(100, 'Unsupported request') };
  }

  err(code: number, message: string, subcode?: number, type = 'OAuthException'): unknown {
    return { error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbC' } };
  }

  private create(p: URLSearchParams): Answer {
    const failed = this.injected('container');
    if (failed) return failed;
    if (p.get('media_type') !== 'REELS' || p.get('upload_type') !== 'resumable')
      return this.violation(`container media_type ${p.get('media_type')} upload_type ${p.get('upload_type')}`);
    const caption = p.get('caption') ?? '';
    if (caption.length > 2200 || (caption.match(/#\w+/g) ?? []).length > 30) return { status: 400, body: this.err(100, 'Invalid parameter: caption', 2207028) };
    const sf = p.get('share_to_feed');
    if (sf !== null && sf !== 'true' && sf !== 'false') return this.violation(`share_to_feed ${sf}`);
    const id = String(++this.seq);
    this.containers.set(id, { id, params: p, status: 'IN_PROGRESS', polls: 0 });
    return { status: 200, body: { id, uri: `https://rupload.facebook.com/ig-api-upload/${this.version}/${id}` } };
  }

  private upload(r: Req, id: string): Answer {
    const c = this.containers.get(id);
    if (!c) return { status: 400, body: { debug_info: { retriable: false, type: 'NotFoundError', message: 'container not found' } } };
    if (!this.bearer(r, 'OAuth')) return { status: 400, body: this.err(190, 'Invalid OAuth access token.', 463) };
    const failed = this.injected('upload');
    if (failed) return failed;
    const offset = Number(r.headers.offset);
    const size = Number(r.headers.file_size);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset !== 0)
      return this.violation(`upload headers offset=${r.headers.offset} file_size=${r.headers.file_size}`);
    if (r.body.length !== size - offset) return this.violation(`upload of ${r.body.length} bytes, file_size ${size}`);
    if (c.status !== 'IN_PROGRESS' || c.polls > 0)
      return { status: 400, body: { debug_info: { retriable: false, type: 'ProcessingFailedError', message: 'already uploaded' } } };
    this.uploads++;
    c.bytes = r.body;
    return { status: 200, body: { success: true, message: 'Upload successful.' } };
  }

  private read(id: string, p: URLSearchParams): Answer {
    const media = this.media.find((x) => x.id === id);
    if (media) {
      if (p.get('fields') !== 'permalink') return this.violation(`media fields ${p.get('fields')}`);
      return { status: 200, body: { permalink: media.permalink, id } };
    }
    const c = this.containers.get(id);
    if (!c) return { status: 400, body: this.err(100, `Unsupported get request. Object with ID '${id}' does not exist`, 33, 'GraphMethodException') };
    const failed = this.injected('status');
    if (failed) return failed;
    if (!p.get('fields')?.split(',').includes('status_code')) return this.violation(`container fields ${p.get('fields')}`);
    if (c.status === 'IN_PROGRESS' && c.bytes && ++c.polls > this.processingPolls) c.status = this.failProcessing ? 'ERROR' : 'FINISHED';
    return { status: 200, body: { status_code: c.status, status: c.status === 'ERROR' ? 'Error: 2207026' : c.status, id } };
  }

  private publish(p: URLSearchParams): Answer {
    this.publishCalls++;
    const failed = this.injected('publish');
    if (failed) return failed;
    const c = this.containers.get(p.get('creation_id') ?? '');
    if (!c) return { status: 400, body: this.err(100, 'Invalid parameter: creation_id') };
    if (c.status === 'PUBLISHED') return { status: 400, body: this.err(9007, 'The media has already been published', 2207006) };
    if (c.status !== 'FINISHED') return { status: 400, body: this.err(9007, 'Media ID is not available', 2207027) };
    c.status = 'PUBLISHED';
    const id = String(++this.seq);
    c.mediaId = id;
    this.media.push({
      id,
      caption: c.params.get('caption') ?? '',
      permalink: `https://www.instagram.com/reel/C${id.slice(-8)}/`,
      timestamp: new Date().toISOString().replace('Z', '+0000'),
      containerId: c.id,
    });
    return { status: 200, body: { id } };
  }
}
