import { createCipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refused, safeFetch } from '../../src/adapters/net/safe-fetch.js';
import { DirectSourceResolver } from '../../src/adapters/sources/direct.resolver.js';
import { assembleSegments, type HlsIo } from '../../src/adapters/sources/hls-fetch.js';
import { parseHlsSegments } from '../../src/adapters/sources/hls-playlist.js';
import { MediaSourceDownloader } from '../../src/adapters/sources/downloader.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import type { DownloadResult } from '../../src/ports/source-downloader.js';
import { makeHls, runFfmpeg } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * HLS read in Node (playlists, segments, init sections, AES-128 keys through safeFetch; ffmpeg and
 * ffprobe only see local files): the real downloader and resolver on media generated here and served
 * from a loopback server (private sources allowed).
 */

let dir: string;
let work: string;
let srv: StaticServer;
let storage: LocalStorage;
let keyN = 0;
const KEY = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const IV = Buffer.from('0f0e0d0c0b0a09080706050403020100', 'hex');

function encrypt(data: Buffer, iv: Buffer): Buffer {
  const c = createCipheriv('aes-128-cbc', KEY, iv);
  return Buffer.concat([c.update(data), c.final()]);
}

function seqIv(n: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(n), 8);
  return iv;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-hls-node-'));
  work = path.join(dir, 'work');
  fs.mkdirSync(work);
  const m = path.join(dir, 'media');
  const lavfi = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050', '-t', '12'];
  const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '35', '-pix_fmt', 'yuv420p', '-g', '30', '-force_key_frames', 'expr:gte(t,n_forced*4)'];
  const aac = ['-c:a', 'aac', '-b:a', '32k', '-ac', '1'];
  const hls = (sub: string, extra: string[]) => {
    fs.mkdirSync(path.join(m, sub), { recursive: true });
    return ['-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod', ...extra, path.join(m, sub, 'index.m3u8')];
  };
  await Promise.all([
    makeHls(path.join(m, 'ts'), { seconds: 12, segmentSeconds: 4 }),
    runFfmpeg([...lavfi, ...x264, ...aac, ...hls('fmp4', ['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4'])]),
    runFfmpeg([...lavfi, ...x264, ...aac, ...hls('single', ['-hls_flags', 'single_file'])]),
    runFfmpeg([...lavfi, '-map', '0:v', ...x264, ...hls('split/video', ['-hls_segment_filename', path.join(m, 'split/video/v%03d.ts')])]),
    runFfmpeg([...lavfi, '-map', '1:a', ...aac, ...hls('split/audio', ['-hls_segment_filename', path.join(m, 'split/audio/a%03d.ts')])]),
  ]);

  // AES-128: the same segments encrypted, once with an explicit IV, once with the sequence number as IV.
  const ts = fs.readFileSync(path.join(m, 'ts', 'index.m3u8'), 'utf8');
  const segs = fs
    .readdirSync(path.join(m, 'ts'))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  fs.writeFileSync(path.join(m, 'ts', 'key.bin'), KEY);
  for (const [i, s] of segs.entries()) {
    const plain = fs.readFileSync(path.join(m, 'ts', s));
    fs.writeFileSync(path.join(m, 'ts', `iv-${s}`), encrypt(plain, IV));
    fs.writeFileSync(path.join(m, 'ts', `seq-${s}`), encrypt(plain, seqIv(40 + i)));
  }
  const withKey = (tag: string, prefix: string) => ts.replace('#EXTINF', `${tag}\n#EXTINF`).replace(/^(seg\d+\.ts)$/gm, `${prefix}$1`);
  fs.writeFileSync(path.join(m, 'ts', 'enc-iv.m3u8'), withKey(`#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x${IV.toString('hex')}`, 'iv-'));
  fs.writeFileSync(
    path.join(m, 'ts', 'enc-seq.m3u8'),
    withKey('#EXT-X-KEY:METHOD=AES-128,URI=key.bin', 'seq-').replace(/#EXT-X-MEDIA-SEQUENCE:\d+/, '#EXT-X-MEDIA-SEQUENCE:40'),
  );
  fs.writeFileSync(path.join(m, 'ts', 'sample-aes.m3u8'), withKey('#EXT-X-KEY:METHOD=SAMPLE-AES,URI="key.bin"', ''));
  // A master playlist whose variant takes its audio from a separate rendition (unquoted attributes).
  fs.writeFileSync(
    path.join(m, 'split', 'master.m3u8'),
    [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=aud,NAME=en,DEFAULT=YES,URI=audio/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180,AUDIO=aud',
      'video/index.m3u8',
      '',
    ].join('\n'),
  );

  srv = await startStaticServer(m);
  storage = new LocalStorage({ dataDir: path.join(dir, 'data'), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });
});

afterAll(async () => {
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(fs.readdirSync(work)).toEqual([]);
});

