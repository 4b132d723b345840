import type { Readable } from 'node:stream';
import { CutroomCore, type MediaUpload, type VideoAnalysis } from './core.js';
import type { UploadVideoOptions } from './upload.js';
import { nodePut, uploadSource } from './upload-node.js';

export { ok, defaultPollIntervalMs, CutroomCore } from './core.js';
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
  Generation,
  MediaUpload,
  Edit,
  EditVersionList,
  Clip,
  DeriveEditRequest,
} from './core.js';

/** The client for Node: uploads read a path from disk part by part, or a stream once. */
export class Cutroom extends CutroomCore {
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
}
