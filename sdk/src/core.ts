/**
 * The client without any Node module: the API calls, waits, retries and the uploads' common steps. The
 * Node entry (client.ts, `@cutroom/sdk`) and the browser entry (browser.ts, `@cutroom/sdk/browser`)
 * each add how a file is read and sent.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';
import { CutroomError } from './errors.js';
import { defaultSleep, retryPolicy, retryingFetch, type RetryOptions, type RetryPolicy, type Sleep } from './retry.js';
import { sendParts, uploadTargets, type PutPart, type UploadSource, type UploadVideoOptions } from './upload.js';
import { ok } from './call.js';
import { createResources, type Resources } from './resources.js';
import { multipartUploads, type GenerationUploads, type PersonaUploads } from './multipart.js';

export { ok } from './call.js';
export type { Answer, CallOptions, PostOptions } from './call.js';

export type Schemas = components['schemas'];
export type VideoAnalysis = Schemas['VideoAnalysis'];
export type Submission = Schemas['Submission'];
export type Render = Schemas['Render'];
export type Transcription = Schemas['Transcription'];
export type Post = Schemas['Post'];
export type Persona = Schemas['Persona'];
export type PersonaVideo = Schemas['PersonaVideo'];
export type Generation = Schemas['Generation'];
export type Edit = Schemas['Edit'];
export type EditVersionList = Schemas['EditVersionList'];
export type Clip = Schemas['Clip'];
/** The body of POST /edits: the base and the changes. */
export type DeriveEditRequest = paths['/api/v1/edits']['post']['requestBody']['content']['application/json'];
/** An uploaded file to transcribe: `media_id` is the `media_id` of POST /transcriptions. */
export type MediaUpload = { media_id: string; kind: 'audio' | 'video'; file_name: string; file_size: number };
/** A persona's source video, uploaded and measured (POST /personas/sources/upload/complete): `media_id` goes to the swap quote and POST /personas/{id}/videos. */
export type PersonaSource = Schemas['PersonaSource'];

/** The long-running jobs the `waitFor…` helpers watch. */
export type JobKind = 'submission' | 'render' | 'transcription' | 'post' | 'persona' | 'persona_video' | 'generation';

export interface CutroomOptions {
  /** The service's address (`https://cutroom.example.com`) or its API's (`…/api/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Sent as `X-Workspace-Id`: required with a key bound to several workspaces. */
  workspaceId?: string;
  retry?: RetryOptions;
  /**
   * Milliseconds between two polls of a job. Default, as the API asks: a random pick between 10 and 15 s
   * for submissions, 5 s for a persona's portrait, 10 s for a persona video, and between 5 and 10 s for
   * the others.
   */
  pollIntervalMs?: (kind: JobKind) => number;
  /** The fetch the API calls go through (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** How the client waits between retries and polls (tests pass a fake clock). */
  sleep?: Sleep;
}

export interface WaitOptions<T> {
  /** Milliseconds between polls, overriding the client's `pollIntervalMs`. */
  intervalMs?: number;
  /** Give up after this long: CutroomError `WAIT_TIMEOUT` with the job as last seen (default: never). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Sees every state polled (progress bars, logs). */
  onPoll?: (job: T) => void;
}

const between = (min: number, max: number) => min + Math.random() * (max - min);

export const defaultPollIntervalMs = (kind: JobKind): number => {
  if (kind === 'submission') return Math.round(between(10_000, 15_000));
  // GET /personas/{id}: "poll every 5 seconds"; GET /personas/{id}/videos/{videoId}: "every 10 seconds".
  if (kind === 'persona') return 5_000;
  if (kind === 'persona_video') return 10_000;
  return Math.round(between(5_000, 10_000));
};

/**
 * A random UUID (v4) for an Idempotency-Key. `crypto.randomUUID` exists only in secure contexts (a
 * page served over plain HTTP on a LAN address has none); `getRandomValues` exists everywhere.
 */
export function randomId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Auth and workspace headers, an Idempotency-Key on every POST, and a CutroomError for every error answer. */
function middleware(opts: CutroomOptions): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('x-api-key', opts.apiKey);
      if (opts.workspaceId) request.headers.set('x-workspace-id', opts.workspaceId);
      // One key per call, repeated by every retry of it (src/http/plugins/idempotency.ts on the service).
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', randomId());
      return request;
    },
    async onResponse({ response }) {
      if (!response.ok) throw await CutroomError.fromResponse(response);
      return undefined;
    },
  };
}

