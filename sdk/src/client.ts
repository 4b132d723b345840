import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  CutroomCore,
  type Clip,
  type CutroomOptions,
  type MediaUpload,
  type PersonaSource,
  type Render,
  type Submission,
  type Transcription,
  type VideoAnalysis,
  type WaitOptions,
} from './core.js';
import type { PostOptions } from './call.js';
import { CutroomConfigError, CutroomError } from './errors.js';
import type { RendersResource } from './resources.js';
import type { operations } from './schema.js';
import type { UploadVideoOptions } from './upload.js';
import { nodePut, uploadSource } from './upload-node.js';

export { ok, defaultPollIntervalMs, CutroomCore } from './core.js';
export type { Answer, CallOptions, PostOptions } from './core.js';
export type {
  CutroomOptions,
  JobKind,
  WaitOptions,
  Schemas,
  VideoAnalysis,
  Submission,
  Render,
  Transcription,
  Post,
  Persona,
  PersonaVideo,
  PersonaSource,
  Generation,
  MediaUpload,
  Edit,
  EditVersionList,
  Clip,
  DeriveEditRequest,
} from './core.js';

/** The body of POST /clips. */
export type CreateSubmissionRequest = operations['createSubmission']['requestBody']['content']['application/json'];
/** The body of POST /transcriptions. */
export type CreateTranscriptionRequest = operations['createTranscription']['requestBody']['content']['application/json'];
/** The answer of GET /transcriptions/{id}/transcript: the language and the timed cues (and words). */
export type Transcript = operations['getTranscript']['responses'][200]['content']['application/json'];

/** How a step of the one-call helpers uploads its file and waits for its job. */
interface FileStepOptions<J> {
  /** The upload's progress, across every part. */
  onProgress?: UploadVideoOptions['onProgress'];
  /** Default: from the extension. */
  contentType?: string;
  /** The wait for the job: `intervalMs`, `timeoutMs`, `onPoll`. */
  wait?: Omit<WaitOptions<J>, 'signal'>;
  /** The Idempotency-Key of the POST that creates (and charges) the job. */
  idempotencyKey?: string;
  /** Aborts the upload, the calls and the wait. */
  signal?: AbortSignal;
}

/** `clipFile(path, options)`: the body of POST /clips without `video_id` (the uploaded video's), and how to upload and wait. */
export type ClipFileOptions = Omit<CreateSubmissionRequest, 'video_id'> &
  FileStepOptions<Submission> & {
    /** The video's length in seconds when measured (ffprobe): a video under a minute or over the plan's maximum is refused before any byte is sent. */
    duration?: number;
  };

/** What `clipFile` answers: the uploaded video, the completed submission and every clip, best rated first. */
export interface ClipFileResult {
  video: VideoAnalysis;
  submission: Submission;
  clips: Clip[];
}

/** `transcribeFile(path, options)`: the body of POST /transcriptions without `media_id`, and how to upload and wait. */
export type TranscribeFileOptions = Omit<CreateTranscriptionRequest, 'media_id'> & FileStepOptions<Transcription>;

/** What `transcribeFile` answers: the finished transcription (`ready` or `no_speech`) and its transcript (no cues for `no_speech`). */
export interface TranscribeFileResult {
  media: MediaUpload;
  transcription: Transcription;
  transcript: Transcript;
}

export interface DownloadRenderOptions {
  /** Replace a file of the same name in `dir` (default: refuse with CutroomError `DOWNLOAD_FILE_EXISTS`, writing nothing). */
  overwrite?: boolean;
  /** The wait while the render is not completed: `intervalMs`, `timeoutMs`, `onPoll`. */
  wait?: Omit<WaitOptions<Render>, 'signal'>;
  signal?: AbortSignal;
}

/** What `renders.download` answers: the file written and its size. */
export interface DownloadedRender {
  path: string;
  bytes: number;
  render: Render;
}

