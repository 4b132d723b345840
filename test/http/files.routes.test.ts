import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { createStorage } from '../../src/adapters/storage/storage.factory.js';
import { DrizzleSettingsRepository } from '../../src/adapters/db/repositories/settings.repository.js';
import { SigningSecretService } from '../../src/domain/auth/signing-secret.service.js';
import { parseRange } from '../../src/http/routes/files.routes.js';

let t: TestApp;
let storage: LocalStorage;
const bytes = randomBytes(10_000);

/** The request target (path and query) of a signed URL; inject() talks to the app directly. */
function target(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

function tmpFiles(): string[] {
  const dir = path.join(t.dataDir, 'files', '.tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

beforeAll(async () => {
  t = await createTestApp();
  expect(t.c.storage).toBeInstanceOf(LocalStorage);
  storage = t.c.storage as LocalStorage;
  const url = await storage.presignPut('videos/stored.mp4', { contentType: 'video/mp4', contentLength: bytes.length, expiresInSeconds: 3600 });
  const res = await t.app.inject({ method: 'PUT', url: target(url), headers: { 'content-type': 'video/mp4' }, payload: bytes });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({});
});
afterAll(async () => {
  await t?.close();
});

describe('PUT /files/*', () => {
  const putUrl = (key: string, len = 4, ct = 'video/mp4', expires = 3600) =>
    storage.presignPut(key, { contentType: ct, contentLength: len, expiresInSeconds: expires }).then(target);

  it('stores the body at the key, outside /api/v1 and without an API key', async () => {
    expect(fs.readFileSync(path.join(t.dataDir, 'files', 'videos', 'stored.mp4')).equals(bytes)).toBe(true);
    const url = await storage.presignPut('videos/x.mp4', { contentType: 'video/mp4', contentLength: 1, expiresInSeconds: 60 });
    expect(url.startsWith(`${t.c.config.publicBaseUrl}/files/videos/x.mp4?expires=`)).toBe(true);
  });

  it('answers 403 SIGNATURE_INVALID to a tampered URL', async () => {
    const url = await putUrl('videos/t.mp4');
    for (const bad of [
      url.replace('len=4', 'len=5'),
      url.replace('ct=video%2Fmp4', 'ct=text%2Fhtml'),
      url.replace('/videos/t.mp4', '/videos/u.mp4'),
      url.replace(/sig=[^&]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      url.replace(/&sig=[^&]+/, ''),
    ]) {
      const res = await t.app.inject({ method: 'PUT', url: bad, headers: { 'content-type': 'video/mp4' }, payload: 'abcd' });
      expect(res.statusCode, bad).toBe(403);
      expect(res.json()).toEqual({ code: 'SIGNATURE_INVALID' });
    }
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'videos', 't.mp4'))).toBe(false);
  });

  it('answers 403 SIGNATURE_EXPIRED to an expired URL', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: await putUrl('videos/e.mp4', 4, 'video/mp4', -5),
      headers: { 'content-type': 'video/mp4' },
      payload: 'abcd',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'SIGNATURE_EXPIRED' });
  });

  it('answers 403 SIGNATURE_INVALID to the wrong method', async () => {
    const get = await t.app.inject({ method: 'GET', url: await putUrl('videos/stored.mp4', bytes.length) });
    expect(get.statusCode).toBe(403);
    expect(get.json()).toEqual({ code: 'SIGNATURE_INVALID' });
    const getUrl = target(await storage.presignGet('videos/stored.mp4', { expiresInSeconds: 60 }));
    const put = await t.app.inject({ method: 'PUT', url: getUrl, headers: { 'content-type': 'video/mp4' }, payload: 'abcd' });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toEqual({ code: 'SIGNATURE_INVALID' });
  });

  it('answers 400 on a Content-Type other than the signed one', async () => {
    const url = await putUrl('videos/ct.mp4');
    for (const headers of [{ 'content-type': 'video/webm' }, {}]) {
      const res = await t.app.inject({ method: 'PUT', url, headers, payload: 'abcd' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'header.content-type', rule: 'signed' }] } });
    }
    // Media types compare case-insensitively.
    const ok = await t.app.inject({ method: 'PUT', url, headers: { 'content-type': 'Video/MP4' }, payload: 'abcd' });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 400 on a body shorter or longer than the signed length', async () => {
    for (const payload of ['abc', 'abcde', '']) {
      const res = await t.app.inject({ method: 'PUT', url: await putUrl('videos/len.mp4'), headers: { 'content-type': 'video/mp4' }, payload });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'header.content-length', rule: 'signed' }] } });
    }
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'videos', 'len.mp4'))).toBe(false);
  });

  it('counts the bytes of a chunked body (no Content-Length) and keeps nothing when they differ', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const send = (url: string, chunks: string[]) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'PUT', path: url, headers: { 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' } },
          (res) => {
            let body = '';
            res
              .setEncoding('utf8')
              .on('data', (c) => (body += c))
              .on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        for (const c of chunks) req.write(c);
        req.end();
      });
    const long = await send(await putUrl('videos/chunked.mp4'), ['ab', 'cd', 'ef']);
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body).extra.errors[0].field).toBe('header.content-length');
    const short = await send(await putUrl('videos/chunked.mp4'), ['ab', 'c']);
    expect(short.status).toBe(400);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'videos', 'chunked.mp4'))).toBe(false);
    const exact = await send(await putUrl('videos/chunked.mp4'), ['ab', 'cd']);
    expect(exact.status).toBe(200);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', 'videos', 'chunked.mp4'), 'utf8')).toBe('abcd');
    expect(tmpFiles()).toEqual([]);
  });

  it('accepts an empty body when the signed length is 0', async () => {
    const res = await t.app.inject({ method: 'PUT', url: await putUrl('videos/empty.mp4', 0), headers: { 'content-type': 'video/mp4' }, payload: '' });
    expect(res.statusCode).toBe(200);
    expect(fs.statSync(path.join(t.dataDir, 'files', 'videos', 'empty.mp4')).size).toBe(0);
  });

  it('keeps any declared type as raw bytes (no JSON parsing)', async () => {
    const url = await putUrl('data/raw.json', 9, 'application/json');
    const res = await t.app.inject({ method: 'PUT', url, headers: { 'content-type': 'application/json' }, payload: '{not json' });
    expect(res.statusCode).toBe(200);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', 'data', 'raw.json'), 'utf8')).toBe('{not json');
  });

  it('refuses a part of an unknown multipart upload', async () => {
    const mp = await storage.createMultipart('videos/mp.mp4', { contentType: 'video/mp4', size: 6, partSize: 3, expiresInSeconds: 60 });
    fs.rmSync(path.join(t.dataDir, 'files', '.multipart', mp.uploadId), { recursive: true });
    const res = await t.app.inject({ method: 'PUT', url: target(mp.parts[0].url), headers: { 'content-type': 'video/mp4' }, payload: 'abc' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'FILE_NOT_FOUND' });
  });
});