/**
 * A client of the Cutroom API. Its resources call every operation with typed arguments, one object per
 * tag of the OpenAPI document (`cutroom.clips.create({ video_id })`, `cutroom.renders.get(renderId)`,
 * generated from the operationIds: sdk/README.md); `api` calls any operation by path
 * (`await ok(cutroom.api.GET('/api/v1/renders/{renderId}', { params: { path: { renderId } } }))`); the
 * other methods are the helpers callers would otherwise write: uploads, waits. Each entry's `Cutroom`
 * extends it with `uploadVideo` and `uploadMedia` for its kind of file.
 */
export class CutroomCore {
  readonly api: Client<paths>;
  readonly workspace: Resources['workspace'];
  readonly balance: Resources['balance'];
  readonly videos: Resources['videos'];
  /** Clipping jobs: POST /clips creates a submission (`clips` is the same object). */
  readonly submissions: Resources['submissions'];
  /** `submissions` by the name of its paths: `clips.create(body)` is POST /clips, `clips.listClips(videoId, submissionId)` its clips. */
  readonly clips: Resources['submissions'];
  readonly templates: Resources['templates'];
  readonly renders: Resources['renders'];
  readonly edits: Resources['edits'];
  readonly connections: Resources['connections'];
  readonly posts: Resources['posts'];
  readonly transcriptions: Resources['transcriptions'];
  /** The Generations operations, and `uploadImage(blob)` (multipart). */
  readonly generations: Resources['generations'] & GenerationUploads;
  /** The Personas operations, and `uploadFace(blob, { own_face_adult: true })` (multipart). */
  readonly personas: Resources['personas'] & PersonaUploads;
  readonly webhooks: Resources['webhooks'];
  readonly monitors: Resources['monitors'];
  private readonly policy: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly pollIntervalMs: (kind: JobKind) => number;

  constructor(opts: CutroomOptions) {
    this.policy = retryPolicy(opts.retry);
    this.sleep = opts.sleep ?? defaultSleep;
    this.pollIntervalMs = opts.pollIntervalMs ?? defaultPollIntervalMs;
    const baseUrl = opts.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    const base = opts.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.api = createClient<paths>({ baseUrl, fetch: retryingFetch(base, this.policy, this.sleep) });
    this.api.use(middleware(opts));
    const r = createResources(this.api);
    this.workspace = r.workspace;
    this.balance = r.balance;
    this.videos = r.videos;
    this.submissions = r.submissions;
    this.clips = r.submissions;
    this.templates = r.templates;
    this.renders = r.renders;
    this.edits = r.edits;
    this.connections = r.connections;
    this.posts = r.posts;
    this.transcriptions = r.transcriptions;
    const forms = multipartUploads(this.api);
    this.generations = { ...r.generations, ...forms.generations };
    this.personas = { ...r.personas, ...forms.personas };
    this.webhooks = r.webhooks;
    this.monitors = r.monitors;
  }

  /**
   * Uploads a video and completes it: POST /videos/upload, the bytes to the signed URL (or, above the
   * service's multipart threshold, to each part's URL in order), POST /videos/upload/complete. Answers
   * the measured video (`id` is the `video_id` of POST /clips) with its price.
   */
  protected async uploadVideoFrom<B>(source: UploadSource<B>, put: PutPart<B>, opts: UploadVideoOptions): Promise<VideoAnalysis> {
    const upload = await ok(
      this.api.POST('/api/v1/videos/upload', {
        body: {
          file_name: source.fileName,
          file_size: source.size,
          content_type: source.contentType,
          ...(opts.duration === undefined ? {} : { duration: opts.duration }),
        },
        signal: opts.signal,
      }),
    );
    await sendParts(source, uploadTargets(upload, source.size), put, {
      onProgress: opts.onProgress,
      signal: opts.signal,
      policy: this.policy,
      sleep: this.sleep,
    });
    return ok(this.api.POST('/api/v1/videos/upload/complete', { body: { video_id: upload.video_id, file_name: source.fileName }, signal: opts.signal }));
  }

