/**
 * `@cutroom/sdk/browser`: the same client for web pages, with no Node module in what it imports.
 * Uploads take a File or Blob (sliced per part) and report progress through XMLHttpRequest; webhook
 * verification (a server's job, node:crypto) is only in the Node entry.
 */
import { CutroomCore, type MediaUpload, type PersonaSource, type VideoAnalysis } from './core.js';
import type { UploadVideoOptions } from './upload.js';
import { blobSource, xhrPut } from './upload-browser.js';

export { ok, defaultPollIntervalMs, CutroomCore } from './core.js';
export type {
  Answer,
  CallOptions,
  PostOptions,
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
export { CutroomConfigError, CutroomError } from './errors.js';
export { ERROR_REASONS, errorReason, formatBytes, formatSeconds } from './reasons.js';
export { backoffMs, retryAfterMs } from './retry.js';
export type { RetryOptions, Sleep } from './retry.js';
export type { UploadKind, UploadProgress, UploadVideoOptions } from './upload.js';
export { acceptedExtensions } from './upload.js';
export type { components, operations, paths } from './schema.js';
export type * from './resources.js';
export type { FileUploadOptions, GenerationUploads, PersonaUploads } from './multipart.js';
export { WEBHOOK_EVENT_TYPES } from './webhook-events.js';
export type * from './webhook-events.js';

/** The client for web pages: uploads send a File or Blob part by part, each part sent again alone after a failure. */
export class Cutroom extends CutroomCore {
  /**
   * Uploads a video and completes it (POST /videos/upload, each part's bytes, POST /videos/upload/complete);
   * `onProgress` sees the bytes sent across every part. A Blob that is not a File needs `opts.fileName`.
   */
  uploadVideo(file: Blob, opts: UploadVideoOptions = {}): Promise<VideoAnalysis> {
    return this.uploadVideoFrom(blobSource(file, opts), xhrPut, opts);
  }

  /** Uploads an audio or video file to transcribe (POST /transcriptions/upload, then one PUT). */
  uploadMedia(file: Blob, opts: UploadVideoOptions = {}): Promise<MediaUpload> {
    return this.uploadMediaFrom(blobSource(file, opts, 'media'), xhrPut, opts);
  }

  /** Uploads a persona's source video (.mp4 .mov .webm .mkv) and registers it; answers its `media_id` and `duration` (free). */
  uploadPersonaSource(file: Blob, opts: UploadVideoOptions = {}): Promise<PersonaSource> {
    return this.uploadPersonaSourceFrom(blobSource(file, opts), xhrPut, opts);
  }
}
