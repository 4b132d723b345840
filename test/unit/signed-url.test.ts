import { describe, expect, it } from 'vitest';
import { canonicalString, computeSignature, signUrl, signedQuery, verifySignedRequest, type SignedFields } from '../../src/adapters/storage/signed-url.js';
import { contentDisposition } from '../../src/shared/content-disposition.js';

const SECRET = 'unit-test-secret-unit-test-secret-0123456789';
const NOW = 1_800_000_000;

const put: SignedFields = { method: 'PUT', path: '/files/videos/a.mp4', expires: NOW + 3600, contentType: 'video/mp4', contentLength: 1234 };
const get: SignedFields = { method: 'GET', path: '/files/videos/a.mp4', expires: NOW + 3600, downloadFilename: 'Clip «1».mp4' };

function target(f: SignedFields, secret = SECRET): string {
  return `${f.path}?${signedQuery(secret, f)}`;
}

function tamper(url: string, name: string, value: string): string {
  const [p, q] = url.split('?');
  const params = new URLSearchParams(q);
  params.set(name, value);
  return `${p}?${params.toString()}`;
}

describe('signed URLs', () => {
  it('signs into a URL under the base and verifies it', () => {
    const url = signUrl(SECRET, 'https://cut.example.com/', put);
    expect(url.startsWith('https://cut.example.com/files/videos/a.mp4?expires=')).toBe(true);
    const u = new URL(url);
    expect(u.searchParams.get('ct')).toBe('video/mp4');
    expect(u.searchParams.get('len')).toBe('1234');
    const v = verifySignedRequest(SECRET, { method: 'PUT', url: `${u.pathname}${u.search}` }, NOW);
    expect(v).toEqual({ ok: true, fields: put });
  });

  it('verifies GET with a download filename, and HEAD as GET', () => {
    const t = target(get);
    expect(verifySignedRequest(SECRET, { method: 'GET', url: t }, NOW)).toEqual({ ok: true, fields: get });
    expect(verifySignedRequest(SECRET, { method: 'HEAD', url: t }, NOW).ok).toBe(true);
  });

  it('refuses every tampered field', () => {
    const t = target(put);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: tamper(t, 'ct', 'text/html') }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: tamper(t, 'len', '1235') }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: tamper(t, 'expires', String(NOW + 99999)) }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: t.replace('/a.mp4', '/b.mp4') }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    const g = target(get);
    expect(verifySignedRequest(SECRET, { method: 'GET', url: tamper(g, 'dl', 'other.mp4') }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'GET', url: tamper(g, 'ct', 'text/html') }, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a flipped signature, a foreign secret, a missing or duplicated parameter', () => {
    const t = target(put);
    const sig = new URLSearchParams(t.split('?')[1]).get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: tamper(t, 'sig', flipped) }, NOW).ok).toBe(false);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: tamper(t, 'sig', sig.slice(0, 20)) }, NOW).ok).toBe(false);
    expect(verifySignedRequest('another-secret-another-secret-0123456789', { method: 'PUT', url: t }, NOW).ok).toBe(false);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: put.path }, NOW).ok).toBe(false);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: `${t}&len=1234` }, NOW).ok).toBe(false);
    const noSig = t.replace(/&sig=[^&]+/, '');
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: noSig }, NOW).ok).toBe(false);
  });

  it('refuses the wrong method', () => {
    expect(verifySignedRequest(SECRET, { method: 'GET', url: target(put) }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: target(get) }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'DELETE', url: target(get) }, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignedRequest(SECRET, { method: 'POST', url: target(put) }, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is valid up to its expiry second and expired after it', () => {
    const t = target(put);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: t }, put.expires).ok).toBe(true);
    expect(verifySignedRequest(SECRET, { method: 'PUT', url: t }, put.expires + 1)).toEqual({ ok: false, reason: 'expired' });
  });

  it('serialises fields unambiguously', () => {
    const a = canonicalString({ method: 'GET', path: '/files/a', expires: 1, contentType: 'x', downloadFilename: 'y' });
    const b = canonicalString({ method: 'GET', path: '/files/a', expires: 1, contentType: 'x","y' });
    expect(a).not.toBe(b);
    expect(computeSignature(SECRET, get)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses to sign a PUT without its type or length', () => {
    expect(() => signedQuery(SECRET, { method: 'PUT', path: '/files/a', expires: NOW, contentLength: 1 })).toThrow();
    expect(() => signedQuery(SECRET, { method: 'PUT', path: '/files/a', expires: NOW, contentType: 'video/mp4' })).toThrow();
    expect(() => signedQuery(SECRET, { method: 'GET', path: 'files/a', expires: NOW })).toThrow();
  });

  it('builds a Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('clip.mp4')).toBe(`attachment; filename="clip.mp4"; filename*=UTF-8''clip.mp4`);
    expect(contentDisposition('Clip «1" (2).mp4')).toBe(`attachment; filename="Clip _1_ (2).mp4"; filename*=UTF-8''Clip%20%C2%AB1%22%20%282%29.mp4`);
  });
});