function downloader(): MediaSourceDownloader {
  return new MediaSourceDownloader({ allowPrivate: true, workDir: work, fetchTimeoutMs: 5000, retries: 2, retryDelayMs: 20 });
}
const resolver = () => new DirectSourceResolver({ allowPrivate: true, fetchTimeoutMs: 5000, probeTimeoutMs: 20_000 });
const dest = () => ({ storage, key: `videos/ws1/n${++keyN}/source.mp4` });
/** Every download has a cap (the plan's upload maximum); these tests are not about size. */
const GiB = 1024 ** 3;

function ready(r: DownloadResult): Extract<DownloadResult, { kind: 'ready' }> {
  if (r.kind !== 'ready') throw new Error(`expected ready, got ${JSON.stringify(r)}`);
  return r;
}

async function get(p: string) {
  return ready(await downloader().download({ mediaUrl: `${srv.url}${p}`, platform: 'direct' }, dest(), { maxBytes: GiB }));
}

describe('HLS fetched in Node, remuxed from local files', () => {
  it('AES-128 segments are decrypted with the tag IV, or the media sequence number as IV', async () => {
    for (const p of ['/ts/enc-iv.m3u8', '/ts/enc-seq.m3u8']) {
      const r = await get(p);
      expect(r.info).toMatchObject({ width: 320, height: 180, hasVideo: true, hasAudio: true, videoCodec: 'h264', audioCodec: 'aac' });
      expect(r.info.duration).toBeGreaterThan(11.5);
      expect(r.info.duration).toBeLessThan(12.6);
      const a = await resolver().resolve({ url: `${srv.url}${p}`, platform: 'direct' });
      expect(a).toMatchObject({ width: 320, height: 180, hasVideo: true, hasAudio: true, isLive: false, mediaUrl: `${srv.url}${p}` });
      expect(a.duration).toBeCloseTo(12, 0);
    }
    // The key was fetched once per download / analysis, not once per segment.
    expect(srv.requests.filter((u) => u === '/ts/key.bin').length).toBe(4);
  });

  it('assembleSegments writes exactly the plaintext segments, one after the other (IV from the tag or the sequence)', async () => {
    const io: HlsIo = {
      get: (url, headers) => safeFetch(url, { allowPrivate: true, headers }),
      retrying: (_what, step) => step(),
      unreadable: (message) => refused(message, 'not_media'),
    };
    const segs = fs
      .readdirSync(path.join(dir, 'media', 'ts'))
      .filter((f) => /^seg\d+\.ts$/.test(f))
      .sort();
    const plain = Buffer.concat(segs.map((s) => fs.readFileSync(path.join(dir, 'media', 'ts', s))));
    for (const name of ['enc-iv.m3u8', 'enc-seq.m3u8', 'index.m3u8']) {
      const url = `${srv.url}/ts/${name}`;
      const text = fs.readFileSync(path.join(dir, 'media', 'ts', name), 'utf8');
      const out = path.join(dir, `assembled-${name}`);
      const local = await assembleSegments(parseHlsSegments(text, url), out, io);
      expect(local).toEqual({ path: out, format: 'mpegts' });
      expect(fs.readFileSync(out).equals(plain)).toBe(true);
    }
  });

  it('SAMPLE-AES is refused as unreadable before any segment is fetched', async () => {
    const before = srv.requests.length;
    const err = await downloader()
      .download({ mediaUrl: `${srv.url}/ts/sample-aes.m3u8`, platform: 'direct' }, dest(), { maxBytes: GiB })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'SOURCE_UNREADABLE' });
    expect(String(err.cause)).toMatch(/SAMPLE-AES/);
    expect(srv.requests.slice(before)).toEqual(['/ts/sample-aes.m3u8']);
    await expect(resolver().resolve({ url: `${srv.url}/ts/sample-aes.m3u8`, platform: 'direct' })).rejects.toMatchObject({ code: 'INVALID_URL' });
  });

  it('fMP4: the init section and the fragments make one file read as mov', async () => {
    expect(fs.readFileSync(path.join(dir, 'media', 'fmp4', 'index.m3u8'), 'utf8')).toMatch(/#EXT-X-MAP:URI="init.mp4"/);
    const r = await get('/fmp4/index.m3u8');
    expect(r.info).toMatchObject({ width: 320, height: 180, hasAudio: true, videoCodec: 'h264' });
    expect(r.info.duration).toBeCloseTo(12, 0);
    expect(srv.requests.filter((u) => u === '/fmp4/init.mp4').length).toBe(1);
    const a = await resolver().resolve({ url: `${srv.url}/fmp4/index.m3u8`, platform: 'direct' });
    expect(a).toMatchObject({ width: 320, height: 180, hasAudio: true });
  });

  it('byte ranges of one file (#EXT-X-BYTERANGE) are fetched with Range, or cut from a whole answer', async () => {
    const playlist = fs.readFileSync(path.join(dir, 'media', 'single', 'index.m3u8'), 'utf8');
    expect(playlist).toMatch(/#EXT-X-BYTERANGE:/);
    const file = fs.readFileSync(path.join(dir, 'media', 'single', 'index.ts'));
    const ranges: string[] = [];
    srv.route('/ranged/index.m3u8', (_q, res) => res.writeHead(200).end(playlist));
    srv.route('/ranged/index.ts', (req, res) => {
      ranges.push(req.headers.range ?? '');
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!m) return void res.writeHead(400).end();
      const [a, b] = [Number(m[1]), Number(m[2])];
      res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${file.length}`, 'content-length': b - a + 1 }).end(file.subarray(a, b + 1));
    });
    // A server that ignores Range: each answer is the whole file, and the range is cut from it.
    srv.route('/whole/index.m3u8', (_q, res) => res.writeHead(200).end(playlist));
    srv.route('/whole/index.ts', (_q, res) => res.writeHead(200, { 'content-length': file.length }).end(file));
    for (const p of ['/single/index.m3u8', '/ranged/index.m3u8', '/whole/index.m3u8']) {
      const r = await get(p);
      expect(r.info.duration).toBeCloseTo(12, 0);
      expect(r.info.hasAudio).toBe(true);
    }
    expect(ranges.length).toBe(3);
    expect(ranges[0]).toMatch(/^bytes=0-\d+$/);
  });

  it('a variant with a separate audio rendition: video and audio files remuxed together; analysis keeps the master URL', async () => {
    const r = await get('/split/master.m3u8');
    expect(r.info).toMatchObject({ width: 320, height: 180, hasVideo: true, hasAudio: true, videoCodec: 'h264', audioCodec: 'aac' });
    expect(r.info.duration).toBeCloseTo(12, 0);
    const a = await resolver().resolve({ url: `${srv.url}/split/master.m3u8`, platform: 'direct' });
    expect(a).toMatchObject({ hasVideo: true, hasAudio: true, width: 320, mediaUrl: `${srv.url}/split/master.m3u8` });
  });

  it('a failing segment is retried; a segment cut mid-body is fetched again', async () => {
    let calls = 0;
    const file = path.join(dir, 'media', 'ts', 'seg001.ts');
    srv.route('/flaky/index.m3u8', (_q, res) =>
      res.writeHead(200).end(
        fs
          .readFileSync(path.join(dir, 'media', 'ts', 'index.m3u8'), 'utf8')
          .replace(/^seg/gm, '/ts/seg')
          .replace('/ts/seg001.ts', '/flaky/seg001.ts'),
      ),
    );
    srv.route('/flaky/seg001.ts', (_q, res) => {
      const bytes = fs.readFileSync(file);
      calls++;
      if (calls === 1) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-length': bytes.length });
      if (calls === 2) return void res.write(bytes.subarray(0, 2000), () => setTimeout(() => res.destroy(), 20));
      res.end(bytes);
    });
    const r = await get('/flaky/index.m3u8');
    expect(calls).toBe(3);
    expect(r.info.duration).toBeGreaterThan(11.5);
  });

  it('maxBytes bounds the segment bytes: SOURCE_TOO_LARGE, nothing stored', async () => {
    const d = dest();
    const err = await downloader()
      .download({ mediaUrl: `${srv.url}/ts/index.m3u8`, platform: 'direct' }, d, { maxBytes: 50_000 })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'SOURCE_TOO_LARGE', extra: { max_size: 50_000 } });
    expect(await storage.head(d.key)).toBeNull();
  });

  it('a playlist served as text/plain from a path without .m3u8 is still read as HLS (the body decides)', async () => {
    srv.route('/plain.txt', (_q, res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(fs.readFileSync(path.join(dir, 'media', 'ts', 'index.m3u8'), 'utf8').replace(/^seg/gm, '/ts/seg')),
    );
    const r = await get('/plain.txt');
    expect(r.info.duration).toBeCloseTo(12, 0);
  });

  it('an abort while segments are fetched rejects with the reason; the work folder is removed', async () => {
    srv.route('/slow/index.m3u8', (_q, res) => res.writeHead(200).end('#EXTM3U\n#EXTINF:4,\n/slow/seg.ts\n#EXT-X-ENDLIST\n'));
    srv.route('/slow/seg.ts', (_q, res) => {
      res.writeHead(200, { 'content-length': 100_000 });
      res.write(Buffer.alloc(1000, 0x47));
    });
    const ac = new AbortController();
    const p = downloader().download({ mediaUrl: `${srv.url}/slow/index.m3u8`, platform: 'direct' }, dest(), { signal: ac.signal, maxBytes: GiB });
    setTimeout(() => ac.abort(new Error('cancelled')), 200);
    await expect(p).rejects.toThrow('cancelled');
  });

  it('segments still arriving after downloadTimeoutMs → SOURCE_UNAVAILABLE', async () => {
    const slow = new MediaSourceDownloader({ allowPrivate: true, workDir: work, fetchTimeoutMs: 5000, retries: 0, downloadTimeoutMs: 300 });
    const err = await slow.download({ mediaUrl: `${srv.url}/slow/index.m3u8`, platform: 'direct' }, dest(), { maxBytes: GiB }).catch((e) => e);
    expect(err).toMatchObject({ code: 'SOURCE_UNAVAILABLE' });
    expect(String(err.cause)).toMatch(/within 300 ms/);
  });
});