describe('GET and HEAD /files/*', () => {
  const getUrl = (key = 'videos/stored.mp4', opts: { downloadFilename?: string; contentType?: string; expiresInSeconds?: number } = {}) =>
    storage.presignGet(key, { expiresInSeconds: 3600, ...opts }).then(target);

  it('answers the bytes with type, length and Accept-Ranges', async () => {
    const res = await t.app.inject({ method: 'GET', url: await getUrl() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers HEAD without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: await getUrl() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 206 with Content-Range to a Range request', async () => {
    const url = await getUrl();
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=9990-', 9990, 9999],
      ['bytes=-10', 9990, 9999],
      ['bytes=9000-20000', 9000, 9999],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { range } });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers 416 to an unsatisfiable range', async () => {
    for (const range of ['bytes=10000-', 'bytes=20000-30000', 'bytes=-0']) {
      const res = await t.app.inject({ method: 'GET', url: await getUrl(), headers: { range } });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${bytes.length}`);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('ignores a Range it does not serve (several ranges, other units)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1']) {
      const res = await t.app.inject({ method: 'GET', url: await getUrl(), headers: { range } });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length).toBe(bytes.length);
    }
  });

  it('sets Content-Disposition and Content-Type when the URL carries them', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: await getUrl('videos/stored.mp4', { downloadFilename: 'Clip 1.mp4', contentType: 'application/octet-stream' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Clip 1.mp4"; filename*=UTF-8''Clip%201.mp4`);
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('answers 404 FILE_NOT_FOUND for a missing object, 403 for bad or expired signatures', async () => {
    const missing = await t.app.inject({ method: 'GET', url: await getUrl('videos/missing.mp4') });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'FILE_NOT_FOUND' });
    const tampered = await t.app.inject({ method: 'GET', url: (await getUrl()).replace('stored', 'other1') });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toEqual({ code: 'SIGNATURE_INVALID' });
    const expired = await t.app.inject({ method: 'GET', url: await getUrl('videos/stored.mp4', { expiresInSeconds: -1 }) });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ code: 'SIGNATURE_EXPIRED' });
    const unsigned = await t.app.inject({ method: 'GET', url: '/files/videos/stored.mp4' });
    expect(unsigned.statusCode).toBe(403);
    expect(unsigned.json()).toEqual({ code: 'SIGNATURE_INVALID' });
  });
});

describe('signing secret', () => {
  it('is generated once and shared through the settings table', async () => {
    const storedSigningSecret = () => new SigningSecretService({ settings: new DrizzleSettingsRepository(t.c.database.db) }).resolve();
    const other = await createStorage({ storage: { driver: 'local' }, dataDir: t.dataDir, publicBaseUrl: 'http://x.test', storedSigningSecret });
    expect((other as LocalStorage).signingSecret).toBe(storage.signingSecret);
    const url = target(await other.presignGet('videos/stored.mp4', { expiresInSeconds: 60 }));
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('comes from CUTROOM_SIGNING_SECRET when set', async () => {
    const secret = 'x'.repeat(40);
    const s = await createStorage({ storage: { driver: 'local', signingSecret: secret }, dataDir: t.dataDir, publicBaseUrl: 'http://x.test' });
    expect((s as LocalStorage).signingSecret).toBe(secret);
    const url = target(await s.presignGet('videos/stored.mp4', { expiresInSeconds: 60 }));
    expect((await t.app.inject({ method: 'GET', url })).json()).toEqual({ code: 'SIGNATURE_INVALID' });
  });
});

describe('parseRange', () => {
  it('follows RFC 9110 for one range', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 10)).toBeNull();
  });
});
