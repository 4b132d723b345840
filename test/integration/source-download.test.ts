import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseContentRange } from '../../src/adapters/sources/direct.download.js';
import { parseRetryAfter } from '../../src/adapters/sources/download-support.js';
import { createSourceDownloader, MediaSourceDownloader, type SourceDownloaderOptions } from '../../src/adapters/sources/downloader.js';
import { audioRendition } from '../../src/adapters/sources/hls.download.js';
import { parseYtDlpProgress, ytDlpDownloadArgs, ytDlpSaysLive } from '../../src/adapters/sources/ytdlp.download.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { loadSourcesConfig } from '../../src/config/sources.env.js';
import type { DownloadDest, DownloadInput, DownloadOptions, DownloadResult } from '../../src/ports/source-downloader.js';
import { writeFakeYtDlp } from '../helpers/fake-ytdlp.js';
import { makeHls, makeVideo } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * The downloading stage on real files: media generated here, served by loopback HTTP servers
 * (`internal`: 127.0.0.1, reachable only with allowPrivate; `pub`: the same files, treated as a public
 * host), stored with the local storage driver, probed with the real ffprobe. yt-dlp is a fake
 * executable speaking its CLI protocol.
 */

let dir: string;
let work: string;
let internal: StaticServer;
let pub: StaticServer;
let storage: LocalStorage;
let ytdlp: string;
let clipBytes: Buffer;
let keyN = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-download-'));
  work = path.join(dir, 'work');
  fs.mkdirSync(work);
  const media = path.join(dir, 'media');
  await Promise.all([
    makeVideo(path.join(media, 'clip.mp4'), { seconds: 6 }),
    makeVideo(path.join(dir, 'bin', 'fake-ytdlp-media.webm'), { seconds: 5 }),
    makeHls(path.join(media, 'vod'), { seconds: 12, master: true }),
    makeHls(path.join(media, 'live'), { seconds: 8, live: true }),
  ]);
  clipBytes = fs.readFileSync(path.join(media, 'clip.mp4'));
  fs.copyFileSync(path.join(media, 'clip.mp4'), path.join(dir, 'bin', 'fake-ytdlp-media.mp4'));
  ytdlp = writeFakeYtDlp(path.join(dir, 'bin'));

  internal = await startStaticServer(media);
  pub = await startStaticServer(media);
  storage = new LocalStorage({ dataDir: path.join(dir, 'data'), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });
});

afterAll(async () => {
  await internal?.close();
  await pub?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  // Every download, whatever its outcome, removes its work folder.
  expect(fs.readdirSync(work)).toEqual([]);
});

/** Every download has a cap (the plan's upload maximum); tests that are not about size use this one. */
const TEST_CAP = 1024 ** 3;

function downloader(over: Partial<SourceDownloaderOptions> = {}) {
  const d = new MediaSourceDownloader({
    allowPrivate: true,
    ytdlpPath: ytdlp,
    workDir: work,
    fetchTimeoutMs: 5000,
    retries: 2,
    retryDelayMs: 50,
    treatAsPublic: (address, url) => address === '127.0.0.1' && Number(url.port) === pub.port,
    ...over,
  });
  return { download: (input: DownloadInput, to: DownloadDest, opts: Partial<DownloadOptions> = {}) => d.download(input, to, { maxBytes: TEST_CAP, ...opts }) };
}

const newKey = () => `videos/ws1/v${++keyN}/source.mp4`;
const dest = (key = newKey()) => ({ storage, key });

async function codeOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'OK',
    (e: { code?: string; message?: string }) => e.code ?? `not a domain error: ${e.message}`,
  );
}

function ready(r: DownloadResult): Extract<DownloadResult, { kind: 'ready' }> {
  if (r.kind !== 'ready') throw new Error(`expected ready, got ${JSON.stringify(r)}`);
  return r;
}

