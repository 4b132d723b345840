/**
 * What every upload does, whatever the file and the transport: content types, the signed URLs and the
 * byte range each takes, parts sent in order with retries. No Node module: the browser entry uses it
 * too (upload-node.ts reads files and streams and sends with node:http; upload-browser.ts sends Blobs
 * with XMLHttpRequest).
 */
import { CutroomError } from './errors.js';
import { backoffMs, type RetryPolicy, type Sleep } from './retry.js';

/** Content types of the video extensions the service accepts. */
const VIDEO_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
};

/** Content types of the audio extensions POST /transcriptions/upload takes beside the video ones. */
const AUDIO_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/opus',
  '.flac': 'audio/flac',
};

/** What is uploaded: a video (POST /videos/upload) or an audio or video file to transcribe (POST /transcriptions/upload). */
export type UploadKind = 'video' | 'media';

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

export interface UploadVideoOptions {
  /** The file's name (default: the path's base name, or a File's name); its extension must be .mp4, .mov, .webm or .mkv. Required for a stream or a Blob. */
  fileName?: string;
  /** Bytes the stream will give; required for a stream (a path is measured, a Blob knows its size). */
  size?: number;
  /** Default: from the extension (`video/mp4`, `video/quicktime`, `video/webm`, `video/x-matroska`). */
  contentType?: string;
  /**
   * Videos: the file's length in seconds, when the caller measured it (ffprobe). Declared to POST /videos/upload,
   * which refuses one under a minute or over the plan's maximum (VIDEO_TOO_SHORT / VIDEO_TOO_LONG) before any
   * byte is sent; the service still measures the file itself.
   */
  duration?: number;
  /** Called as bytes leave, across every part. */
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** What an upload needs from the file: its name, size, type and how to read a byte range of it as a body `B`. */
export interface UploadSource<B = unknown> {
  fileName: string;
  size: number;
  contentType: string;
  /** A body of `length` bytes from `start`; the next one of a stream given once (parts in order, no re-reading). */
  read(start: number, length: number): B;
  /** A part read from disk or a Blob can be sent again; a stream cannot. */
  rereadable: boolean;
}

/**
 * PUTs `length` bytes to a signed URL (no key) with that Content-Length and `contentType`, calling
 * `onBytes` with each count of bytes that left; a refusal is thrown as the CutroomError of its answer.
 */
export type PutPart<B> = (url: string, body: B, length: number, contentType: string, onBytes: (n: number) => void, signal?: AbortSignal) => Promise<void>;

/** The extension of a file name, lowercased with its dot (`''` without one). */
function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot).toLowerCase() : '';
}

/** The extensions an upload of `kind` may have (`.mp4`, …), as the service accepts them. */
export function acceptedExtensions(kind: UploadKind): string[] {
  return Object.keys(kind === 'video' ? VIDEO_TYPES : { ...VIDEO_TYPES, ...AUDIO_TYPES });
}

export function contentTypeOf(fileName: string, kind: UploadKind): string {
  const types = kind === 'video' ? VIDEO_TYPES : { ...AUDIO_TYPES, ...VIDEO_TYPES };
  const type = types[extensionOf(fileName)];
  if (!type) throw new TypeError(`${fileName}: the service takes ${Object.keys(types).join(' ')} (or pass opts.contentType)`);
  return type;
}

/** One signed URL of an upload and the byte range it takes. */
export interface UploadTarget {
  url: string;
  start: number;
  length: number;
}

/** The answer of POST /videos/upload: one URL, or (above the multipart threshold) one per part. */
export type UploadAnswer = { upload_url: string } | { part_size: number; parts: ReadonlyArray<{ part_number: number; url: string; size: number }> };

/** Where each byte range of a file of `size` bytes goes, in order. */
export function uploadTargets(upload: UploadAnswer, size: number): UploadTarget[] {
  if ('upload_url' in upload) return [{ url: upload.upload_url, start: 0, length: size }];
  return [...upload.parts]
    .sort((a, b) => a.part_number - b.part_number)
    .map((p) => ({ url: p.url, start: (p.part_number - 1) * upload.part_size, length: p.size }));
}

/**
 * Sends every target's bytes in order. A part of a rereadable source (a file on disk, a Blob) is sent
 * again after a 5xx or a network failure (as the API calls are), so a failed part resumes the upload
 * without sending the parts before it again; a stream's part is not, its error is thrown.
 */
export async function sendParts<B>(
  source: UploadSource<B>,
  targets: UploadTarget[],
  put: PutPart<B>,
  opts: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal; policy: RetryPolicy; sleep: Sleep },
): Promise<void> {
  let sent = 0;
  for (const t of targets) {
    for (let attempt = 0; ; attempt++) {
      const before = sent;
      try {
        await put(
          t.url,
          source.read(t.start, t.length),
          t.length,
          source.contentType,
          (n) => {
            sent += n;
            opts.onProgress?.({ sentBytes: sent, totalBytes: source.size });
          },
          opts.signal,
        );
        break;
      } catch (err) {
        const transient = !(err instanceof CutroomError) || (err.status !== null && err.status >= 500);
        if (!source.rereadable || !transient || attempt >= opts.policy.retries || opts.signal?.aborted) throw err;
        sent = before;
        await opts.sleep(backoffMs(opts.policy, attempt), opts.signal);
      }
    }
  }
}
