/** Uploads from a web page: a File or Blob (sliced per part, so a failed part is sent again alone), sent with XMLHttpRequest for its upload progress. */
import { CutroomError } from './errors.js';
import { contentTypeOf, type PutPart, type UploadKind, type UploadSource, type UploadVideoOptions } from './upload.js';

/** The upload of a Blob; a File gives its own name, a Blob needs `opts.fileName`. */
export function blobSource(file: Blob, opts: UploadVideoOptions, kind: UploadKind = 'video'): UploadSource<Blob> {
  const fileName = opts.fileName ?? (typeof File !== 'undefined' && file instanceof File ? file.name : undefined);
  if (!fileName) throw new TypeError('uploadVideo(blob) needs opts.fileName');
  return {
    fileName,
    size: file.size,
    contentType: opts.contentType ?? contentTypeOf(fileName, kind),
    read: (start, length) => file.slice(start, start + length),
    rereadable: true,
  };
}

/** PUTs a Blob to a signed URL (no key); `fetch` cannot report upload progress, XMLHttpRequest can. */
export const xhrPut: PutPart<Blob> = (url, body, _length, contentType, onBytes, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    let reported = 0;
    const abort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', abort);
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', contentType);
    xhr.upload.onprogress = (e) => {
      onBytes(e.loaded - reported);
      reported = e.loaded;
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        if (reported < body.size) onBytes(body.size - reported);
        return resolve();
      }
      const headers = new Headers();
      const requestId = xhr.getResponseHeader('x-request-id');
      if (requestId) headers.set('x-request-id', requestId);
      CutroomError.fromResponse(new Response(xhr.responseText, { status: xhr.status, headers })).then(reject, reject);
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError(`upload to ${new URL(url).origin} failed (network)`));
    };
    xhr.onabort = () => {
      done();
      reject(signal?.reason ?? new DOMException('upload aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
