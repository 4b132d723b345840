import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage, UploadedPart } from '../../src/ports/storage.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { S3Storage } from '../../src/adapters/storage/s3.storage.js';
import { signedFilesOf } from '../../src/adapters/storage/signed-files.js';
import { fileRoutes } from '../../src/http/routes/files.routes.js';
import { registerErrorHandling } from '../../src/http/errors.js';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: http.Server;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: Record<string, unknown>) => S3rverInstance;

const MiB = 1024 * 1024;
const BUCKET = 'cutroom-contract';

interface Harness {
  storage: Storage;
  close(): Promise<void>;
}

function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The local driver behind a real Fastify server on 127.0.0.1, its signed URLs pointing at that server. */
async function localHarness(): Promise<Harness> {
  const dataDir = tmp('cutroom-local-');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const storage = new LocalStorage({ dataDir, publicBaseUrl: `http://127.0.0.1:${port}`, signingSecret: randomBytes(32) });
  const app = Fastify({
    serverFactory: (handler) => {
      server.on('request', handler);
      return server;
    },
  });
  registerErrorHandling(app, { bodyLimitBytes: MiB });
  await fileRoutes(app, { signedFiles: signedFilesOf(storage) });
  await app.ready();
  return {
    storage,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The S3 driver against a real s3rver on 127.0.0.1 (path style, dummy credentials). */
async function s3Harness(): Promise<Harness> {
  const directory = tmp('cutroom-s3rver-');
  const tmpDir = tmp('cutroom-s3tmp-');
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3rver.run();
  const storage = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    tmpDir,
    putFileMultipartThreshold: 6 * MiB,
    putFilePartSize: 5 * MiB,
  });
  return {
    storage,
    async close() {
      storage.destroy();
      s3rver.httpServer?.closeAllConnections();
      await s3rver.close();
      fs.rmSync(directory, { recursive: true, force: true });
      fs.rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function putTo(url: string, body: Buffer, contentType: string): Promise<Response> {
  return fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': contentType } });
}

const drivers: Array<[string, () => Promise<Harness>]> = [
  ['local', localHarness],
  ['s3', s3Harness],
];

describe.each(drivers)('storage contract: %s', (_name, start) => {
  let h: Harness;
  let s: Storage;
  let scratch: string;

  beforeAll(async () => {
    h = await start();
    s = h.storage;
    scratch = tmp('cutroom-contract-');
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('accepts one signed PUT, then answers head and signed GET with Range', async () => {
    const bytes = randomBytes(100_000);
    const url = await s.presignPut('videos/one.mp4', { contentType: 'video/mp4', contentLength: bytes.length, expiresInSeconds: 3600 });
    const put = await putTo(url, bytes, 'video/mp4');
    expect(put.status).toBe(200);
    await put.arrayBuffer();

    expect(await s.head('videos/one.mp4')).toEqual({ size: bytes.length, contentType: 'video/mp4' });
    expect(await s.head('videos/none.mp4')).toBeNull();

    const getUrl = await s.presignGet('videos/one.mp4', { expiresInSeconds: 3600 });
    const full = await fetch(getUrl);
    expect(full.status).toBe(200);
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetch(getUrl, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    const dl = await fetch(await s.presignGet('videos/one.mp4', { expiresInSeconds: 60, downloadFilename: 'My clip.mp4' }));
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toContain('attachment; filename="My clip.mp4"');
    await dl.arrayBuffer();

    expect((await readAll(await s.read('videos/one.mp4', { start: 5, end: 9 }))).equals(bytes.subarray(5, 10))).toBe(true);
  });

  it('assembles a 3-part multipart upload sent through the signed part URLs', async () => {
    const size = 2 * 5 * MiB + 12_345;
    const bytes = randomBytes(size);
    const mp = await s.createMultipart('videos/big.mp4', { contentType: 'video/mp4', size, partSize: 5 * MiB, expiresInSeconds: 3600 });
    expect(mp.partSize).toBe(5 * MiB);
    expect(mp.parts.map((p) => [p.part_number, p.size])).toEqual([
      [1, 5 * MiB],
      [2, 5 * MiB],
      [3, 12_345],
    ]);
    const uploaded: UploadedPart[] = [];
    // Out of order on purpose: parts may arrive in any order.
    for (const p of [mp.parts[2], mp.parts[0], mp.parts[1]]) {
      const offset = (p.part_number - 1) * mp.partSize;
      const res = await putTo(p.url, bytes.subarray(offset, offset + p.size), 'video/mp4');
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const etag = res.headers.get('etag');
      if (etag) uploaded.push({ part_number: p.part_number, etag });
    }
    expect(await s.head('videos/big.mp4')).toBeNull();
    await s.completeMultipart('videos/big.mp4', mp.uploadId, uploaded);
    expect((await s.head('videos/big.mp4'))?.size).toBe(size);
    expect(sha256(await readAll(await s.read('videos/big.mp4')))).toBe(sha256(bytes));
    // A retried completion is harmless.
    await s.completeMultipart('videos/big.mp4', mp.uploadId, uploaded);
    expect((await s.head('videos/big.mp4'))?.size).toBe(size);

    // A part sent again after completion changes nothing. The local driver refuses it (409); AWS answers 404
    // NoSuchUpload (the upload id is gone), s3rver keeps it aside; the service never assembles that upload again.
    const replay = await putTo(mp.parts[2].url, randomBytes(mp.parts[2].size), 'video/mp4');
    if (s.kind === 'local') {
      expect(replay.status).toBe(409);
      expect(await replay.json()).toEqual({ code: 'UPLOAD_ALREADY_COMPLETED' });
    } else await replay.arrayBuffer();
    await s.completeMultipart('videos/big.mp4', mp.uploadId, uploaded);
    expect(sha256(await readAll(await s.read('videos/big.mp4')))).toBe(sha256(bytes));
  });

  it('commitUpload moves the PUT bytes to a key no upload URL writes; a PUT replayed after it cannot change them', async () => {
    const measured = randomBytes(50_000);
    const swapped = randomBytes(50_000);
    const url = await s.presignPut('uploads/replay/source.mp4', { contentType: 'video/mp4', contentLength: measured.length, expiresInSeconds: 3600 });
    // Before completion a PUT may be sent again: the last one wins.
    for (const body of [swapped, measured]) {
      const put = await putTo(url, body, 'video/mp4');
      expect(put.status).toBe(200);
      await put.arrayBuffer();
    }
    await s.commitUpload('uploads/replay/source.mp4', 'videos/replay/source-1.mp4');
    expect(await s.head('uploads/replay/source.mp4')).toBeNull();
    expect(await s.head('videos/replay/source-1.mp4')).toEqual({ size: measured.length, contentType: 'video/mp4' });
    expect(sha256(await readAll(await s.read('videos/replay/source-1.mp4')))).toBe(sha256(measured));

    const replay = await putTo(url, swapped, 'video/mp4');
    if (s.kind === 'local') {
      // The service answers the local driver's URLs: it refuses, before reading the body.
      expect(replay.status).toBe(409);
      expect(await replay.json()).toEqual({ code: 'UPLOAD_ALREADY_COMPLETED' });
      expect(await s.head('uploads/replay/source.mp4')).toBeNull();
    } else {
      // A presigned S3 PUT cannot be refused: it writes the upload key again, which nothing reads.
      expect(replay.status).toBe(200);
      await replay.arrayBuffer();
    }
    expect(sha256(await readAll(await s.read('videos/replay/source-1.mp4')))).toBe(sha256(measured));
    expect(await s.withLocalFile('videos/replay/source-1.mp4', async (p) => sha256(fs.readFileSync(p)))).toBe(sha256(measured));
  });

  it('commitUpload: FILE_NOT_FOUND when nothing was sent; once the committed object is deleted (a refused file) the URL takes a new file', async () => {
    await expect(s.commitUpload('uploads/none/source.mp4', 'videos/none/source-1.mp4')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect(await s.head('videos/none/source-1.mp4')).toBeNull();

    const bad = randomBytes(1000);
    const good = randomBytes(1000);
    const url = await s.presignPut('uploads/again/source.mp4', { contentType: 'video/mp4', contentLength: 1000, expiresInSeconds: 3600 });
    expect((await putTo(url, bad, 'video/mp4')).status).toBe(200);
    await s.commitUpload('uploads/again/source.mp4', 'videos/again/source-1.mp4');
    await s.delete('videos/again/source-1.mp4');
    const put = await putTo(url, good, 'video/mp4');
    expect(put.status).toBe(200);
    await put.arrayBuffer();
    await s.commitUpload('uploads/again/source.mp4', 'videos/again/source-2.mp4');
    expect(sha256(await readAll(await s.read('videos/again/source-2.mp4')))).toBe(sha256(good));
  });

  it('refuses to complete a multipart upload with a missing part (FILE_NOT_FOUND)', async () => {
    const size = 2 * 5 * MiB + 10;
    const bytes = randomBytes(size);
    const mp = await s.createMultipart('videos/holey.mp4', { contentType: 'video/mp4', size, partSize: 5 * MiB, expiresInSeconds: 3600 });
    const uploaded: UploadedPart[] = [];
    for (const p of [mp.parts[0], mp.parts[2]]) {
      const offset = (p.part_number - 1) * mp.partSize;
      const res = await putTo(p.url, bytes.subarray(offset, offset + p.size), 'video/mp4');
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const etag = res.headers.get('etag');
      if (etag) uploaded.push({ part_number: p.part_number, etag });
    }
    await expect(s.completeMultipart('videos/holey.mp4', mp.uploadId, uploaded)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect(await s.head('videos/holey.mp4')).toBeNull();

    // The missing part can still be sent, then the upload completes.
    const p2 = mp.parts[1];
    const res = await putTo(p2.url, bytes.subarray(mp.partSize, mp.partSize + p2.size), 'video/mp4');
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const etag = res.headers.get('etag');
    if (etag) uploaded.push({ part_number: 2, etag });
    await s.completeMultipart('videos/holey.mp4', mp.uploadId, uploaded);
    expect(sha256(await readAll(await s.read('videos/holey.mp4')))).toBe(sha256(bytes));
  });

  it('answers FILE_NOT_FOUND for an unknown upload or a foreign key', async () => {
    await expect(s.completeMultipart('videos/nothing.mp4', 'no-such-upload', [])).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    const mp = await s.createMultipart('videos/mine.mp4', { contentType: 'video/mp4', size: 10, partSize: 5 * MiB, expiresInSeconds: 60 });
    await expect(s.completeMultipart('videos/other.mp4', mp.uploadId, [])).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('stores a local file with putFile (small and multipart-sized) and hands it back with withLocalFile', async () => {
    for (const [name, size] of [
      ['small', 4096],
      ['large', 12 * MiB + 7],
    ] as const) {
      const bytes = randomBytes(size);
      const src = path.join(scratch, `${name}.mp4`);
      fs.writeFileSync(src, bytes);
      await s.putFile(`renders/${name}.mp4`, src, 'video/mp4');
      expect(fs.existsSync(src)).toBe(true);
      expect(await s.head(`renders/${name}.mp4`)).toEqual({ size, contentType: 'video/mp4' });

      let seen = '';
      const result = await s.withLocalFile(`renders/${name}.mp4`, async (p) => {
        seen = p;
        expect(path.extname(p)).toBe('.mp4');
        return sha256(fs.readFileSync(p));
      });
      expect(result).toBe(sha256(bytes));
      if (s.kind === 's3') expect(fs.existsSync(seen)).toBe(false);
    }
  });

  it('deletes, and answers FILE_NOT_FOUND for missing objects', async () => {
    const src = path.join(scratch, 'gone.mp4');
    fs.writeFileSync(src, 'bytes');
    await s.putFile('renders/gone.mp4', src, 'video/mp4');
    expect(await s.head('renders/gone.mp4')).not.toBeNull();
    await s.delete('renders/gone.mp4');
    expect(await s.head('renders/gone.mp4')).toBeNull();
    await s.delete('renders/gone.mp4');
    await expect(s.read('renders/gone.mp4')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(s.withLocalFile('renders/gone.mp4', async () => 1)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    const res = await fetch(await s.presignGet('renders/gone.mp4', { expiresInSeconds: 60 }));
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  });

  it('refuses unsafe keys', async () => {
    for (const key of ['../escape.mp4', '/abs.mp4', 'a//b.mp4', 'a/../b.mp4', '.multipart/x', 'sp ace.mp4', 'a\\b.mp4', '']) {
      await expect(s.presignPut(key, { contentType: 'video/mp4', contentLength: 1, expiresInSeconds: 60 })).rejects.toThrow(/invalid storage key/);
      await expect(s.head(key)).rejects.toThrow(/invalid storage key/);
    }
  });
});
