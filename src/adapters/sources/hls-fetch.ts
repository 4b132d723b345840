import { createDecipheriv, type Decipher } from 'node:crypto';
import fsp from 'node:fs/promises';
import { DomainError } from '../../domain/errors.js';
import { SNIFF_BYTES, sniffContainer, type LocalMedia } from '../media/container.js';
import { readCapped } from '../net/read-body.js';
import type { SafeResponse } from '../net/safe-fetch.js';
import { isLocalIoError, isPolicyRefusal } from './download-support.js';
import type { ByteRange, HlsKey, HlsSegment } from './hls-playlist.js';

/**
 * HLS segments fetched in Node, never by a media tool: every segment, init section (`#EXT-X-MAP`) and
 * AES-128 key is a GET through the caller's safeFetch (address rules on every hop), AES-128 segments
 * are decrypted here (aes-128-cbc, the tag's IV or the media sequence number, RFC 8216 5.2), and the
 * segments are written one after the other into one local file whose container is then sniffed from
 * its bytes (MPEG-TS segments concatenated read as `mpegts`, an init section followed by fMP4
 * fragments as `mov`). ffmpeg/ffprobe only ever get that local file with the demuxer named.
 */

/** A failure worth another attempt (a cut body, an unexpected range): the caller's retry policy decides. */
export class TransientFetchError extends Error {
  constructor(
    message: string,
    readonly delayMs?: number,
  ) {
    super(message);
    this.name = 'TransientFetchError';
  }
}

/** How segments are fetched: the downloader and the analysis differ in retries and error codes. */
export interface HlsIo {
  /** GETs `url` with safeFetch and returns a 2xx answer; throws otherwise (TransientFetchError when worth retrying). */
  get(url: string, headers: Record<string, string>): Promise<SafeResponse>;
  /** Runs one fetch-and-write step under the caller's retry policy (`what` names it in errors). */
  retrying<T>(what: string, step: () => Promise<T>): Promise<T>;
  /** The error for a source the service cannot read (an encryption it does not support, a bad key). */
  unreadable(reason: string): Error;
  signal?: AbortSignal;
}

/** Bytes received allowed across every file of one download (segments, init sections, both renditions). */
export interface ByteBudget {
  used: number;
  readonly max: number;
  tooLarge(): Error;
}

export interface AssembleOptions {
  budget?: ByteBudget;
  /** Stop once this many bytes are written (probing needs only the start). Default: everything. */
  stopAfterBytes?: number;
  /** After each segment: seconds of media written so far. */
  onSegment?(seconds: number): void;
}

/** Bytes of a key file read at most (an AES-128 key is 16). */
const MAX_KEY_BYTES = 1024;

/** Refuses encryption the service cannot read before anything is fetched. */
export function checkEncryption(segments: HlsSegment[], unreadable: (reason: string) => Error): void {
  for (const s of segments) {
    for (const key of [s.key, s.map?.key]) {
      if (!key) continue;
      if (key.method !== 'AES-128' || key.keyFormat !== 'identity') {
        throw unreadable(`HLS encryption ${key.method} (KEYFORMAT ${key.keyFormat}) is not supported; only AES-128 with identity keys`);
      }
      if (!key.uri) throw unreadable('AES-128 key without URI');
    }
  }
}

/** The IV of a segment: the tag's, else its media sequence number as a 128-bit big-endian integer. */
export function segmentIv(key: HlsKey, sequence: number): Buffer {
  if (key.iv) return key.iv;
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(sequence), 8);
  return iv;
}

function sameRange(a?: ByteRange, b?: ByteRange): boolean {
  return a?.offset === b?.offset && a?.length === b?.length;
}

/** `bytes <start>-<end>/<total|*>` → start. */
function rangeStart(value: unknown): number | null {
  const m = /^bytes\s+(\d+)-\d+\/(?:\d+|\*)$/i.exec(String(value ?? '').trim());
  return m ? Number(m[1]) : null;
}

/**
 * Fetches `segments` (with their init section and keys) into `file`, one after the other, and returns
 * the file with the demuxer its bytes call for. Throws `io.unreadable(...)` when the result is no
 * container the service reads.
 */
