/**
 * The files a person chose in this tab, by the `media_id` they were uploaded as. The API never serves an
 * uploaded file back, so a transcript plays along with the person's own copy (an object URL of it; the
 * CSP allows `blob:` for media only). Gone when the tab closes; another copy can be chosen on the page.
 */
const files = new Map<string, File>();

export function rememberMedia(mediaId: string, file: File): void {
  files.set(mediaId, file);
}

export function localMedia(mediaId: string): File | undefined {
  return files.get(mediaId);
}

/** A media file's length as the browser reads it (seconds), or null when it cannot play that file. */
export function measureDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const el = document.createElement(file.type.startsWith('video/') ? 'video' : 'audio');
    const done = (value: number | null) => {
      el.removeAttribute('src');
      URL.revokeObjectURL(url);
      resolve(value);
    };
    el.preload = 'metadata';
    el.onloadedmetadata = () => done(Number.isFinite(el.duration) ? el.duration : null);
    el.onerror = () => done(null);
    el.src = url;
  });
}
