import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSourcesConfig } from '../../src/config/sources.env.js';
import { DirectSourceResolver } from '../../src/adapters/sources/direct.resolver.js';
import { YtDlpSourceResolver } from '../../src/adapters/sources/ytdlp.resolver.js';
import { createSourceResolvers } from '../../src/adapters/sources/source-resolvers.js';
import { analyzeLink, type AnalyzeLinkDeps } from '../../src/domain/videos/source-analysis.js';
import type { SourceResolver } from '../../src/ports/source-resolver.js';
import { FAKE_YTDLP } from '../helpers/fake-ytdlp.js';
import { makeAudio, makeHls, makeVideo } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * Real ffprobe on media generated here, served by loopback HTTP servers: `internal` (127.0.0.1, only
 * reachable with allowPrivate) and `pub` (the same files, treated as a public host). yt-dlp is a
 * fake executable speaking the real CLI protocol.
 */

let dir: string;
let internal: StaticServer;
let pub: StaticServer;
let fakeYtDlp: string;

const MAX = 3600;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-analysis-'));
  await Promise.all([
    makeVideo(path.join(dir, 'tagged.mp4'), { seconds: 70, title: 'Quarterly review', artist: 'ACME Corp' }),
    makeVideo(path.join(dir, 'My Talk.mkv'), { seconds: 65 }),
    makeVideo(path.join(dir, 'portrait.mp4'), { seconds: 61, width: 320, height: 180, rotate: 90, audio: false }),
    makeAudio(path.join(dir, 'podcast.mp3'), { seconds: 70, coverArt: true, title: 'Episode 1' }),
    makeVideo(path.join(dir, 'short.mp4'), { seconds: 30 }),
    makeHls(path.join(dir, 'vod'), { seconds: 70, master: true }),
    makeHls(path.join(dir, 'live'), { seconds: 12, live: true }),
  ]);
  fs.writeFileSync(path.join(dir, 'page.html'), '<html><body>not a video</body></html>');

  internal = await startStaticServer(dir);
  pub = await startStaticServer(dir);
  internal.route('/page.mp4', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
  internal.route('/forbidden.mp4', (_req, res) => res.writeHead(403).end());
  internal.route('/go.mp4', (_req, res) => res.writeHead(302, { location: '/tagged.mp4' }).end());
  internal.route('/garbage.mp4', (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(4096, 7)));
  let switchCalls = 0;
  pub.route('/switch.mp4', (req, res) => {
    // Answers the first request (the check) with media, later ones (the probe) with a redirect inside.
    if (++switchCalls === 1) {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      fs.createReadStream(path.join(dir, 'tagged.mp4')).pipe(res);
    } else {
      res.writeHead(302, { location: `${internal.url}/tagged.mp4` }).end();
    }
    void req;
  });
  pub.route('/to-internal.mp4', (_req, res) => res.writeHead(302, { location: `${internal.url}/tagged.mp4` }).end());
  pub.route('/split.m3u8', (_req, res) => {
    // A VOD playlist on the "public" host whose segments live on the internal one.
    const text = fs.readFileSync(path.join(dir, 'vod', 'index.m3u8'), 'utf8').replace(/^(seg\d+\.ts)$/gm, `${internal.url}/vod/$1`);
    res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(text);
  });

  fakeYtDlp = path.join(dir, 'yt-dlp');
  fs.writeFileSync(fakeYtDlp, FAKE_YTDLP.replace('#!node', `#!${process.execPath}`), { mode: 0o755 });
});