describe('direct media files', () => {
  it('stores the served bytes and probes them; progress rises to 1', async () => {
    const fractions: number[] = [];
    const d = dest();
    const r = ready(await downloader().download({ mediaUrl: `${internal.url}/clip.mp4`, platform: 'direct' }, d, { onProgress: (f) => fractions.push(f) }));
    expect(r.key).toBe(d.key);
    expect(r.sizeBytes).toBe(clipBytes.length);
    expect(fs.readFileSync(path.join(storage.root, d.key)).equals(clipBytes)).toBe(true);
    expect(r.info).toMatchObject({ width: 320, height: 180, hasVideo: true, hasAudio: true, videoCodec: 'h264', sizeBytes: clipBytes.length });
    expect(r.info.duration).toBeCloseTo(6, 0);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('404 → SOURCE_UNAVAILABLE at once; nothing stored', async () => {
    const d = dest();
    const before = internal.requests.length;
    expect(await codeOf(downloader().download({ mediaUrl: `${internal.url}/missing.mp4`, platform: 'direct' }, d))).toBe('SOURCE_UNAVAILABLE');
    expect(internal.requests.length - before).toBe(1);
    expect(await storage.head(d.key)).toBeNull();
  });

  it('403 → PRIVATE_VIDEO, 451 → REGION_BLOCKED, 410 → SOURCE_UNAVAILABLE', async () => {
    internal.route('/locked.mp4', (_q, res) => res.writeHead(403).end());
    internal.route('/blocked.mp4', (_q, res) => res.writeHead(451).end());
    internal.route('/gone.mp4', (_q, res) => res.writeHead(410).end());
    const get = (p: string) => codeOf(downloader().download({ mediaUrl: `${internal.url}${p}`, platform: 'direct' }, dest()));
    expect([await get('/locked.mp4'), await get('/blocked.mp4'), await get('/gone.mp4')]).toEqual(['PRIVATE_VIDEO', 'REGION_BLOCKED', 'SOURCE_UNAVAILABLE']);
  });

  it('a source answering 503 + Retry-After: 7 is waiting SOURCE_VOD_PROCESSING, then ready once it answers 200', async () => {
    let prepared = false;
    internal.route('/rendering.mp4', (_q, res) => {
      if (!prepared) return void res.writeHead(503, { 'retry-after': '7' }).end('rendering');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clipBytes.length }).end(clipBytes);
    });
    const d = dest();
    const first = await downloader().download({ mediaUrl: `${internal.url}/rendering.mp4`, platform: 'direct' }, d);
    expect(first).toEqual({ kind: 'waiting', reason: 'SOURCE_VOD_PROCESSING', retryAfterSeconds: 7 });
    expect(await storage.head(d.key)).toBeNull();
    prepared = true;
    const second = ready(await downloader().download({ mediaUrl: `${internal.url}/rendering.mp4`, platform: 'direct' }, d));
    expect(second.sizeBytes).toBe(clipBytes.length);
    expect((await storage.head(d.key))?.size).toBe(clipBytes.length);
  });

  it('a 404 with Retry-After as an HTTP date waits until then', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    internal.route('/later.mp4', (_q, res) => res.writeHead(404, { 'retry-after': 'Tue, 01 Jan 2030 00:02:00 GMT' }).end());
    const r = await downloader({ now: () => now }).download({ mediaUrl: `${internal.url}/later.mp4`, platform: 'direct' }, dest());
    expect(r).toEqual({ kind: 'waiting', reason: 'SOURCE_VOD_PROCESSING', retryAfterSeconds: 120 });
  });

  it('retries 5xx answers with backoff, then succeeds', async () => {
    let calls = 0;
    internal.route('/flaky.mp4', (_q, res) => {
      if (++calls <= 2) return void res.writeHead(502).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clipBytes.length }).end(clipBytes);
    });
    const r = ready(await downloader().download({ mediaUrl: `${internal.url}/flaky.mp4`, platform: 'direct' }, dest()));
    expect([calls, r.sizeBytes]).toEqual([3, clipBytes.length]);
  });

  it('gives up with SOURCE_UNAVAILABLE when the host stays unreachable or keeps failing', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await codeOf(downloader().download({ mediaUrl: `http://127.0.0.1:${port}/clip.mp4`, platform: 'direct' }, dest()))).toBe('SOURCE_UNAVAILABLE');
    let calls = 0;
    internal.route('/down.mp4', (_q, res) => void (calls++, res.writeHead(500).end()));
    const err = await downloader()
      .download({ mediaUrl: `${internal.url}/down.mp4`, platform: 'direct' }, dest())
      .catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    expect(String((err as Error).cause)).toMatch(/HTTP 500/);
    expect(calls).toBe(3);
  });

  it('resumes a cut connection with Range + If-Range', async () => {
    const ranges: Array<string | undefined> = [];
    internal.route('/cut.mp4', (req, res) => {
      ranges.push(req.headers.range);
      const common = { 'content-type': 'video/mp4', etag: '"v1"', 'accept-ranges': 'bytes' };
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      if (m && req.headers['if-range'] === '"v1"') {
        const start = Number(m[1]);
        res.writeHead(206, {
          ...common,
          'content-length': clipBytes.length - start,
          'content-range': `bytes ${start}-${clipBytes.length - 1}/${clipBytes.length}`,
        });
        return void res.end(clipBytes.subarray(start));
      }
      res.writeHead(200, { ...common, 'content-length': clipBytes.length });
      res.write(clipBytes.subarray(0, 50_000), () => setTimeout(() => res.destroy(), 50));
    });
    const d = dest();
    const r = ready(await downloader().download({ mediaUrl: `${internal.url}/cut.mp4`, platform: 'direct' }, d));
    expect(r.sizeBytes).toBe(clipBytes.length);
    expect(fs.readFileSync(path.join(storage.root, d.key)).equals(clipBytes)).toBe(true);
    expect(ranges[0]).toBeUndefined();
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(ranges[1]!)![0])).toBeGreaterThan(0);
  });

  it('SOURCE_TOO_LARGE over maxBytes (declared or counted); nothing stored', async () => {
    const d = dest();
    const err = await downloader()
      .download({ mediaUrl: `${internal.url}/clip.mp4`, platform: 'direct' }, d, { maxBytes: 10_000 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'SOURCE_TOO_LARGE', extra: { max_size: 10_000 } });
    internal.route('/chunked.mp4', (_q, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(clipBytes);
    });
    expect(await codeOf(downloader().download({ mediaUrl: `${internal.url}/chunked.mp4`, platform: 'direct' }, d, { maxBytes: 10_000 }))).toBe(
      'SOURCE_TOO_LARGE',
    );
    expect(await storage.head(d.key)).toBeNull();
  });

  it('refuses to download without a finite cap (there is no unlimited default)', async () => {
    const raw = new MediaSourceDownloader({ allowPrivate: true, workDir: work });
    const input = { mediaUrl: `${internal.url}/clip.mp4`, platform: 'direct' };
    const requests = internal.requests.length;
    for (const maxBytes of [Number.POSITIVE_INFINITY, 0, -1, 1.5, Number.NaN, undefined]) {
      await expect(raw.download(input, dest(), { maxBytes } as DownloadOptions), String(maxBytes)).rejects.toThrow(RangeError);
    }
    // Refused before anything is fetched.
    expect(internal.requests.length).toBe(requests);
  });

  it('SOURCE_UNREADABLE for bytes that are not media, or an HTML page; nothing stored', async () => {
    internal.route('/garbage.mp4', (_q, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(4096, 7)));
    internal.route('/page.mp4', (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    const d = dest();
    expect(await codeOf(downloader().download({ mediaUrl: `${internal.url}/garbage.mp4`, platform: 'direct' }, d))).toBe('SOURCE_UNREADABLE');
    expect(await codeOf(downloader().download({ mediaUrl: `${internal.url}/page.mp4`, platform: 'direct' }, d))).toBe('SOURCE_UNREADABLE');
    expect(await storage.head(d.key)).toBeNull();
  });

  it('a redirect to 127.0.0.1 with allowPrivate=false → INVALID_URL; nothing stored, the internal host never asked', async () => {
    pub.route('/to-internal.mp4', (_q, res) => res.writeHead(302, { location: `${internal.url}/clip.mp4` }).end());
    const d = dest();
    const before = internal.requests.length;
    const err = await downloader({ allowPrivate: false })
      .download({ mediaUrl: `${pub.url}/to-internal.mp4`, platform: 'direct' }, d)
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_URL' });
    expect(String(err.cause)).toMatch(/loopback/);
    expect(await storage.head(d.key)).toBeNull();
    expect(internal.requests.length).toBe(before);
    // The same file on the "public" host downloads.
    ready(await downloader({ allowPrivate: false }).download({ mediaUrl: `${pub.url}/clip.mp4`, platform: 'direct' }, d));
  });

  it('an abort stops the download: rejected, nothing stored', async () => {
    internal.route('/slow.mp4', (_q, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clipBytes.length });
      res.write(clipBytes.subarray(0, 1000));
    });
    const ac = new AbortController();
    const d = dest();
    const p = downloader().download({ mediaUrl: `${internal.url}/slow.mp4`, platform: 'direct' }, d, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('cancelled')), 200);
    await expect(p).rejects.toThrow('cancelled');
    expect(await storage.head(d.key)).toBeNull();
  });
});