/** `cutroom.renders` in Node: the operations, and `download(renderId, dir)` that saves the MP4. */
export interface NodeRendersResource extends RendersResource {
  /**
   * Saves a render's MP4 in `dir` (created if missing) as `<name the service gives>.mp4` (else
   * `<renderId>.mp4`): waits until the render is completed (RENDER_FAILED, RENDER_FILE_EXPIRED
   * otherwise), asks for its signed link (GET /renders/{id}/download), streams the file to
   * `<file>.part` and renames it. A file of that name is never replaced without `overwrite: true`.
   */
  download(renderId: string, dir: string, opts?: DownloadRenderOptions): Promise<DownloadedRender>;
}

/** A file name from the service, kept to letters, digits, `.`, `-` and `_` (no folder, no hidden file). */
function safeFileName(name: string | undefined, fallback: string): string {
  const base = path
    .basename(name ?? '')
    .replace(/[^\w.-]/g, '_')
    .replace(/^\.+/, '');
  return base && base.endsWith('.mp4') ? base : `${fallback.replace(/[^\w.-]/g, '_')}.mp4`;
}

/** The client for Node: uploads read a path from disk part by part, or a stream once. */
export class Cutroom extends CutroomCore {
  /**
   * A client of `CUTROOM_URL` (default `http://localhost:8080`) with the key `CUTROOM_API_KEY` (and
   * `CUTROOM_WORKSPACE_ID` when set), the names the `cutroom` CLI reads. Throws CutroomConfigError
   * (`option` `CUTROOM_API_KEY`) when the key is unset or empty.
   */
  static fromEnv(env: Record<string, string | undefined> = process.env, opts: Partial<CutroomOptions> = {}): Cutroom {
    const apiKey = env.CUTROOM_API_KEY?.trim();
    if (!apiKey) throw new CutroomConfigError('CUTROOM_API_KEY', 'CUTROOM_API_KEY is not set: export the API key (the service prints it at its first start)');
    const workspaceId = env.CUTROOM_WORKSPACE_ID?.trim();
    return new Cutroom({ baseUrl: env.CUTROOM_URL?.trim() || 'http://localhost:8080', apiKey, ...(workspaceId ? { workspaceId } : {}), ...opts });
  }

  /** The Renders operations, and `download(renderId, dir)` which saves the MP4. */
  declare readonly renders: NodeRendersResource;

  constructor(opts: CutroomOptions) {
    super(opts);
    const generated = this.renders;
    (this as { renders: NodeRendersResource }).renders = { ...generated, download: (renderId, dir, o) => this.downloadRender(generated, renderId, dir, o) };
  }