  /**
   * Uploads an audio or video file to transcribe: POST /transcriptions/upload, then the bytes to its
   * signed URL (one PUT). The first POST /transcriptions of the answered `media_id` completes the upload.
   */
  protected async uploadMediaFrom<B>(source: UploadSource<B>, put: PutPart<B>, opts: UploadVideoOptions): Promise<MediaUpload> {
    const upload = await ok(
      this.api.POST('/api/v1/transcriptions/upload', {
        body: { file_name: source.fileName, file_size: source.size, content_type: source.contentType },
        signal: opts.signal,
      }),
    );
    await sendParts(source, [{ url: upload.upload_url, start: 0, length: source.size }], put, {
      onProgress: opts.onProgress,
      signal: opts.signal,
      policy: this.policy,
      sleep: this.sleep,
    });
    return { media_id: upload.media_id, kind: upload.kind, file_name: source.fileName, file_size: source.size };
  }

  /**
   * Uploads a persona's source video and registers it: POST /personas/sources/upload, the bytes to its
   * signed URL (one PUT), POST /personas/sources/upload/complete. Answers the measured source (`duration`
   * and the `media_id` of GET /personas/swap/quote and POST /personas/{id}/videos). Nothing is charged.
   */
  protected async uploadPersonaSourceFrom<B>(source: UploadSource<B>, put: PutPart<B>, opts: UploadVideoOptions): Promise<PersonaSource> {
    const upload = await this.personas.createSourceUpload(
      { file_name: source.fileName, file_size: source.size, content_type: source.contentType },
      { signal: opts.signal },
    );
    await sendParts(source, [{ url: upload.upload_url, start: 0, length: source.size }], put, {
      onProgress: opts.onProgress,
      signal: opts.signal,
      policy: this.policy,
      sleep: this.sleep,
    });
    return this.personas.completeSourceUpload({ media_id: upload.media_id }, { signal: opts.signal });
  }

  /** GET /edits/{id}: the edit as a document (segments, indexed words, layout, captions, title). */
  getEdit(editId: string, opts: { signal?: AbortSignal } = {}): Promise<Edit> {
    return ok(this.api.GET('/api/v1/edits/{editId}', { params: { path: { editId } }, signal: opts.signal }));
  }

  /** POST /edits: a new edit derived from `base_edit_id` (which never changes); a clip's becomes its `edit_id`. */
  deriveEdit(body: DeriveEditRequest, opts: { signal?: AbortSignal } = {}): Promise<Edit> {
    return ok(this.api.POST('/api/v1/edits', { body, signal: opts.signal }));
  }

  /** GET /edits/{id}/versions: every version of the same clip, newest first (one page). */
  listEditVersions(editId: string, opts: { page?: number; limit?: number; signal?: AbortSignal } = {}): Promise<EditVersionList> {
    const { signal, ...query } = opts;
    return ok(this.api.GET('/api/v1/edits/{editId}/versions', { params: { path: { editId }, query }, signal }));
  }

  /** PATCH …/clips/{clipId}: sets the clip's review (`kept`, `skipped`, or null to clear); answers the Clip. */
  setClipReview(videoId: string, submissionId: string, clipId: string, review: 'kept' | 'skipped' | null, opts: { signal?: AbortSignal } = {}): Promise<Clip> {
    return ok(
      this.api.PATCH('/api/v1/clips/{videoId}/submissions/{submissionId}/clips/{clipId}', {
        params: { path: { videoId, submissionId, clipId } },
        body: { review },
        signal: opts.signal,
      }),
    );
  }

  /** Polls a submission until `completed` (answered); `failed` throws CutroomError `SUBMISSION_FAILED` with the submission in `extra`. */
  waitForSubmission(videoId: string, submissionId: string, opts: WaitOptions<Submission> = {}): Promise<Submission> {
    const get = () =>
      ok(this.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}', { params: { path: { videoId, submissionId } }, signal: opts.signal }));
    return this.poll('submission', get, (s) => (s.status === 'completed' ? 'done' : s.status === 'failed' ? 'SUBMISSION_FAILED' : 'wait'), opts);
  }

  /** Polls a render until `completed` (answered, `download_url` filled); `failed` throws `RENDER_FAILED`, `expired` `RENDER_FILE_EXPIRED`. */
  waitForRender(renderId: string, opts: WaitOptions<Render> = {}): Promise<Render> {
    const get = () => ok(this.api.GET('/api/v1/renders/{renderId}', { params: { path: { renderId } }, signal: opts.signal }));
    return this.poll(
      'render',
      get,
      (r) => (r.status === 'completed' ? 'done' : r.status === 'failed' ? 'RENDER_FAILED' : r.status === 'expired' ? 'RENDER_FILE_EXPIRED' : 'wait'),
      opts,
    );
  }