describe('direct HLS', () => {
  it('remuxes a VOD (through its master playlist) to an MP4 of the right duration', async () => {
    const fractions: number[] = [];
    const d = dest();
    const r = ready(
      await downloader().download({ mediaUrl: `${internal.url}/vod/master.m3u8`, platform: 'direct' }, d, { onProgress: (f) => fractions.push(f) }),
    );
    expect(r.info.formatName).toMatch(/mp4/);
    expect(r.info).toMatchObject({ width: 320, height: 180, hasVideo: true, hasAudio: true, videoCodec: 'h264', audioCodec: 'aac' });
    expect(r.info.duration).toBeGreaterThan(11.5);
    expect(r.info.duration).toBeLessThan(12.6);
    const head = fs.readFileSync(path.join(storage.root, d.key)).subarray(4, 8).toString('latin1');
    expect(head).toBe('ftyp');
    expect(fractions.at(-1)).toBe(1);
    // ffmpeg read through the relay: every request reached the server from safeFetch.
    expect(internal.requests.filter((u) => u.startsWith('/vod/seg')).length).toBeGreaterThanOrEqual(3);
  });

  it('a playlist without #EXT-X-ENDLIST is waiting SOURCE_LIVE_IN_PROGRESS; once it ends, the download succeeds', async () => {
    const file = path.join(dir, 'media', 'live', 'index.m3u8');
    const d = dest();
    const first = await downloader().download({ mediaUrl: `${internal.url}/live/index.m3u8`, platform: 'direct' }, d);
    expect(first).toEqual({ kind: 'waiting', reason: 'SOURCE_LIVE_IN_PROGRESS', retryAfterSeconds: 60 });
    expect(await storage.head(d.key)).toBeNull();
    fs.appendFileSync(file, '\n#EXT-X-ENDLIST\n');
    const second = ready(await downloader().download({ mediaUrl: `${internal.url}/live/index.m3u8`, platform: 'direct' }, d));
    expect(second.info.duration).toBeCloseTo(8, 0);
  });

  it('segments on a private host behind a public playlist → INVALID_URL; nothing stored', async () => {
    pub.route('/split.m3u8', (_q, res) => {
      const text = fs.readFileSync(path.join(dir, 'media', 'vod', 'index.m3u8'), 'utf8').replace(/^(seg\d+\.ts)$/gm, `${internal.url}/vod/$1`);
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(text);
    });
    const d = dest();
    const err = await downloader({ allowPrivate: false })
      .download({ mediaUrl: `${pub.url}/split.m3u8`, platform: 'direct' }, d)
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_URL' });
    expect(await storage.head(d.key)).toBeNull();
  });

  it('a segment that redirects to a private host while ffmpeg reads → INVALID_URL (ffmpeg would skip it and carry on)', async () => {
    pub.route('/vod/seg001.ts', (_q, res) => res.writeHead(302, { location: `${internal.url}/vod/seg001.ts` }).end());
    const d = dest();
    const before = internal.requests.length;
    const err = await downloader({ allowPrivate: false })
      .download({ mediaUrl: `${pub.url}/vod/index.m3u8`, platform: 'direct' }, d)
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_URL' });
    expect(String(err.cause)).toMatch(/loopback/);
    expect(await storage.head(d.key)).toBeNull();
    expect(internal.requests.length).toBe(before);
  });
});

