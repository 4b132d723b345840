import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one signed-URL scheme of the service (local storage driver; S3 uses its own presigning).
 *
 * A URL `<base><path>?expires=<unix>&ct=<type>&len=<bytes>&dl=<filename>&sig=<base64url>` is valid when
 * `sig` is HMAC-SHA256(secret, canonical(method, path, expires, ct, len, dl)) and `expires` has not
 * passed. PUT URLs always carry `ct` and `len`, so the declared Content-Type and size cannot be changed;
 * GET URLs may carry `ct` (answer Content-Type) and `dl` (download filename). HEAD is verified as GET.
 * Everything here is pure: no I/O, the clock is a parameter.
 */

export type SignedMethod = 'GET' | 'PUT';

export interface SignedFields {
  method: SignedMethod;
  /** The URL path the signature covers, e.g. `/files/videos/abc.mp4` (no query, not percent-encoded). */
  path: string;
  /** Unix seconds; the URL is valid up to and including this second. */
  expires: number;
  /** PUT: the declared Content-Type (required). GET: the Content-Type to answer with (optional). */
  contentType?: string;
  /** PUT: the declared body size in bytes (required). */
  contentLength?: number;
  /** GET: answer with Content-Disposition: attachment and this filename. */
  downloadFilename?: string;
}

export type VerifyResult = { ok: true; fields: SignedFields } | { ok: false; reason: 'invalid' | 'expired' };

const VERSION = 'cutroom-url-v1';
const PARAMS = ['expires', 'ct', 'len', 'dl', 'sig'] as const;
const SIG_BYTES = 32;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** An unambiguous serialisation of every signed field (JSON array: no separator can be smuggled in). */
export function canonicalString(f: SignedFields): string {
  return JSON.stringify([VERSION, f.method, f.path, f.expires, f.contentType ?? null, f.contentLength ?? null, f.downloadFilename ?? null]);
}

function hmac(secret: string | Buffer, f: SignedFields): Buffer {
  return createHmac('sha256', secret).update(canonicalString(f)).digest();
}

export function computeSignature(secret: string | Buffer, f: SignedFields): string {
  return hmac(secret, f).toString('base64url');
}

function checkFields(f: SignedFields): void {
  if (!f.path.startsWith('/') || f.path.includes('?') || f.path.includes('#')) throw new Error(`signed path must be a bare absolute path: ${f.path}`);
  if (!Number.isSafeInteger(f.expires) || f.expires < 0) throw new Error('expires must be unix seconds');
  if (f.method === 'PUT') {
    if (!f.contentType) throw new Error('a signed PUT needs its content type');
    if (f.contentLength === undefined || !Number.isSafeInteger(f.contentLength) || f.contentLength < 0) {
      throw new Error('a signed PUT needs its content length');
    }
  }
}

/** The query string (without `?`) carrying the signed fields and the signature. */
export function signedQuery(secret: string | Buffer, f: SignedFields): string {
  checkFields(f);
  const q = new URLSearchParams();
  q.set('expires', String(f.expires));
  if (f.contentType !== undefined) q.set('ct', f.contentType);
  if (f.contentLength !== undefined) q.set('len', String(f.contentLength));
  if (f.downloadFilename !== undefined) q.set('dl', f.downloadFilename);
  q.set('sig', computeSignature(secret, f));
  return q.toString();
}

/** `<baseUrl><path>?<signed query>`; `baseUrl` is the public origin (and path prefix), without a trailing slash. */
export function signUrl(secret: string | Buffer, baseUrl: string, f: SignedFields): string {
  return `${baseUrl.replace(/\/+$/, '')}${f.path}?${signedQuery(secret, f)}`;
}

const INTEGER = /^\d{1,15}$/;

/**
 * Checks a request against its signature. `url` is the request target as received (`/path?query`).
 * Tampered, unsigned, malformed or wrong-method requests are `invalid`; a genuine but late one is `expired`.
 */
export function verifySignedRequest(secret: string | Buffer, req: { method: string; url: string }, now: number = nowSeconds()): VerifyResult {
  const invalid: VerifyResult = { ok: false, reason: 'invalid' };
  const method = req.method.toUpperCase() === 'HEAD' ? 'GET' : req.method.toUpperCase();
  if (method !== 'GET' && method !== 'PUT') return invalid;
  const q = req.url.indexOf('?');
  if (q < 0) return invalid;
  const path = req.url.slice(0, q);
  const query = new URLSearchParams(req.url.slice(q + 1));
  for (const name of PARAMS) if (query.getAll(name).length > 1) return invalid;

  const expiresRaw = query.get('expires');
  const sigRaw = query.get('sig');
  const lenRaw = query.get('len');
  if (!expiresRaw || !INTEGER.test(expiresRaw) || !sigRaw) return invalid;
  if (lenRaw !== null && !INTEGER.test(lenRaw)) return invalid;
  const fields: SignedFields = {
    method,
    path,
    expires: Number(expiresRaw),
    contentType: query.get('ct') ?? undefined,
    contentLength: lenRaw === null ? undefined : Number(lenRaw),
    downloadFilename: query.get('dl') ?? undefined,
  };
  if (method === 'PUT' && (fields.contentType === undefined || fields.contentLength === undefined)) return invalid;

  const presented = Buffer.from(sigRaw, 'base64url');
  if (presented.length !== SIG_BYTES || presented.toString('base64url') !== sigRaw) return invalid;
  if (!timingSafeEqual(presented, hmac(secret, fields))) return invalid;
  if (now > fields.expires) return { ok: false, reason: 'expired' };
  return { ok: true, fields };
}
