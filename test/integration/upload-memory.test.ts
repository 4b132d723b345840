import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;
const CHUNK = randomBytes(MiB);

/** 1 GiB of pseudo-random bytes (the same random MiB with its index stamped in), produced on demand. */
function generated(size: number, hash: ReturnType<typeof createHash>): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(MiB, size - sent);
      const chunk = Buffer.from(CHUNK.subarray(0, n));
      chunk.writeUInt32BE(sent / MiB, 0);
      sent += n;
      hash.update(chunk);
      this.push(chunk);
    },
  });
}

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

describe('local upload memory', () => {
  it('streams a 1 GiB PUT to disk over TCP with flat memory', { timeout: 300_000 }, async () => {
    const storage = t.c.storage as LocalStorage;
    const url = new URL(await storage.presignPut('videos/huge.mp4', { contentType: 'video/mp4', contentLength: SIZE, expiresInSeconds: 3600 }));
    const sentHash = createHash('sha256');

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 25);
    let status: number;
    let body = '';
    try {
      status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'PUT', path: `${url.pathname}${url.search}`, headers: { 'content-type': 'video/mp4', 'content-length': SIZE } },
          (res) => {
            res
              .setEncoding('utf8')
              .on('data', (c) => (body += c))
              .on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('error', reject);
        generated(SIZE, sentHash).pipe(req);
      });
    } finally {
      clearInterval(sampler);
    }
    const after = process.memoryUsage().rss;
    peak = Math.max(peak, after);

    expect(status, body).toBe(200);
    expect(JSON.parse(body)).toEqual({});
    const file = storage.pathOf('videos/huge.mp4');
    expect(fs.statSync(file).size).toBe(SIZE);
    const growth = peak - before;
    console.log(
      `RSS before ${(before / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB, after ${(after / MiB).toFixed(0)} MiB (growth ${(growth / MiB).toFixed(0)} MiB for a ${SIZE / MiB} MiB body)`,
    );
    expect(growth).toBeLessThan(200 * MiB);

    const storedHash = createHash('sha256');
    for await (const c of fs.createReadStream(file, { highWaterMark: 4 * MiB })) storedHash.update(c as Buffer);
    expect(storedHash.digest('hex')).toBe(sentHash.digest('hex'));

    await storage.delete('videos/huge.mp4');
    expect(fs.existsSync(file)).toBe(false);
  });
});
