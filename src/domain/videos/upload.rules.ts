import { randomBytes } from 'node:crypto';
import { DomainError, type FieldFailure } from '../errors.js';

/**
 * Pure rules of uploads (spec: POST /videos/upload, POST /transcriptions/upload, Limits): accepted
 * extensions and content types, the size ceiling, the URL lifetime.
 */

/** Accepted extensions and the content types that match each. */
export const VIDEO_CONTENT_TYPES: Record<string, string[]> = {
  '.mp4': ['video/mp4'],
  '.mov': ['video/quicktime', 'video/mp4'],
  '.webm': ['video/webm'],
  '.mkv': ['video/x-matroska', 'video/matroska', 'video/webm'],
};

/** Audio files accepted for transcription (beside the video extensions), with their content types. */
export const AUDIO_CONTENT_TYPES: Record<string, string[]> = {
  '.mp3': ['audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg-3'],
  '.wav': ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  '.m4a': ['audio/mp4', 'audio/x-m4a', 'audio/m4a', 'audio/aac'],
  '.aac': ['audio/aac', 'audio/x-aac', 'audio/aacp'],
  '.ogg': ['audio/ogg', 'audio/vorbis', 'audio/x-vorbis+ogg'],
  '.opus': ['audio/opus', 'audio/ogg'],
  '.flac': ['audio/flac', 'audio/x-flac'],
};

export type MediaKind = 'audio' | 'video';

/**
 * Containers (ffmpeg demuxer names, as the media probe reports them from the file's bytes) an upload
 * may be: video uploads are MP4/MOV or Matroska/WebM (the spec's .mp4 .mov .webm .mkv); transcription
 * uploads also the audio formats. Anything else (a playlist, an image, MPEG-TS, …) is refused at
 * completion, whatever its name or declared type.
 */
export const VIDEO_UPLOAD_CONTAINERS: readonly string[] = ['mov', 'matroska'];
export const MEDIA_UPLOAD_CONTAINERS: readonly string[] = [...VIDEO_UPLOAD_CONTAINERS, 'mp3', 'wav', 'aac', 'ogg', 'flac'];

/**
 * Storage keys of uploads (docs/storage.md, "Uploads write once"). A single-PUT upload's signed URL
 * writes `uploads/<kind>/<workspace>/<id>/source<ext>`; completing it moves the bytes to a new key
 * `<kind>/<workspace>/<id>/source-<token><ext>` that no upload URL can write, and only that key is
 * measured, charged and read by jobs. A multipart upload is created on such a key directly (its part
 * URLs stop writing once it is completed).
 */
export type UploadArea = 'videos' | 'media';

export function uploadKeyOf(area: UploadArea, workspaceId: string, id: string, ext: string): string {
  return `uploads/${area}/${workspaceId}/${id}/source${ext}`;
}

/** `token`: a fresh random string per call (tests may pass one). */
export function measuredKeyOf(area: UploadArea, workspaceId: string, id: string, ext: string, token = randomBytes(6).toString('hex')): string {
  return `${area}/${workspaceId}/${id}/source-${token}${ext}`;
}

export const MIN_VIDEO_SECONDS = 60;
export const UPLOAD_URL_SECONDS = 3600;

export function extensionOf(fileName: string): string {
  const m = /(\.[A-Za-z0-9]+)$/.exec(fileName.trim());
  return m ? m[1].toLowerCase() : '';
}

/** `Video/MP4; codecs=...` -> `video/mp4`. */
export function baseContentType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/**
 * The failed fields of an upload declaration against a table of accepted types, empty when it is
 * acceptable; each with `allowed`: the accepted extensions, or the content types of the file's extension.
 */
export function checkDeclaration(fileName: string, contentType: string, accepted: Record<string, string[]>): FieldFailure[] {
  const allowed = accepted[extensionOf(fileName)];
  if (!allowed) return [{ field: 'file_name', rule: 'extension', allowed: Object.keys(accepted) }];
  if (!allowed.includes(baseContentType(contentType))) return [{ field: 'content_type', rule: 'media_type', allowed }];
  return [];
}

/** The failed fields of a video upload declaration, empty when it is acceptable. */
export function checkVideoDeclaration(fileName: string, contentType: string): FieldFailure[] {
  return checkDeclaration(fileName, contentType, VIDEO_CONTENT_TYPES);
}

/** Audio or video by extension (transcription uploads); undefined when neither is accepted. */
export function mediaKindOf(fileName: string): MediaKind | undefined {
  const ext = extensionOf(fileName);
  if (AUDIO_CONTENT_TYPES[ext]) return 'audio';
  if (VIDEO_CONTENT_TYPES[ext]) return 'video';
  return undefined;
}

/** The failed fields of a transcription upload declaration (audio or video). */
export function checkMediaDeclaration(fileName: string, contentType: string): FieldFailure[] {
  const kind = mediaKindOf(fileName);
  return checkDeclaration(
    fileName,
    contentType,
    kind === 'audio' ? AUDIO_CONTENT_TYPES : kind === 'video' ? VIDEO_CONTENT_TYPES : { ...VIDEO_CONTENT_TYPES, ...AUDIO_CONTENT_TYPES },
  );
}

/** 413 FILE_TOO_LARGE with the real ceiling in `extra.max_size` when `size` is above `maxSize`. */
export function assertUploadSize(size: number, maxSize: number): void {
  if (size > maxSize) throw new DomainError('FILE_TOO_LARGE', { max_size: maxSize });
}

/** A title from a file name: the name without its extension and folder. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const title = base.replace(/\.[A-Za-z0-9]+$/, '').trim();
  return title || 'Untitled';
}
