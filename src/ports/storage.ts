import type { Readable } from 'node:stream';

/** Object storage: the local data folder (embedded) or an S3-compatible bucket (distributed). */

export interface ObjectInfo {
  size: number;
  contentType?: string;
}

export interface PresignPutOptions {
  contentType: string;
  /** Declared size in bytes; the upload is refused when the body differs. */
  contentLength: number;
  expiresInSeconds: number;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  /** Sets Content-Disposition: attachment; filename=... on the answer. */
  downloadFilename?: string;
  contentType?: string;
}

export interface MultipartUpload {
  uploadId: string;
  partSize: number;
  parts: Array<{ part_number: number; url: string; size: number }>;
}

/** What a client learnt from one part PUT: its number and the ETag header of the answer. */
export interface UploadedPart {
  part_number: number;
  etag: string;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** A signed URL that accepts a PUT of the raw bytes (no API key) until `commitUpload` (see there). */
  presignPut(key: string, opts: PresignPutOptions): Promise<string>;
  /** A signed URL that answers GET (and Range requests) for the object. */
  presignGet(key: string, opts: PresignGetOptions): Promise<string>;
  /** Splits a large upload into parts, each with its own signed PUT URL. */
  createMultipart(key: string, opts: { contentType: string; size: number; partSize: number; expiresInSeconds: number }): Promise<MultipartUpload>;
  /**
   * Assembles the uploaded parts into the object `key`; throws FILE_NOT_FOUND when a part is missing or
   * has the wrong size. `uploaded` (the ETag answered to each part's PUT) is only needed by S3-compatible
   * stores that do not implement ListParts; the local driver and stores with ListParts ignore it.
   */
  completeMultipart(key: string, uploadId: string, uploaded?: UploadedPart[]): Promise<void>;
  /**
   * Ends a single-PUT upload: moves what the signed URL of `presignPut(uploadKey)` wrote to `key`, a key
   * no upload URL writes (callers pick a new one each time), so that the object a job measures and reads
   * cannot be replaced afterwards. The local driver then refuses PUTs to that URL (409
   * UPLOAD_ALREADY_COMPLETED) as long as `key` exists; S3 cannot refuse a presigned PUT, which then only
   * writes `uploadKey` again, where nothing reads. FILE_NOT_FOUND when nothing was uploaded.
   * (A multipart upload needs no move: its part URLs die when it is completed.)
   */
  commitUpload(uploadKey: string, key: string): Promise<void>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Stores a local file under `key` (the file is copied/uploaded; the caller keeps it). */
  putFile(key: string, localPath: string, contentType: string): Promise<void>;
  /** `range` is inclusive like HTTP (`end` is clamped to the size); FILE_NOT_FOUND when the object is missing. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** A path on this machine holding the object's bytes, valid during `fn` (downloaded first for S3). */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  delete(key: string): Promise<void>;
  /** Resolves when the store answers (local: the folder is writable; S3: the bucket answers HEAD); GET /readyz. */
  ping(): Promise<void>;
}