describe('platform links (yt-dlp)', () => {
  const yt = (id: string) => ({ mediaUrl: `https://www.youtube.com/watch?v=${id}`, platform: 'youtube' });

  it('stores what yt-dlp downloaded, probed; progress from its output', async () => {
    const fractions: number[] = [];
    const d = dest();
    const r = ready(await downloader().download(yt('dQw4w9WgXcQ'), d, { onProgress: (f) => fractions.push(f) }));
    expect(r.sizeBytes).toBe(clipBytes.length);
    expect(fs.readFileSync(path.join(storage.root, d.key)).equals(clipBytes)).toBe(true);
    expect(r.info.duration).toBeCloseTo(6, 0);
    expect(fractions.length).toBeGreaterThan(3);
    expect(fractions.at(-1)).toBe(1);
  });

  it('remuxes a non-MP4 download (WebM) to MP4', async () => {
    const d = dest();
    const r = ready(await downloader().download(yt('webmonly001'), d));
    expect(r.info.formatName).toMatch(/mp4/);
    expect(r.info.duration).toBeCloseTo(5, 0);
  });

  it('a premiere is waiting SOURCE_PREMIERE_SCHEDULED until its announced start', async () => {
    const now = new Date('2030-01-01T12:00:00Z');
    const r = await downloader({ now: () => now }).download(yt('premiere001'), dest());
    expect(r).toEqual({ kind: 'waiting', reason: 'SOURCE_PREMIERE_SCHEDULED', until: new Date('2030-01-01T15:00:00Z'), retryAfterSeconds: 3 * 3600 + 30 });
  });

  it('a stream on air is waiting SOURCE_LIVE_IN_PROGRESS; a video being processed SOURCE_VOD_PROCESSING', async () => {
    expect(await downloader().download(yt('liveliveli1'), dest())).toEqual({ kind: 'waiting', reason: 'SOURCE_LIVE_IN_PROGRESS', retryAfterSeconds: 300 });
    expect(await downloader().download(yt('processing1'), dest())).toEqual({ kind: 'waiting', reason: 'SOURCE_VOD_PROCESSING', retryAfterSeconds: 300 });
  });

  it('maps failures: PRIVATE_VIDEO, AGE_RESTRICTED, REGION_BLOCKED, SOURCE_UNAVAILABLE; nothing stored', async () => {
    const d = dest();
    const codes = [];
    for (const id of ['privatevid1', 'agerestrict', 'regionblock', 'goneeeeeee1']) codes.push(await codeOf(downloader().download(yt(id), d)));
    expect(codes).toEqual(['PRIVATE_VIDEO', 'AGE_RESTRICTED', 'REGION_BLOCKED', 'SOURCE_UNAVAILABLE']);
    expect(await storage.head(d.key)).toBeNull();
  });

  it('PLATFORM_UNAVAILABLE without yt-dlp or when it cannot start; the config factory wires the settings', async () => {
    expect(await codeOf(downloader({ ytdlpPath: null }).download(yt('dQw4w9WgXcQ'), dest()))).toBe('PLATFORM_UNAVAILABLE');
    expect(await codeOf(downloader({ ytdlpPath: path.join(dir, 'no-such-yt-dlp') }).download(yt('dQw4w9WgXcQ'), dest()))).toBe('PLATFORM_UNAVAILABLE');
    const sources = loadSourcesConfig({ CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_YTDLP_PATH: ytdlp, PATH: '' });
    const fromConfig = createSourceDownloader({ sources, tmpDir: work });
    ready(await fromConfig.download(yt('dQw4w9WgXcQ'), dest(), { maxBytes: TEST_CAP }));
    ready(await fromConfig.download({ mediaUrl: `${internal.url}/clip.mp4`, platform: 'direct' }, dest(), { maxBytes: TEST_CAP }));
  });
});

