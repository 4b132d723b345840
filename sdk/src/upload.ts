import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  /** The file's name (default: the path's base name); its extension must be .mp4, .mov, .webm or .mkv. Required for a stream. */
  fileName?: string;
  /** Bytes the stream will give; required for a stream (a path is measured). */
  size?: number;
  /** Default: from the extension (`video/mp4`, `video/quicktime`, `video/webm`, `video/x-matroska`). */
  contentType?: string;
  /** Called as bytes leave, across every part. */
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** What `uploadVideo` needs from the file: its name, size, type and how to read a byte range of it. */
export interface UploadSource {
  fileName: string;
  size: number;
  contentType: string;
  /** A stream of `length` bytes from `start`; the next one of a stream given once (parts in order, no re-reading). */
  read(start: number, length: number): Readable;
  /** A part read from disk can be sent again; a stream cannot. */
  rereadable: boolean;
}

/** The upload of a file on disk (read part by part, never whole) or of a stream (read once, in order). */
export async function uploadSource(file: string | Readable, opts: UploadVideoOptions, kind: UploadKind = 'video'): Promise<UploadSource> {
  if (typeof file === 'string') {
    const size = opts.size ?? (await fs.promises.stat(file)).size;
    const fileName = opts.fileName ?? path.basename(file);
    return {
      fileName,
      size,
      contentType: opts.contentType ?? contentTypeOf(fileName, kind),
      read: (start, length) => fs.createReadStream(file, { start, end: start + length - 1 }),
      rereadable: true,
    };
  }
  if (!opts.fileName || opts.size === undefined) throw new TypeError('uploadVideo(stream) needs opts.fileName and opts.size');
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  let leftover: Buffer = Buffer.alloc(0);
  async function* take(length: number): AsyncGenerator<Buffer> {
    let missing = length;
    while (missing > 0) {
      if (leftover.length === 0) {
        const next = await chunks.next();
        if (next.done) throw new CutroomError({ status: null, code: 'UPLOAD_STREAM_TOO_SHORT', extra: { missing_bytes: missing } });
        leftover = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      }
      const piece = leftover.subarray(0, missing);
      leftover = leftover.subarray(piece.length);
      missing -= piece.length;
      yield piece;
    }
  }
  return {
    fileName: opts.fileName,
    size: opts.size,
    contentType: opts.contentType ?? contentTypeOf(opts.fileName, kind),
    read: (_start, length) => Readable.from(take(length)),
    rereadable: false,
  };
}

function contentTypeOf(fileName: string, kind: UploadKind): string {
  const types = kind === 'video' ? VIDEO_TYPES : { ...AUDIO_TYPES, ...VIDEO_TYPES };
  const type = types[path.extname(fileName).toLowerCase()];
  if (!type) throw new TypeError(`${fileName}: the service takes ${Object.keys(types).join(' ')} (or pass opts.contentType)`);
  return type;
}

/** PUTs `length` bytes to a signed URL (no key) with an exact Content-Length, counting what leaves. */
function put(url: string, body: Readable, length: number, contentType: string, onBytes: (n: number) => void, signal?: AbortSignal): Promise<void> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<void>((resolve, reject) => {
    // A refusal answered before the body is read (409, 403) closes the connection under the upload: let that answer
    // (read in the response handler) win over the write error it causes.
    const failed = (err: unknown) => setTimeout(() => reject(err), 50);
    const req = transport.request(target, { method: 'PUT', headers: { 'content-type': contentType, 'content-length': String(length) }, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve();
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        CutroomError.fromResponse(new Response(Buffer.concat(chunks), { status, headers })).then(reject, reject);
      });
    });
    req.on('error', failed);
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        onBytes(chunk.length);
        done(null, chunk);
      },
    });
    pipeline(body, count, req).catch(failed);
  });
}

/** One signed URL of an upload and the byte range it takes. */
export interface UploadTarget {
  url: string;
  start: number;
  length: number;
}

/**
 * Sends every target's bytes in order. A part read from disk is sent again after a 5xx or a network
 * failure (as the API calls are); a stream's part is not, its error is thrown.
 */
export async function sendParts(
  source: UploadSource,
  targets: UploadTarget[],
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
