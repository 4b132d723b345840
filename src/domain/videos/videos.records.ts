import type { Tx } from '../../ports/transactions.js';

/** A video (table `videos`): an analysed link or an upload, with what was measured of it. */
export interface VideoRow {
  id: string;
  workspaceId: string;
  /** `upload` or `link`. */
  source: string;
  /**
   * `awaiting_upload` until an upload is completed, then `ready`. Links are `ready` once analysed. An
   * upload whose file the retention sweep deleted is `expired` (a link's source is downloaded again).
   */
  status: string;
  /** The caller's link (links only); one video per link and workspace. */
  sourceUrl: string | null;
  /** What the downloader fetches for a link. */
  mediaUrl: string | null;
  platform: string;
  title: string;
  author: string;
  duration: number;
  width: number;
  height: number;
  hasAudio: boolean;
  storageKey: string | null;
  fileName: string | null;
  fileSize: number | null;
  contentType: string | null;
  /** Multipart upload id while the parts are being sent. */
  uploadId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What analysing a link finds (and refreshes on the same link). */
export type LinkAnalysis = Pick<
  VideoRow,
  'status' | 'mediaUrl' | 'platform' | 'title' | 'author' | 'duration' | 'width' | 'height' | 'hasAudio' | 'fileSize' | 'updatedAt'
>;

/** A video waiting for its uploaded bytes. */
export type NewUpload = Pick<
  VideoRow,
  'id' | 'workspaceId' | 'source' | 'status' | 'platform' | 'title' | 'author' | 'storageKey' | 'fileName' | 'fileSize' | 'contentType' | 'uploadId'
>;

/** The measurements of a media file. */
export type VideoMeasurements = Pick<VideoRow, 'duration' | 'width' | 'height' | 'hasAudio'>;

/** A completed upload: its measured file. */
export type UploadCompletion = VideoMeasurements & Pick<VideoRow, 'storageKey' | 'uploadId' | 'title' | 'fileSize' | 'updatedAt'>;

/** The videos aggregate's storage (src/adapters/db/repositories/videos.repository.ts). */
export interface VideosRepository {
  get(id: string): Promise<VideoRow | undefined>;
  /** The video when it belongs to the workspace. */
  findInWorkspace(workspaceId: string, id: string): Promise<VideoRow | undefined>;
  /** Records the workspace's video of `sourceUrl`, or refreshes it with `analysis` when it exists. */
  upsertLink(video: { id: string; workspaceId: string; sourceUrl: string }, analysis: LinkAnalysis): Promise<VideoRow>;
  insertUpload(video: NewUpload): Promise<void>;
  /**
   * Marks an upload ready with its measured file if it is still awaiting its upload under `storageKey`;
   * undefined when it was not (another completion won).
   */
  completeUpload(id: string, storageKey: string, done: UploadCompletion): Promise<VideoRow | undefined>;
  /** Keeps the real measurements of a linked source once it is downloaded. */
  setMeasurements(id: string, measured: VideoMeasurements, at: Date): Promise<void>;
  /** An upload whose file is about to be deleted becomes `expired` (new submissions of it are refused); links stay as they are. */
  markUploadExpired(tx: Tx, id: string, at: Date): Promise<void>;
}