  /** Polls a transcription until `ready` or `no_speech` (answered); `failed` throws `TRANSCRIPTION_FAILED`. */
  waitForTranscription(transcriptionId: string, opts: WaitOptions<Transcription> = {}): Promise<Transcription> {
    const get = () => ok(this.api.GET('/api/v1/transcriptions/{transcriptionId}', { params: { path: { transcriptionId } }, signal: opts.signal }));
    return this.poll('transcription', get, (t) => (t.status === 'processing' ? 'wait' : t.status === 'failed' ? 'TRANSCRIPTION_FAILED' : 'done'), opts);
  }

  /** Polls a post until every item is done: `completed` is answered; `partial` throws `POST_PARTIAL`, `failed` `POST_FAILED` (the post in `extra`). */
  waitForPost(postId: string, opts: WaitOptions<Post> = {}): Promise<Post> {
    const get = () => ok(this.api.GET('/api/v1/posts/{id}', { params: { path: { id: postId } }, signal: opts.signal }));
    return this.poll(
      'post',
      get,
      (p) => (p.status === 'completed' ? 'done' : p.status === 'partial' ? 'POST_PARTIAL' : p.status === 'failed' ? 'POST_FAILED' : 'wait'),
      opts,
    );
  }

  /**
   * Polls a persona until its portrait is done (`image_status` `ready`: answered, with the new current
   * version); `failed` throws `PERSONA_FAILED` with the persona (its `error_code`; refunded) in `extra`.
   * Call it after POST /personas, POST /personas/{id}/regenerate or a preset's copy.
   */
  waitForPersona(personaId: string, opts: WaitOptions<Persona> = {}): Promise<Persona> {
    const get = () => ok(this.api.GET('/api/v1/personas/{id}', { params: { path: { id: personaId } }, signal: opts.signal }));
    return this.poll('persona', get, (p) => (p.image_status === 'ready' ? 'done' : p.image_status === 'failed' ? 'PERSONA_FAILED' : 'wait'), opts);
  }

  /** Polls a persona video (POST /personas/{id}/videos) until `ready` (answered: `download_url`, `edit_id`); `failed` throws `PERSONA_VIDEO_FAILED`. */
  waitForPersonaVideo(personaId: string, videoId: string, opts: WaitOptions<PersonaVideo> = {}): Promise<PersonaVideo> {
    const get = () => ok(this.api.GET('/api/v1/personas/{id}/videos/{videoId}', { params: { path: { id: personaId, videoId } }, signal: opts.signal }));
    return this.poll('persona_video', get, (v) => (v.status === 'ready' ? 'done' : v.status === 'failed' ? 'PERSONA_VIDEO_FAILED' : 'wait'), opts);
  }

  /** Polls a generation (POST /generations) until `ready` (answered: `output`); `failed` throws `GENERATION_FAILED`. */
  waitForGeneration(generationId: string, opts: WaitOptions<Generation> = {}): Promise<Generation> {
    const get = () => ok(this.api.GET('/api/v1/generations/{generationId}', { params: { path: { generationId } }, signal: opts.signal }));
    return this.poll('generation', get, (g) => (g.status === 'ready' ? 'done' : g.status === 'failed' ? 'GENERATION_FAILED' : 'wait'), opts);
  }

  private async poll<T extends object>(kind: JobKind, get: () => Promise<T>, outcome: (job: T) => 'wait' | 'done' | string, opts: WaitOptions<T>): Promise<T> {
    const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
    for (;;) {
      const job = await get();
      opts.onPoll?.(job);
      const result = outcome(job);
      if (result === 'done') return job;
      if (result !== 'wait') throw new CutroomError({ status: null, code: result, extra: { ...(job as Record<string, unknown>) } });
      const interval = opts.intervalMs ?? this.pollIntervalMs(kind);
      if (Date.now() + interval > deadline) throw new CutroomError({ status: null, code: 'WAIT_TIMEOUT', extra: { ...(job as Record<string, unknown>) } });
      await this.sleep(interval, opts.signal);
    }
  }
}