  private async downloadRender(renders: RendersResource, renderId: string, dir: string, opts: DownloadRenderOptions = {}): Promise<DownloadedRender> {
    const render = await this.waitForRender(renderId, { ...opts.wait, signal: opts.signal });
    const link = await renders.downloadLink(renderId, { signal: opts.signal });
    await fs.promises.mkdir(dir, { recursive: true });
    const target = path.join(dir, safeFileName(link.filename, renderId));
    if (!opts.overwrite && fs.existsSync(target)) throw new CutroomError({ status: null, code: 'DOWNLOAD_FILE_EXISTS', extra: { path: target } });
    const res = await fetch(link.url, { signal: opts.signal });
    if (!res.ok || !res.body) throw await CutroomError.fromResponse(res);
    const part = `${target}.part`;
    try {
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), fs.createWriteStream(part));
      if (!opts.overwrite) {
        // A link fails when the name appeared meanwhile: nothing is replaced without `overwrite`.
        try {
          await fs.promises.link(part, target);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new CutroomError({ status: null, code: 'DOWNLOAD_FILE_EXISTS', extra: { path: target } });
          throw err;
        }
      } else {
        await fs.promises.rename(part, target);
      }
    } finally {
      await fs.promises.rm(part, { force: true });
    }
    return { path: target, bytes: (await fs.promises.stat(target)).size, render };
  }

  /**
   * Clips a video file in one call: uploads it (`uploadVideo`), submits it (POST /clips with the
   * options' body fields), waits for the submission (`waitForSubmission`: SUBMISSION_FAILED when it
   * fails) and answers it with every clip, best rated first.
   */
  async clipFile(file: string, options: ClipFileOptions = {}): Promise<ClipFileResult> {
    const { onProgress, contentType, duration, wait, idempotencyKey, signal, ...body } = options;
    const video = await this.uploadVideo(file, { onProgress, contentType, duration, signal });
    const created = await this.clips.create({ ...body, video_id: video.id }, postOptions(signal, idempotencyKey));
    const submission = await this.waitForSubmission(created.video_id, created.id, { ...wait, signal });
    const clips: Clip[] = [];
    for (let page = 1; ; page++) {
      const list = await this.clips.listClips(submission.video_id, submission.id, { page, limit: 100, sort: 'rating', order: 'desc' }, { signal });
      clips.push(...list.clips);
      if (!list.pagination.has_next_page) break;
    }
    return { video, submission, clips };
  }

  /**
   * Transcribes an audio or video file in one call: uploads it (`uploadMedia`), POST /transcriptions
   * with the options' body fields, waits for it (`waitForTranscription`: TRANSCRIPTION_FAILED when it
   * fails) and answers it with its transcript (GET /transcriptions/{id}/transcript).
   */
  async transcribeFile(file: string, options: TranscribeFileOptions = {}): Promise<TranscribeFileResult> {
    const { onProgress, contentType, wait, idempotencyKey, signal, ...body } = options;
    const media = await this.uploadMedia(file, { onProgress, contentType, signal });
    const created = await this.transcriptions.create({ ...body, media_id: media.media_id }, postOptions(signal, idempotencyKey));
    const transcription = await this.waitForTranscription(created.id, { ...wait, signal });
    const transcript = await this.transcriptions.getTranscript(transcription.id, { signal });
    return { media, transcription, transcript };
  }

  /**
   * Uploads a video and completes it: POST /videos/upload, the bytes to the signed URL (or, above the
   * service's multipart threshold, to each part's URL in order), POST /videos/upload/complete. A path is
   * streamed from disk part by part; a stream needs `fileName` and `size` and is read once. Answers the
   * measured video (`id` is the `video_id` of POST /clips) with its price.
   */
  async uploadVideo(file: string | Readable, opts: UploadVideoOptions = {}): Promise<VideoAnalysis> {
    return this.uploadVideoFrom(await uploadSource(file, opts), nodePut, opts);
  }

  /**
   * Uploads an audio or video file to transcribe: POST /transcriptions/upload, then the bytes to its
   * signed URL (one PUT, streamed from disk or from the stream). The first POST /transcriptions of the
   * answered `media_id` completes the upload. Extensions: .mp3 .wav .m4a .aac .ogg .opus .flac and the video ones.
   */
  async uploadMedia(file: string | Readable, opts: UploadVideoOptions = {}): Promise<MediaUpload> {
    return this.uploadMediaFrom(await uploadSource(file, opts, 'media'), nodePut, opts);
  }

  /**
   * Uploads a persona's source video (.mp4 .mov .webm .mkv; one PUT, streamed) and registers it:
   * POST /personas/sources/upload, the bytes, POST /personas/sources/upload/complete. Answers its
   * `media_id` and measured `duration` (free; a swap is quoted from it).
   */
  async uploadPersonaSource(file: string | Readable, opts: UploadVideoOptions = {}): Promise<PersonaSource> {
    return this.uploadPersonaSourceFrom(await uploadSource(file, opts), nodePut, opts);
  }
}

function postOptions(signal: AbortSignal | undefined, idempotencyKey: string | undefined): PostOptions {
  return { ...(signal ? { signal } : {}), ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
}
