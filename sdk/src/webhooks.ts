import { createHmac, timingSafeEqual } from 'node:crypto';
import { CutroomError } from './errors.js';

/** Headers as Node (`req.headers`), the fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Largest distance between `webhook-timestamp` and now, in seconds (default 300): older deliveries are replays. */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

const invalid = (reason: string) => new CutroomError({ status: null, code: 'WEBHOOK_INVALID', extra: { reason } });

/**
 * Checks a webhook delivery signed by the Standard Webhooks convention and answers its parsed JSON body.
 * The signed content is `<webhook-id>.<webhook-timestamp>.<body>`, its HMAC-SHA256 keyed with the
 * base64 key of `secret` (`whsec_<base64>`); `webhook-signature` lists `v1,<base64 signature>` entries
 * separated by spaces (several while a secret is rotated), one of which must match. `body` must be the
 * raw bytes received, before any JSON parsing. Throws CutroomError `WEBHOOK_INVALID` with
 * `extra.reason`: `headers`, `timestamp` (outside the tolerance) or `signature`.
 */
export function verifyWebhook<T = unknown>(headers: WebhookHeaders, body: string | Uint8Array, secret: string, opts: VerifyWebhookOptions = {}): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw invalid('headers');

  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (opts.toleranceSeconds ?? 300)) throw invalid('timestamp');

  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
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