afterAll(async () => {
  await internal?.close();
  await pub?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function direct(allowPrivate = true): DirectSourceResolver {
  return new DirectSourceResolver({
    allowPrivate,
    fetchTimeoutMs: 5000,
    probeTimeoutMs: 20_000,
    treatAsPublic: (address, url) => address === '127.0.0.1' && Number(url.port) === pub.port,
  });
}

function deps(resolvers: SourceResolver[], maxDurationSeconds: number | null = MAX): AnalyzeLinkDeps {
  return { resolvers, maxDurationSeconds };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'OK',
    (e: { code?: string; message?: string }) => e.code ?? `not a domain error: ${e.message}`,
  );
}

describe('direct links', () => {
  it('reads a 70 s video with audio: metadata tags, size and final URL', async () => {
    const a = await analyzeLink(`${internal.url}/tagged.mp4`, deps([direct()]));
    expect(a).toMatchObject({
      title: 'Quarterly review',
      author: 'ACME Corp',
      platform: 'direct',
      width: 320,
      height: 180,
      hasVideo: true,
      hasAudio: true,
      isLive: false,
      mediaUrl: `${internal.url}/tagged.mp4`,
      resolver: 'direct',
      link: { kind: 'direct' },
    });
    expect(a.duration).toBeCloseTo(70, 0);
    expect(a.sizeBytes).toBe(fs.statSync(path.join(dir, 'tagged.mp4')).size);
    expect(a.waiting).toBeUndefined();
  });

  it('falls back to the file name and the host when the file has no tags', async () => {
    const a = await analyzeLink(`${internal.url}/My%20Talk.mkv`, deps([direct()]));
    expect([a.title, a.author]).toEqual(['My Talk', '127.0.0.1']);
    expect(a.duration).toBeCloseTo(65, 0);
  });

  it('reports the display size of a rotated video', async () => {
    const a = await analyzeLink(`${internal.url}/portrait.mp4`, deps([direct()]));
    expect([a.width, a.height, a.hasAudio]).toEqual([180, 320, false]);
  });

  it('follows redirects and keeps the final URL for the download', async () => {
    const a = await analyzeLink(`${internal.url}/go.mp4`, deps([direct()]));
    expect(a.mediaUrl).toBe(`${internal.url}/tagged.mp4`);
  });

  it('refuses audio-only files, short videos and videos over the plan maximum', async () => {
    expect(await codeOf(analyzeLink(`${internal.url}/podcast.mp3`, deps([direct()])))).toBe('AUDIO_ONLY');
    const short = analyzeLink(`${internal.url}/short.mp4`, deps([direct()]));
    await expect(short).rejects.toMatchObject({ code: 'INVALID_DURATION', extra: { min_duration: 60, max_duration: MAX } });
    const long = analyzeLink(`${internal.url}/tagged.mp4`, deps([direct()], 65));
    await expect(long).rejects.toMatchObject({ code: 'INVALID_DURATION', extra: { max_duration: 65 } });
  });

  it('answers INVALID_URL for missing files, HTML pages and bytes that are not media; PRIVATE_VIDEO for 403', async () => {
    expect(await codeOf(analyzeLink(`${internal.url}/missing.mp4`, deps([direct()])))).toBe('INVALID_URL');
    expect(await codeOf(analyzeLink(`${internal.url}/page.mp4`, deps([direct()])))).toBe('INVALID_URL');
    expect(await codeOf(analyzeLink(`${internal.url}/garbage.mp4`, deps([direct()])))).toBe('INVALID_URL');
    expect(await codeOf(analyzeLink(`${internal.url}/forbidden.mp4`, deps([direct()])))).toBe('PRIVATE_VIDEO');
    expect(await codeOf(analyzeLink(`${internal.url}/page.html`, deps([direct()])))).toBe('INVALID_URL');
  });

  it('refuses loopback links and redirects to 127.0.0.1 when private sources are not allowed', async () => {
    const before = internal.requests.length;
    expect(await codeOf(analyzeLink(`${internal.url}/tagged.mp4`, deps([direct(false)])))).toBe('INVALID_URL');
    expect(await codeOf(analyzeLink(`${pub.url}/to-internal.mp4`, deps([direct(false)])))).toBe('INVALID_URL');
    expect(internal.requests.length).toBe(before);
    // a source that answers the check with media and the probe with a redirect inside is caught too
    const sneaky = analyzeLink(`${pub.url}/switch.mp4`, deps([direct(false)]));
    await expect(sneaky).rejects.toMatchObject({ code: 'INVALID_URL', cause: expect.objectContaining({ message: expect.stringMatching(/loopback/) }) });
    expect(internal.requests.length).toBe(before);
    // the same file on the "public" host is fine
    const ok = await analyzeLink(`${pub.url}/tagged.mp4`, deps([direct(false)]));
    expect(ok.title).toBe('Quarterly review');
  });
});

describe('HLS links', () => {
  it('reads a VOD playlist through its master playlist', async () => {
    const a = await analyzeLink(`${internal.url}/vod/master.m3u8`, deps([direct()]));
    expect(a).toMatchObject({
      platform: 'direct',
      isLive: false,
      hasVideo: true,
      hasAudio: true,
      width: 320,
      height: 180,
      mediaUrl: `${internal.url}/vod/index.m3u8`,
    });
    expect(a.duration).toBeCloseTo(70, 0);
    const media = await analyzeLink(`${internal.url}/vod/index.m3u8`, deps([direct()]));
    expect(media.duration).toBeCloseTo(70, 0);
  });

  it('answers LIVE_STREAM for a playlist without #EXT-X-ENDLIST', async () => {
    expect(await codeOf(analyzeLink(`${internal.url}/live/index.m3u8`, deps([direct()])))).toBe('LIVE_STREAM');
  });

  it('refuses a playlist whose segments live on a private host', async () => {
    const refused = analyzeLink(`${pub.url}/split.m3u8`, deps([direct(false)]));
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_URL', cause: expect.objectContaining({ message: expect.stringMatching(/loopback/) }) });
    // with private sources allowed the same playlist is fine
    expect((await analyzeLink(`${pub.url}/split.m3u8`, deps([direct(true)]))).duration).toBeCloseTo(70, 0);
  });
});

describe('platform links through yt-dlp', () => {
  const yt = (id: string) => `https://www.youtube.com/watch?v=${id}`;
  const resolvers = () => [direct(), new YtDlpSourceResolver({ binary: fakeYtDlp, timeoutMs: 5000 })];

  it('maps the JSON of an ordinary video', async () => {
    const a = await analyzeLink('https://youtu.be/okokokokok1?t=5', deps(resolvers()));
    expect(a).toMatchObject({
      title: 'A long talk',
      author: 'Some Channel',
      platform: 'youtube',
      duration: 300,
      width: 1920,
      height: 1080,
      hasVideo: true,
      hasAudio: true,
      isLive: false,
      mediaUrl: yt('okokokokok1'),
      thumbnailUrl: 'https://i.ytimg.com/vi/okokokokok1/hqdefault.jpg',
      resolver: 'yt-dlp',
    });
  });

  it('maps yt-dlp errors to the spec codes', async () => {
    const r = resolvers();
    expect(await codeOf(analyzeLink(yt('privatevid1'), deps(r)))).toBe('PRIVATE_VIDEO');
    expect(await codeOf(analyzeLink(yt('agerestrict'), deps(r)))).toBe('AGE_RESTRICTED');
    expect(await codeOf(analyzeLink(yt('regionblock'), deps(r)))).toBe('REGION_BLOCKED');
    expect(await codeOf(analyzeLink(yt('goneeeeeee1'), deps(r)))).toBe('INVALID_URL');
  });

  it('applies live, audio-only and duration rules to what yt-dlp reports', async () => {
    const r = resolvers();
    expect(await codeOf(analyzeLink(yt('liveliveli1'), deps(r)))).toBe('LIVE_STREAM');
    expect(await codeOf(analyzeLink(yt('audioonly01'), deps(r)))).toBe('AUDIO_ONLY');
    expect(await codeOf(analyzeLink(yt('tooshort001'), deps(r)))).toBe('INVALID_DURATION');
  });

  it('reports scheduled premieres as waiting, from JSON or from the error text', async () => {
    const fromJson = await analyzeLink(yt('upcomingjs1'), deps(resolvers()));
    expect(fromJson.waiting).toEqual({ reason: 'SOURCE_PREMIERE_SCHEDULED', until: new Date(1893456000 * 1000) });
    expect(fromJson.title).toBe('Big premiere');
    const before = Date.now();
    const fromError = await analyzeLink(yt('premiere001'), deps(resolvers()));
    expect(fromError.waiting?.reason).toBe('SOURCE_PREMIERE_SCHEDULED');
    const until = fromError.waiting?.until?.getTime() ?? 0;
    expect(until).toBeGreaterThanOrEqual(before + 3 * 3600_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3 * 3600_000 + 1000);
  });

  it('answers PLATFORM_UNAVAILABLE when yt-dlp hangs or no resolver handles the platform', async () => {
    const slow = [new YtDlpSourceResolver({ binary: fakeYtDlp, timeoutMs: 1000 })];
    expect(await codeOf(analyzeLink(yt('slowslowsl1'), deps(slow)))).toBe('PLATFORM_UNAVAILABLE');
    expect(await codeOf(analyzeLink('https://www.twitch.tv/videos/2012345678', deps([direct()])))).toBe('PLATFORM_UNAVAILABLE');
    const missing = [new YtDlpSourceResolver({ binary: path.join(dir, 'no-such-yt-dlp') })];
    expect(await codeOf(analyzeLink(yt('okokokokok1'), deps(missing)))).toBe('PLATFORM_UNAVAILABLE');
  });

  it('is wired from the environment by createSourceResolvers', async () => {
    const cfg = loadSourcesConfig({ CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_YTDLP_PATH: fakeYtDlp, PATH: '' });
    const r = createSourceResolvers(cfg);
    expect(r.map((x) => x.name)).toEqual(['direct', 'yt-dlp']);
    expect((await analyzeLink('https://www.twitch.tv/videos/2012345678', deps(r))).platform).toBe('twitch');
    expect((await analyzeLink(`${internal.url}/tagged.mp4`, deps(r))).title).toBe('Quarterly review');
    const off = createSourceResolvers(loadSourcesConfig({ CUTROOM_YTDLP_PATH: 'off' }));
    expect(off.map((x) => x.name)).toEqual(['direct']);
    expect(await codeOf(analyzeLink(`${internal.url}/tagged.mp4`, deps(off)))).toBe('INVALID_URL');
  });
});
