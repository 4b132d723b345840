import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSafeRelay } from '../../src/adapters/net/safe-relay.js';
import { DirectSourceResolver } from '../../src/adapters/sources/direct.resolver.js';
import { MediaSourceDownloader } from '../../src/adapters/sources/downloader.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { analyzeLink } from '../../src/domain/videos/source-analysis.js';
import { makeHls } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * Security audit, finding 1: a caller's HLS link must never make ffprobe or ffmpeg connect to an
 * address that safeFetch did not approve. `internal` (127.0.0.1, never allowed: allowPrivate is off)
 * stands for a service on the private network and counts every request it receives; `attacker` (the
 * same loopback address, another port, counted as public through `treatAsPublic`) serves the four
 * playlists that got past the relay: (a) a lone CR before a segment URL, (b) an unquoted key URI
 * served only on the second fetch, (c) a 206 answer to a `Range: bytes=0-` request, (d) a playlist
 * served as video/mp4 from `/x.mp4?x=.m3u8` or after a redirect to `/list.m3u`. Each goes through the
 * analysis `/clips/info` runs (`analyzeLink` with the direct resolver) and through the downloader.
 */

let dir: string;
let work: string;
let internal: StaticServer;
let attacker: StaticServer;
let storage: LocalStorage;
let indexText: string;
let keyN = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-hls-ssrf-'));
  work = path.join(dir, 'work');
  fs.mkdirSync(work);
  const media = path.join(dir, 'media');
  // 64 s in four 16 s segments: long enough for the analysis rules (60 s minimum).
  await makeHls(path.join(media, 'vod'), { seconds: 64, segmentSeconds: 16 });
  indexText = fs.readFileSync(path.join(media, 'vod', 'index.m3u8'), 'utf8');
  internal = await startStaticServer(media);
  attacker = await startStaticServer(media);
  storage = new LocalStorage({ dataDir: path.join(dir, 'data'), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });

  const inside = (p: string) => `${internal.url}${p}`;
  const playlist = (res: http.ServerResponse, text: string, status = 200, type = 'application/vnd.apple.mpegurl') =>
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
  // The VOD playlist with its first segment replaced by `line` (text that ends with the segment's URL).
  const firstSegment = (line: string) => indexText.replace(/#EXTINF:[\d.]+,\r?\nseg000\.ts/, line);

  // (a) ffmpeg ends a line at a lone CR: the internal URL is the first segment.
  attacker.route('/vod/a.m3u8', (_q, res) => playlist(res, firstSegment(`#EXTINF:16.6,\r${inside('/vod/seg000.ts')}`)));
  // (b) the first fetch (the service's check) gets the plain playlist, later ones an unquoted key URI.
  // Counted per URL: each test asks for `?run=<its own name>`.
  const bCalls = new Map<string, number>();
  attacker.route('/vod/b.m3u8', (req, res) => {
    const n = (bCalls.get(req.url ?? '') ?? 0) + 1;
    bCalls.set(req.url ?? '', n);
    const key = `#EXT-X-KEY:METHOD=AES-128,URI=${inside('/key')}\n`;
    playlist(res, n === 1 ? indexText : indexText.replace('#EXTINF', `${key}#EXTINF`));
  });
  // (c) a request with Range (ffmpeg sends `Range: bytes=0-`) gets a 206 pointing inside.
  attacker.route('/vod/c.m3u8', (req, res) => {
    if (req.headers.range === undefined) return playlist(res, indexText);
    const text = firstSegment(`#EXTINF:16,\n${inside('/vod/seg000.ts')}`);
    res
      .writeHead(206, {
        'content-type': 'application/vnd.apple.mpegurl',
        'content-range': `bytes 0-${text.length - 1}/${text.length}`,
        'content-length': text.length,
      })
      .end(text);
  });
  // (d) a playlist served as video/mp4, from a .mp4 path with `.m3u8` in the query, or after a redirect to .m3u.
  const disguised = firstSegment(`#EXTINF:16,\n${inside('/vod/seg000.ts')}`).replace(/^seg/gm, `${attacker.url}/vod/seg`);
  attacker.route('/x.mp4', (_q, res) => playlist(res, disguised, 200, 'video/mp4'));
  attacker.route('/y.mp4', (_q, res) => res.writeHead(302, { location: '/list.m3u' }).end());
  attacker.route('/list.m3u', (_q, res) => playlist(res, disguised, 200, 'video/mp4'));
});

afterAll(async () => {
  await internal?.close();
  await attacker?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(fs.readdirSync(work)).toEqual([]);
});

const treatAsPublic = (address: string, url: URL) => address === '127.0.0.1' && Number(url.port) === attacker.port;

function resolver(): DirectSourceResolver {
  return new DirectSourceResolver({ allowPrivate: false, fetchTimeoutMs: 5000, probeTimeoutMs: 20_000, treatAsPublic });
}

function downloader(): MediaSourceDownloader {
  return new MediaSourceDownloader({ allowPrivate: false, workDir: work, fetchTimeoutMs: 5000, retries: 1, retryDelayMs: 50, treatAsPublic });
}

const analyze = (url: string) => analyzeLink(url, { resolvers: [resolver()], maxDurationSeconds: 3600 });
const download = (url: string) =>
  downloader().download({ mediaUrl: url, platform: 'direct' }, { storage, key: `videos/ws1/v${++keyN}/source.mp4` }, { maxBytes: 1024 ** 3 });

