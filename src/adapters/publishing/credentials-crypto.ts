import crypto from 'node:crypto';
import { CREDENTIALS_KEY_BYTES, decodeCredentialsKey } from '../../config/parse.js';

/**
 * Connection credentials at rest: AES-256-GCM with a 32-byte key (CUTROOM_CREDENTIALS_KEY, or one generated
 * once and kept by the service). The sealed string is versioned and names its key:
 *
 *   v1.<key id>.<iv>.<ciphertext>.<tag>      (base64url parts; key id = first 8 bytes of SHA-256(key), hex)
 *
 * The version and key id are authenticated (additional data), so any change to any part is detected.
 * Several keys can be given to `decryptCredentials` (rotation: decrypt with old + new, re-encrypt with new).
 */

export const CREDENTIALS_FORMAT_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class CredentialsCryptoError extends Error {
  constructor(
    message: string,
    readonly reason: 'bad_key' | 'malformed' | 'unknown_version' | 'unknown_key' | 'tampered',
  ) {
    super(message);
    this.name = 'CredentialsCryptoError';
  }
}

/**
 * Reads a key (the written form is config's rule: `decodeCredentialsKey` in src/config/parse.ts). Throws
 * CredentialsCryptoError (`bad_key`) otherwise; src/config/publishing.env.ts answers a ConfigError instead.
 */
export function parseCredentialsKey(raw: string | Buffer): Buffer {
  const read = decodeCredentialsKey(raw);
  if ('error' in read) throw new CredentialsCryptoError(read.error, 'bad_key');
  return read.key;
}

/** A new random key, base64 (what to keep when CUTROOM_CREDENTIALS_KEY is unset). */
export function generateCredentialsKey(): string {
  return crypto.randomBytes(CREDENTIALS_KEY_BYTES).toString('base64');
}

/** The key's public id written into sealed strings: 16 hex characters. */
export function credentialsKeyId(key: Buffer | string): string {
  return crypto.createHash('sha256').update(parseCredentialsKey(key)).digest('hex').slice(0, 16);
}

function aad(version: string, kid: string): Buffer {
  return Buffer.from(`cutroom-credentials.${version}.${kid}`, 'utf8');
}

/** Seals a JSON-serialisable object (the connection's credentials). */
export function encryptCredentials(obj: Record<string, unknown>, key: Buffer | string): string {
  const k = parseCredentialsKey(key);
  const kid = credentialsKeyId(k);
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(CREDENTIALS_FORMAT_VERSION, kid));
  const ct = Buffer.concat([cipher.update(JSON.stringify(obj), 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [CREDENTIALS_FORMAT_VERSION, kid, iv.toString('base64url'), ct.toString('base64url'), tag.toString('base64url')].join('.');
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Opens a sealed string with `key` (or the matching one of `keys`). Throws CredentialsCryptoError:
 * `malformed`, `unknown_version`, `unknown_key` (sealed with a key not given), `tampered` (authentication failed).
 */
export function decryptCredentials(sealed: string, key: Buffer | string | Array<Buffer | string>): Record<string, unknown> {
  const parts = sealed.split('.');
  if (parts.length < 1 || !/^v\d+$/.test(parts[0])) throw new CredentialsCryptoError('not a sealed credentials string', 'malformed');
  if (parts[0] !== CREDENTIALS_FORMAT_VERSION) throw new CredentialsCryptoError(`unknown credentials format ${parts[0]}`, 'unknown_version');
  if (parts.length !== 5 || !/^[0-9a-f]{16}$/.test(parts[1]) || !parts.slice(2).every((p) => B64URL.test(p))) {
    throw new CredentialsCryptoError('malformed sealed credentials', 'malformed');
  }
  const [version, kid, ivPart, ctPart, tagPart] = parts;
  const iv = Buffer.from(ivPart, 'base64url');
  const tag = Buffer.from(tagPart, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new CredentialsCryptoError('malformed sealed credentials', 'malformed');

  const candidates = (Array.isArray(key) ? key : [key]).map(parseCredentialsKey);
  const k = candidates.find((c) => credentialsKeyId(c) === kid);
  if (!k) throw new CredentialsCryptoError('credentials were sealed with another key', 'unknown_key');

  const decipher = crypto.createDecipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad(version, kid));
  decipher.setAuthTag(tag);
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(Buffer.from(ctPart, 'base64url')), decipher.final()]);
  } catch {
    throw new CredentialsCryptoError('sealed credentials failed authentication (tampered or wrong key)', 'tampered');
  }
  const value: unknown = JSON.parse(plain.toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CredentialsCryptoError('sealed credentials are not an object', 'malformed');
  }
  return value as Record<string, unknown>;
}
