import type { MediaInfo } from './media.js';
import type { WaitingReason } from './source-resolver.js';
import type { Storage } from './storage.js';

/**
 * The "downloading" stage: copies an analysed source into storage and probes it. One adapter
 * (src/adapters/sources/downloader.ts) handles direct links (media files streamed with safeFetch,
 * HLS VOD remuxed to MP4 by ffmpeg through the safe relay) and platform links (yt-dlp).
 * Rules and codes: docs/sources.md, "Downloading".
 */

export interface DownloadInput {
  /** SourceMetadata.mediaUrl: the final media URL for `direct`, the canonical page URL for platforms. */
  mediaUrl: string;
  /** `direct` or a platform name from the link classifier (`youtube`, `twitch`, ...). */
  platform: string;
}

export interface DownloadDest {
  storage: Storage;
  /** Storage key to write, such as `videos/<workspace>/<video>/source.mp4`. Written only on success. */
  key: string;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /**
   * Largest file accepted, in bytes (the plan's `max_upload_size`), a positive integer: there is no
   * default. Counted while the bytes arrive; a larger source fails with SOURCE_TOO_LARGE
   * (`extra.max_size`) as soon as the cap is passed, and its partial file is deleted.
   */
  maxBytes: number;
  /** 0..1, never decreasing; 1 once the object is stored. */
  onProgress?(fraction: number): void;
}

export type DownloadResult =
  | {
      kind: 'ready';
      key: string;
      /** Probed from the stored bytes. */
      info: MediaInfo;
      sizeBytes: number;
    }
  | {
      /** The source does not fully exist yet: nothing was stored; try again after `retryAfterSeconds`. */
      kind: 'waiting';
      reason: WaitingReason;
      /** With SOURCE_PREMIERE_SCHEDULED: the announced start, when known. */
      until?: Date;
      retryAfterSeconds: number;
    };

/**
 * Codes a download fails with (DomainError.code), meant to be stored as a submission's `error_code`.
 * SOURCE_UNAVAILABLE: 404/410, or unreachable / 5xx after retries, or a platform video that is gone.
 * SOURCE_TOO_LARGE: over `maxBytes` (`extra.max_size`). SOURCE_UNREADABLE: the bytes are not media.
 * INVALID_URL: a hop (redirect, segment) refused by the address rules. PRIVATE_VIDEO, AGE_RESTRICTED,
 * REGION_BLOCKED: the source refuses us now. PLATFORM_UNAVAILABLE: yt-dlp missing, timed out, or the
 * platform refusing this server.
 */
export const DOWNLOAD_ERROR_CODES = [
  'SOURCE_UNAVAILABLE',
  'SOURCE_TOO_LARGE',
  'SOURCE_UNREADABLE',
  'INVALID_URL',
  'PRIVATE_VIDEO',
  'AGE_RESTRICTED',
  'REGION_BLOCKED',
  'PLATFORM_UNAVAILABLE',
] as const;

export type DownloadErrorCode = (typeof DOWNLOAD_ERROR_CODES)[number];

export interface SourceDownloader {
  /**
   * Downloads `input` into `dest.key` and probes it, or answers `waiting`. Throws DomainError with one
   * of DOWNLOAD_ERROR_CODES; an abort rejects with the signal's reason. A failed or waiting download
   * leaves no object at `dest.key` and no work files.
   */
  download(input: DownloadInput, dest: DownloadDest, opts: DownloadOptions): Promise<DownloadResult>;
}
