import path from 'node:path';

/**
 * The storage key and multipart rules every driver keeps (local.storage.ts, s3.storage.ts), and the
 * content type a key's extension names (the local driver and the source downloader).
 */

export const MAX_PARTS = 10_000;

const KEY_CHARS = /^[A-Za-z0-9._/-]{1,1024}$/;

/**
 * Object keys are relative paths of [A-Za-z0-9._/-]: no absolute path, no empty, `.` or `..` segment,
 * and no segment starting with a dot (those names are reserved for the driver's own folders).
 */
export function isValidKey(key: string): boolean {
  if (!KEY_CHARS.test(key)) return false;
  return key.split('/').every((seg) => seg.length > 0 && !seg.startsWith('.'));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
  aac: 'audio/aac',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  json: 'application/json',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  txt: 'text/plain; charset=utf-8',
};

/** The local driver keeps no metadata beside the bytes: the content type follows the key's extension. */
export function contentTypeOfKey(key: string): string {
  const ext = path.extname(key).slice(1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Sizes of the parts of an upload of `size` bytes cut every `partSize` bytes. */
export function partSizes(size: number, partSize: number): number[] {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error('multipart size must be a positive integer');
  if (!Number.isSafeInteger(partSize) || partSize < 1) throw new Error('multipart partSize must be a positive integer');
  const count = Math.ceil(size / partSize);
  if (count > MAX_PARTS) throw new Error(`multipart upload would need ${count} parts (max ${MAX_PARTS}); raise partSize`);
  return Array.from({ length: count }, (_, i) => Math.min(partSize, size - i * partSize));
}
