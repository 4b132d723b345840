import fs from 'node:fs';

/**
 * What a media file is, told from its bytes, never from its name or declared type. The answer is the
 * ffmpeg demuxer that every later ffmpeg/ffprobe run over the file is forced to use (`-f`), so a file
 * is never opened by a demuxer the service did not choose: no playlist demuxer (hls, concat, m3u),
 * no image2 pattern, nothing that opens other files or addresses. Pure except `sniffFile`.
 */

/** ffmpeg demuxer names of the containers the service reads. */
export const CONTAINERS = ['mov', 'matroska', 'mpegts', 'flv', 'mp3', 'wav', 'flac', 'ogg', 'aac'] as const;
export type Container = (typeof CONTAINERS)[number];

/** How many leading bytes `sniffContainer` needs at most. */
export const SNIFF_BYTES = 4096;

/** Top-level ISO BMFF / QuickTime box types a file may start with. */
const MOV_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid', 'styp']);

const ascii = (b: Uint8Array, at: number, len: number) =>
  Buffer.from(b.buffer, b.byteOffset + at, Math.max(0, Math.min(len, b.length - at))).toString('latin1');

/** MPEG-TS: a 0x47 sync byte every 188 bytes (three in a row, or as many as the head holds). */
function isMpegTs(b: Uint8Array): boolean {
  if (b.length < 188 || b[0] !== 0x47) return false;
  for (let at = 188; at < Math.min(b.length, 188 * 4); at += 188) if (b[at] !== 0x47) return false;
  return true;
}

/** An MPEG audio frame header (MPEG-1/2/2.5, layers I-III) at `at`. */
function isMpegAudioFrame(b: Uint8Array, at: number): boolean {
  if (at + 4 > b.length) return false;
  if (b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return false;
  const version = (b[at + 1] >> 3) & 3;
  const layer = (b[at + 1] >> 1) & 3;
  const bitrate = b[at + 2] >> 4;
  const rate = (b[at + 2] >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 0 && bitrate !== 15 && rate !== 3;
}

/** An ADTS (raw AAC) header: 12 sync bits, layer 0. */
function isAdts(b: Uint8Array, at: number): boolean {
  return at + 7 <= b.length && b[at] === 0xff && (b[at + 1] & 0xf6) === 0xf0;
}

/** The size of an ID3v2 tag at the start, or 0. */
function id3Size(b: Uint8Array): number {
  if (b.length < 10 || ascii(b, 0, 3) !== 'ID3') return 0;
  const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f);
  return 10 + size + ((b[5] & 0x10) !== 0 ? 10 : 0);
}

/**
 * The container of a file from its first bytes (`SNIFF_BYTES` are enough), or null when it is none
 * the service reads. A text playlist (`#EXTM3U`), HTML, an image or anything else is null.
 */
export function sniffContainer(head: Uint8Array): Container | null {
  const b = head;
  if (b.length < 4) return null;
  if (b.length >= 8 && MOV_BOXES.has(ascii(b, 4, 4))) return 'mov';
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'matroska';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') return 'wav';
  if (ascii(b, 0, 4) === 'fLaC') return 'flac';
  if (ascii(b, 0, 4) === 'OggS') return 'ogg';
  if (ascii(b, 0, 3) === 'FLV' && b[3] === 1) return 'flv';
  if (isMpegTs(b)) return 'mpegts';
  const tag = id3Size(b);
  if (tag > 0) {
    // An ID3 tag starts MP3 files (and some ADTS ones); a tag longer than the head is taken as MP3.
    if (tag >= b.length) return 'mp3';
    if (ascii(b, tag, 4) === 'fLaC') return 'flac';
    if (isAdts(b, tag)) return 'aac';
    return isMpegAudioFrame(b, tag) ? 'mp3' : null;
  }
  if (isAdts(b, 0)) return 'aac';
  if (isMpegAudioFrame(b, 0)) return 'mp3';
  return null;
}

/** Reads the first bytes of a local file and sniffs them. */
export function sniffFile(file: string): Container | null {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = fs.readSync(fd, buf, 0, SNIFF_BYTES, 0);
    return sniffContainer(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
}

/** A file whose bytes are none of the accepted containers. */
export class UnsupportedContainerError extends Error {
  constructor(readonly file: string) {
    super(`${file}: not a media container the service reads`);
    this.name = 'UnsupportedContainerError';
  }
}

/** The demuxer to force for a local file; throws UnsupportedContainerError when there is none. */
export function containerOf(file: string): Container {
  const c = sniffFile(file);
  if (!c) throw new UnsupportedContainerError(file);
  return c;
}

/** A local media file with the demuxer its bytes call for: what the pure ffmpeg argument builders take. */
export interface LocalMedia {
  path: string;
  format: Container;
}

/** Sniffs `file` once (throws UnsupportedContainerError when it is no accepted container). */
export function localMedia(file: string): LocalMedia {
  return { path: file, format: containerOf(file) };
}
