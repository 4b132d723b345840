import { createHmac, timingSafeEqual } from 'node:crypto';
import { CutroomConfigError, CutroomError } from './errors.js';
import type { WebhookEvent } from './webhook-events.js';

/** Headers as Node (`req.headers`), the fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest distance between `webhook-timestamp` and now, in seconds (default 300): older deliveries are replays. A finite number ≥ 0, else CutroomConfigError. */
  toleranceSeconds?: number;
  /** The current time (tests). A valid Date, else CutroomConfigError. */
  now?: Date;
}

/** The shortest signing key accepted, in bytes after base64 decoding (Cutroom's secrets have 32). */
const MIN_WEBHOOK_KEY_BYTES = 16;

/** Standard or URL-safe base64, padded or not, nothing else (no spaces, no line ends). */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The HMAC key of `secret` (`whsec_<base64>` or the bare base64). Throws CutroomConfigError for
 * anything that would key the HMAC with too little (an empty string from an unset variable, `whsec_`
 * alone, a passphrase that is not base64, a short key): such a key could be guessed, and an empty one
 * verifies signatures anyone can make.
 */
function signingKey(secret: unknown): Buffer {
  if (typeof secret !== 'string') throw new CutroomConfigError('secret', 'the webhook secret must be a string (`whsec_<base64>`)');
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!BASE64.test(encoded)) throw new CutroomConfigError('secret', 'the webhook secret is empty or not base64 (is its environment variable set?)');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_WEBHOOK_KEY_BYTES) {
    throw new CutroomConfigError('secret', `the webhook secret decodes to ${key.length} bytes, fewer than ${MIN_WEBHOOK_KEY_BYTES}`);
  }
  return key;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

const invalid = (reason: string) => new CutroomError({ status: null, code: 'WEBHOOK_INVALID', extra: { reason } });

/**
 * Checks a webhook delivery signed by the Standard Webhooks convention and answers its parsed JSON body,
 * a `WebhookEvent` (narrow it by `type`; pass another `T` for a body of your own shape).
 * The signed content is `<webhook-id>.<webhook-timestamp>.<body>`, its HMAC-SHA256 keyed with the
 * base64 key of `secret` (`whsec_<base64>`); `webhook-signature` lists `v1,<base64 signature>` entries
 * separated by spaces (several while a secret is rotated), one of which must match. `body` must be the
 * raw bytes received, before any JSON parsing. Throws CutroomError `WEBHOOK_INVALID` with
 * `extra.reason`: `headers`, `timestamp` (outside the tolerance) or `signature`.
 * Fails closed: the secret and options are checked first, on every call, and a secret that is not
 * base64 or decodes to fewer than 16 bytes, a `toleranceSeconds` that is not a finite number ≥ 0 or
 * an invalid `now` throw CutroomConfigError (`code` `CONFIG_INVALID`, `option`), whatever the delivery.
 */
export function verifyWebhook<T = WebhookEvent>(headers: WebhookHeaders, body: string | Uint8Array, secret: string, opts: VerifyWebhookOptions = {}): T {
  const key = signingKey(secret);
  const tolerance = opts.toleranceSeconds ?? 300;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new CutroomConfigError('toleranceSeconds', 'toleranceSeconds must be a finite number of seconds, 0 or more');
  }
  const nowMs = opts.now === undefined ? Date.now() : opts.now instanceof Date ? opts.now.getTime() : Number.NaN;
  if (!Number.isFinite(nowMs)) throw new CutroomConfigError('now', 'now must be a valid Date');

  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw invalid('headers');

  const now = Math.floor(nowMs / 1000);
  if (!(Math.abs(now - Number(timestamp)) <= tolerance)) throw invalid('timestamp');

  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(payload).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw invalid('signature');
  return JSON.parse(payload.toString('utf8')) as T;
}
