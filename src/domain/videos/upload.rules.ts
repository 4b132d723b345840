/** Pure rules of video uploads (spec: POST /videos/upload, Limits). */

/** Accepted extensions and the content types that match each. */
export const VIDEO_CONTENT_TYPES: Record<string, string[]> = {
  '.mp4': ['video/mp4'],
  '.mov': ['video/quicktime', 'video/mp4'],
  '.webm': ['video/webm'],
  '.mkv': ['video/x-matroska', 'video/matroska', 'video/webm'],
};

export const MIN_VIDEO_SECONDS = 60;
export const UPLOAD_URL_SECONDS = 3600;

export function extensionOf(fileName: string): string {
  const m = /(\.[A-Za-z0-9]+)$/.exec(fileName.trim());
  return m ? m[1].toLowerCase() : '';
}

/** The failed fields of an upload declaration, empty when it is acceptable. */
export function checkVideoDeclaration(fileName: string, contentType: string): Array<{ field: string; rule: string }> {
  const ext = extensionOf(fileName);
  const allowed = VIDEO_CONTENT_TYPES[ext];
  if (!allowed) return [{ field: 'file_name', rule: 'extension' }];
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (!allowed.includes(type)) return [{ field: 'content_type', rule: 'media_type' }];
  return [];
}

/** A title from a file name: the name without its extension and folder. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const title = base.replace(/\.[A-Za-z0-9]+$/, '').trim();
  return title || 'Untitled';
}
