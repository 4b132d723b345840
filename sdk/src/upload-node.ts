/** Uploads from Node: a file on disk (read part by part, never whole) or a stream, sent with node:http(s). */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CutroomError } from './errors.js';
import { contentTypeOf, type PutPart, type UploadKind, type UploadSource, type UploadVideoOptions } from './upload.js';

/** The upload of a file on disk (read part by part, never whole) or of a stream (read once, in order). */
export async function uploadSource(file: string | Readable, opts: UploadVideoOptions, kind: UploadKind = 'video'): Promise<UploadSource<Readable>> {
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

/** PUTs a stream to a signed URL (no key) with an exact Content-Length, counting what leaves. */
export const nodePut: PutPart<Readable> = (url, body, length, contentType, onBytes, signal) => {
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
};
