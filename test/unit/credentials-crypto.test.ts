import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CredentialsCryptoError,
  credentialsKeyId,
  decryptCredentials,
  encryptCredentials,
  generateCredentialsKey,
  parseCredentialsKey,
} from '../../src/adapters/publishing/credentials-crypto.js';

const creds = { access_token: 'ya29.secret', refresh_token: '1//refresh', client_id: 'id', expires_at: '2030-01-01T00:00:00.000Z', note: 'ünïcødé' };

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CredentialsCryptoError);
    return (err as CredentialsCryptoError).reason;
  }
  throw new Error('did not throw');
}

describe('credentials encryption', () => {
  const key = generateCredentialsKey();

  it('round-trips an object; the sealed string hides it and names version and key', () => {
    const sealed = encryptCredentials(creds, key);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('ya29');
    expect(sealed.split('.')[1]).toBe(credentialsKeyId(key));
    expect(decryptCredentials(sealed, key)).toEqual(creds);
  });

  it('uses a fresh IV each time', () => {
    expect(encryptCredentials(creds, key)).not.toBe(encryptCredentials(creds, key));
  });

  it('accepts hex, base64, base64url and raw 32-byte keys', () => {
    const raw = crypto.randomBytes(32);
    const sealed = encryptCredentials(creds, raw);
    expect(decryptCredentials(sealed, raw.toString('hex'))).toEqual(creds);
    expect(decryptCredentials(sealed, raw.toString('base64'))).toEqual(creds);
    expect(decryptCredentials(sealed, raw.toString('base64url'))).toEqual(creds);
    expect(parseCredentialsKey(` ${raw.toString('hex')}\n`)).toEqual(raw);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(reason(() => parseCredentialsKey('short'))).toBe('bad_key');
    expect(reason(() => parseCredentialsKey(crypto.randomBytes(16).toString('base64')))).toBe('bad_key');
    expect(reason(() => parseCredentialsKey(crypto.randomBytes(31)))).toBe('bad_key');
    expect(reason(() => encryptCredentials(creds, 'a'.repeat(63)))).toBe('bad_key');
  });

  it('detects tampering with any part', () => {
    const sealed = encryptCredentials(creds, key);
    const parts = sealed.split('.');
    for (const i of [2, 3, 4]) {
      const bytes = Buffer.from(parts[i], 'base64url');
      bytes[0] ^= 1;
      const changed = [...parts];
      changed[i] = bytes.toString('base64url');
      expect(reason(() => decryptCredentials(changed.join('.'), key))).toBe('tampered');
    }
    // A truncated ciphertext fails authentication too.
    const shorter = [...parts];
    shorter[3] = Buffer.from(parts[3], 'base64url').subarray(1).toString('base64url');
    expect(reason(() => decryptCredentials(shorter.join('.'), key))).toBe('tampered');
  });

  it('names a wrong key, a wrong version and malformed strings', () => {
    const sealed = encryptCredentials(creds, key);
    expect(reason(() => decryptCredentials(sealed, generateCredentialsKey()))).toBe('unknown_key');
    expect(reason(() => decryptCredentials(sealed.replace(/^v1\./, 'v2.'), key))).toBe('unknown_version');
    expect(reason(() => decryptCredentials('{"access_token":"plain"}', key))).toBe('malformed');
    expect(reason(() => decryptCredentials('v1.abc', key))).toBe('malformed');
    expect(reason(() => decryptCredentials(sealed.split('.').slice(0, 4).join('.'), key))).toBe('malformed');
    // A forged key id that matches the given key still fails: the id is authenticated data.
    const other = generateCredentialsKey();
    const forged = sealed.split('.');
    forged[1] = credentialsKeyId(other);
    expect(reason(() => decryptCredentials(forged.join('.'), other))).toBe('tampered');
  });

  it('decrypts with the matching key of several (rotation)', () => {
    const oldKey = generateCredentialsKey();
    const sealedOld = encryptCredentials(creds, oldKey);
    const sealedNew = encryptCredentials({ a: 1 }, key);
    expect(decryptCredentials(sealedOld, [key, oldKey])).toEqual(creds);
    expect(decryptCredentials(sealedNew, [key, oldKey])).toEqual({ a: 1 });
  });
});
