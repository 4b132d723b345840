import type { Readable } from 'node:stream';
import type { ObjectInfo } from './storage.js';

/** What a signed URL fixes: its path, and for a PUT the body's type and size (src/adapters/storage/signed-url.ts). */
export interface SignedUrlFields {
  /** The URL path the signature covers (no query, not percent-encoded). */
  path: string;
  contentType?: string;
  contentLength?: number;
  /** GET: answer with Content-Disposition: attachment and this filename. */
  downloadFilename?: string;
}

export type SignedUrlCheck = { ok: true; fields: SignedUrlFields } | { ok: false; reason: 'invalid' | 'expired' };

/** `completed`: the upload was completed, its URL no longer writes. The other refusals: not the signed length. */
export type SignedUploadResult = 'stored' | 'too_long' | 'too_short' | 'completed';

/** Where one signed PUT writes. */
export interface SignedUpload {
  /** Streams the body; it becomes visible only when exactly `expectedLength` bytes arrived. */
  receive(body: Readable, expectedLength: number): Promise<SignedUploadResult>;
}

/**
 * The signed URLs a storage driver leaves the service to answer (the local driver: `PUT|GET|HEAD /files/<key>`,
 * without an API key, spec: Authentication rule 5). S3 has none: its URLs point at the bucket.
 */
export interface SignedFiles {
  /** The path every such URL starts with, e.g. `/files/`. */
  readonly urlPrefix: string;
  /** Checks a request (`url`: the request target as received, `/path?query`) against its signature and expiry. */
  verify(req: { method: string; url: string }): SignedUrlCheck;
  /** The upload a signed PUT's key (the path after `urlPrefix`) writes to; null when the key names none. */
  upload(urlKey: string): SignedUpload | null;
  isValidKey(key: string): boolean;
  head(key: string): Promise<ObjectInfo | null>;
  /** `range` is inclusive like HTTP. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
}