export async function assembleSegments(segments: HlsSegment[], file: string, io: HlsIo, opts: AssembleOptions = {}): Promise<LocalMedia> {
  checkEncryption(segments, io.unreadable);
  const keys = new Map<string, Buffer>();
  const fh = await fsp.open(file, 'w');
  let pos = 0;
  let seconds = 0;
  const stopAt = opts.stopAfterBytes ?? Number.POSITIVE_INFINITY;

  const keyBytes = async (key: HlsKey): Promise<Buffer> => {
    const uri = key.uri!;
    const hit = keys.get(uri);
    if (hit) return hit;
    const bytes = await io.retrying(`key ${uri}`, async () => {
      const res = await io.get(uri, {});
      try {
        return await readCapped(res, MAX_KEY_BYTES, () => io.unreadable(`key ${uri} is larger than ${MAX_KEY_BYTES} bytes`));
      } catch (err) {
        res.discard();
        throw transient(err, uri, io);
      }
    });
    if (bytes.length !== 16) throw io.unreadable(`key ${uri} is ${bytes.length} bytes, not 16`);
    keys.set(uri, bytes);
    return bytes;
  };

  /** One GET of `uri` (its byte range), decrypted, written at `at`; returns the bytes written. */
  const writePart = async (uri: string, range: ByteRange | undefined, key: HlsKey | undefined, sequence: number, at: number): Promise<number> => {
    const decipher: Decipher | null = key ? createDecipheriv('aes-128-cbc', await keyBytes(key), segmentIv(key, sequence)) : null;
    const headers: Record<string, string> = range ? { range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : {};
    const res = await io.get(uri, headers);
    let skip = 0;
    let left = range ? range.length : Number.POSITIVE_INFINITY;
    if (range && res.status === 206) {
      if (rangeStart(res.headers['content-range']) !== range.offset) {
        res.discard();
        throw new TransientFetchError(`${uri} answered another range than bytes ${range.offset}-`);
      }
    } else if (range) {
      skip = range.offset; // the whole resource: keep only the range
    }
    let written = 0;
    let received = 0;
    let truncated = false;
    const write = async (buf: Buffer) => {
      if (buf.length === 0) return;
      await fh.write(buf, 0, buf.length, at + written);
      written += buf.length;
    };
    try {
      for await (const raw of res.body) {
        let chunk = raw as Buffer;
        // Every byte received counts, also the ones skipped before a range a server did not honour.
        received += chunk.length;
        if (opts.budget && opts.budget.used + received > opts.budget.max) throw opts.budget.tooLarge();
        if (skip > 0) {
          const n = Math.min(skip, chunk.length);
          chunk = chunk.subarray(n);
          skip -= n;
        }
        if (chunk.length > left) chunk = chunk.subarray(0, left);
        left -= chunk.length;
        await write(decipher ? decipher.update(chunk) : chunk);
        if (left === 0) break;
        if (at + written >= stopAt) {
          truncated = true;
          break;
        }
      }
    } catch (err) {
      res.discard();
      throw transient(err, uri, io);
    }
    res.discard();
    if (!truncated && left !== 0 && Number.isFinite(left)) throw new TransientFetchError(`${uri}: body ended ${left} bytes short of its range`);
    if (decipher && !truncated) {
      let last: Buffer;
      try {
        last = decipher.final();
      } catch {
        throw io.unreadable(`${uri}: AES-128 decryption failed (wrong key or IV)`);
      }
      await write(last);
    }
    if (opts.budget) opts.budget.used += received;
    return written;
  };

  try {
    let map: HlsSegment['map'];
    for (const seg of segments) {
      if (seg.map && (seg.map.uri !== map?.uri || !sameRange(seg.map.byteRange, map?.byteRange))) {
        if (map) throw io.unreadable('the playlist changes its init section (EXT-X-MAP) between segments; not supported');
        map = seg.map;
        const m = seg.map;
        pos += await io.retrying(`init section ${m.uri}`, () => writePart(m.uri, m.byteRange, m.key, seg.sequence, pos));
      }
      if (pos >= stopAt) break;
      pos += await io.retrying(`segment ${seg.uri}`, () => writePart(seg.uri, seg.byteRange, seg.key, seg.sequence, pos));
      seconds += seg.duration;
      opts.onSegment?.(seconds);
      if (pos >= stopAt) break;
    }
    await fh.truncate(pos);
  } finally {
    await fh.close();
  }

  const head = Buffer.alloc(SNIFF_BYTES);
  const h = await fsp.open(file, 'r');
  let n: number;
  try {
    n = (await h.read(head, 0, SNIFF_BYTES, 0)).bytesRead;
  } finally {
    await h.close();
  }
  const format = sniffContainer(head.subarray(0, n));
  if (!format) throw io.unreadable(`the segments are not a media container the service reads (${n} bytes)`);
  return { path: file, format };
}

/** An error while reading a body: final ones (size cap, address rules, local disk, abort) as they are, the rest transient. */
function transient(err: unknown, uri: string, io: HlsIo): unknown {
  if (io.signal?.aborted) return io.signal.reason ?? err;
  if (err instanceof TransientFetchError || isLocalIoError(err)) return err;
  // An INVALID_URL from safeFetch while reading a body is an idle connection, not the address rules.
  if (err instanceof DomainError && (err.code !== 'INVALID_URL' || isPolicyRefusal(err))) return err;
  return new TransientFetchError(`${uri}: body interrupted: ${(err as Error).message}`);
}