describe('pure helpers', () => {
  it('parseRetryAfter: seconds, HTTP dates, junk', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('0', now)).toBe(1);
    expect(parseRetryAfter('Tue, 01 Jan 2030 01:00:00 GMT', now)).toBe(3600);
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(1);
    expect([parseRetryAfter(undefined, now), parseRetryAfter('soon', now), parseRetryAfter('-5', now)]).toEqual([null, null, null]);
  });

  it('parseContentRange', () => {
    expect(parseContentRange('bytes 100-199/1000')).toEqual({ start: 100, total: 1000 });
    expect(parseContentRange('bytes 0-9/*')).toEqual({ start: 0 });
    expect(parseContentRange('bytes */1000')).toBeNull();
  });

  it('ytDlpSaysLive tells a stream on air from scheduled or ended ones', () => {
    expect(ytDlpSaysLive('[download] Talk does not pass filter (!is_live), skipping ..')).toBe(true);
    expect(ytDlpSaysLive('ERROR: [twitch:stream] someone: someone is live, try again later')).toBe(true);
    expect(ytDlpSaysLive('ERROR: [youtube] x: This live event is in progress')).toBe(true);
    expect(ytDlpSaysLive('ERROR: [twitch:stream] someone: The channel is not currently live')).toBe(false);
    expect(ytDlpSaysLive('ERROR: [youtube] x: This live event will begin in 3 hours.')).toBe(false);
    expect(ytDlpSaysLive('ERROR: [youtube] x: Private video')).toBe(false);
  });

  it('ytDlpDownloadArgs and progress lines', () => {
    const args = ytDlpDownloadArgs('https://www.youtube.com/watch?v=abcdefghijk', {
      outputTemplate: '/w/source.%(ext)s',
      ffmpegLocation: '/bin/ffmpeg',
      maxBytes: 1000,
      extraArgs: ['--cookies', '/c.txt'],
    });
    expect(args.slice(0, 9)).toEqual([
      '-f',
      'bv*[height<=1080]+ba/b[height<=1080]/b',
      '--merge-output-format',
      'mp4',
      '-o',
      '/w/source.%(ext)s',
      '--no-playlist',
      '--no-warnings',
      '--newline',
    ]);
    expect(args).toContain('--ffmpeg-location');
    expect(args.slice(-4)).toEqual(['--cookies', '/c.txt', '--', 'https://www.youtube.com/watch?v=abcdefghijk']);
    expect(args[args.indexOf('--max-filesize') + 1]).toBe('1000');
    expect(parseYtDlpProgress('[download]  42.5% of ~ 10.00MiB at 1.00MiB/s')).toBeCloseTo(0.425);
    expect(parseYtDlpProgress('[download] Destination: x.mp4')).toBeNull();
  });

  it('audioRendition picks the variant group’s default audio playlist', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=NO,URI="audio/en2.m3u8"',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",DEFAULT=YES,URI="audio/en.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO="aud"',
      'hi/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=300000',
      'lo/index.m3u8',
    ].join('\n');
    expect(audioRendition(master, 'https://cdn.example/v/master.m3u8', 'https://cdn.example/v/hi/index.m3u8')).toBe('https://cdn.example/v/audio/en.m3u8');
    expect(audioRendition(master, 'https://cdn.example/v/master.m3u8', 'https://cdn.example/v/lo/index.m3u8')).toBeUndefined();
  });
});