/** Runs `fn` and returns what it answered (`OK` or the error code) and how many requests `internal` got meanwhile. */
async function outcome(fn: () => Promise<unknown>): Promise<{ code: string; internalRequests: string[] }> {
  const before = internal.requests.length;
  const code = await fn().then(
    (r) => ((r as { kind?: string }).kind === 'waiting' ? 'WAITING' : 'OK'),
    (e: { code?: string; message?: string }) => e.code ?? `not a domain error: ${e.message}`,
  );
  // ffmpeg may still be finishing a request it started: give the internal server a moment to log it.
  await new Promise((r) => setTimeout(r, 100));
  return { code, internalRequests: internal.requests.slice(before) };
}

describe('HLS analysis (/clips/info) never lets ffprobe reach an internal address', () => {
  it('(a) a lone CR before a segment URL: refused, the internal server gets no request', async () => {
    expect(await outcome(() => analyze(`${attacker.url}/vod/a.m3u8`))).toEqual({ code: 'INVALID_URL', internalRequests: [] });
  });

  it('(b) an unquoted key URI served only on a second fetch: the internal server gets no request', async () => {
    expect(await outcome(() => analyze(`${attacker.url}/vod/b.m3u8?run=analysis`))).toEqual({ code: 'OK', internalRequests: [] });
  });

  it('(c) a 206 answer to a Range request: the internal server gets no request', async () => {
    expect(await outcome(() => analyze(`${attacker.url}/vod/c.m3u8`))).toEqual({ code: 'OK', internalRequests: [] });
  });

  it('(d) a playlist served as video/mp4 from /x.mp4?x=.m3u8 or after a redirect to /list.m3u: the internal server gets no request', async () => {
    expect(await outcome(() => analyze(`${attacker.url}/x.mp4?x=.m3u8`))).toEqual({ code: 'INVALID_URL', internalRequests: [] });
    expect(await outcome(() => analyze(`${attacker.url}/y.mp4`))).toEqual({ code: 'INVALID_URL', internalRequests: [] });
  });
});

describe('HLS download never lets ffmpeg reach an internal address', () => {
  it('(a) a lone CR before a segment URL: refused, the internal server gets no request', async () => {
    expect(await outcome(() => download(`${attacker.url}/vod/a.m3u8`))).toEqual({ code: 'INVALID_URL', internalRequests: [] });
  });

  it('(b) an unquoted key URI served only on a second fetch: the internal server gets no request', async () => {
    expect(await outcome(() => download(`${attacker.url}/vod/b.m3u8?run=download`))).toEqual({ code: 'OK', internalRequests: [] });
  });

  it('(c) a 206 answer to a Range request: the internal server gets no request', async () => {
    expect(await outcome(() => download(`${attacker.url}/vod/c.m3u8`))).toEqual({ code: 'OK', internalRequests: [] });
  });

  it('(d) a playlist served as video/mp4: read as a playlist, refused, the internal server gets no request', async () => {
    expect(await outcome(() => download(`${attacker.url}/x.mp4?x=.m3u8`))).toEqual({ code: 'INVALID_URL', internalRequests: [] });
    expect(await outcome(() => download(`${attacker.url}/y.mp4`))).toEqual({ code: 'INVALID_URL', internalRequests: [] });
  });
});

describe('the relay (probing direct files) rewrites every playlist body', () => {
  async function viaRelay(target: string, headers: Record<string, string> = {}) {
    const relay = await startSafeRelay({ allowPrivate: false, treatAsPublic, timeoutMs: 5000 });
    try {
      return await new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(relay.url(target), { headers }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    } finally {
      await relay.close();
    }
  }
  const relayed = (body: string) => body.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

  it('a 206 answer to `Range: bytes=0-` → the whole playlist, rewritten, with 200', async () => {
    const r = await viaRelay(`${attacker.url}/vod/c.m3u8`, { range: 'bytes=0-' });
    expect(r.status).toBe(200);
    expect(r.body.startsWith('#EXTM3U')).toBe(true);
    expect(relayed(r.body).length).toBe(4);
    for (const line of relayed(r.body)) expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]+\//);
    expect(r.body).not.toContain(`:${internal.port}`);
  });

  it('a playlist served as video/mp4 from a .mp4 path, a CR line end, an unquoted key: all rewritten', async () => {
    const before = internal.requests.length;
    for (const p of ['/x.mp4?x=.m3u8', '/list.m3u', '/vod/a.m3u8']) {
      const r = await viaRelay(`${attacker.url}${p}`);
      expect(r.status).toBe(200);
      expect(r.body).not.toContain(`:${internal.port}`);
      expect(relayed(r.body).length).toBe(4);
    }
    await viaRelay(`${attacker.url}/vod/b.m3u8?run=relay`); // (the first fetch of b is plain)
    const b = await viaRelay(`${attacker.url}/vod/b.m3u8?run=relay`);
    expect(b.body).toMatch(/#EXT-X-KEY:METHOD=AES-128,URI="http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]+\//);
    expect(b.body).not.toContain(`:${internal.port}`);
    expect(internal.requests.length).toBe(before);
  });
});
