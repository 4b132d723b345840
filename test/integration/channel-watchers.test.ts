import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwitchWatcher } from '../../src/adapters/watchers/twitch.watcher.js';
import { YouTubeWatcher } from '../../src/adapters/watchers/ytdlp-channel.js';
import { FeedWatcher } from '../../src/adapters/watchers/feed.watcher.js';
import { HlsWatcher } from '../../src/adapters/watchers/hls.watcher.js';
import { HlsLiveRecorder } from '../../src/adapters/watchers/live-recorder.js';
import { SafeChannelClassifier } from '../../src/adapters/watchers/channel-classifier.js';
import { tempDir } from '../helpers/app.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

/**
 * The channel watchers against local stand-ins speaking their real protocols: a stand-in yt-dlp
 * executable (channel tabs as `-J --flat-playlist`, a live page's `live_status` and HLS formats, the
 * "not currently live" error), a local Twitch Helix server (client-credentials token, users, streams,
 * videos?type=archive, a revoked token renewed once), feeds and live playlists on a loopback server,
 * and the classifier's refusal of private addresses.
 */

let dir: string;
let state: string;
let ytdlp: string;
let srv: StaticServer;

const FAKE_YTDLP = `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
const url = args[args.length - 1];
const state = JSON.parse(fs.readFileSync(process.env.FAKE_CHANNEL_STATE, 'utf8'));
fs.appendFileSync(process.env.FAKE_CHANNEL_STATE + '.log', JSON.stringify(args) + '\\n');
if (!args.includes('-J') || args[args.length - 2] !== '--') { process.stderr.write('ERROR: bad arguments'); process.exit(2); }
if (url.endsWith('/videos') && args.includes('--flat-playlist')) {
  process.stdout.write(JSON.stringify({ _type: 'playlist', id: 'UCx', entries: state.videos.map((id) => ({ _type: 'url', id, url: 'https://www.youtube.com/watch?v=' + id, title: 'Video ' + id })) }));
} else if (url.endsWith('/live') || url.startsWith('https://www.twitch.tv/')) {
  if (!state.live) { process.stderr.write('ERROR: [youtube:tab] somebody: The channel is not currently live\\n'); process.exit(1); }
  process.stdout.write(JSON.stringify({ id: state.live.id, title: state.live.title, is_live: true, live_status: 'is_live', formats: [
    { format_id: 'hls-160p', protocol: 'm3u8_native', url: state.live.playlist + '?low', manifest_url: state.live.playlist },
    { format_id: 'dash', protocol: 'http_dash_segments', url: 'https://example.invalid/dash.mpd' } ] }));
} else { process.stderr.write('ERROR: Unsupported URL: ' + url + '\\n'); process.exit(1); }
`;

beforeAll(async () => {
  dir = tempDir('cutroom-watchers-');
  state = path.join(dir, 'state.json');
  ytdlp = path.join(dir, 'yt-dlp');
  fs.writeFileSync(ytdlp, FAKE_YTDLP, { mode: 0o755 });
  process.env.FAKE_CHANNEL_STATE = state;
  fs.writeFileSync(
    path.join(dir, 'feed.xml'),
    '<rss version="2.0"><channel><item><guid>a</guid><title>A</title><enclosure url="https://cdn.example.com/a.mp4"/></item></channel></rss>',
  );
  fs.writeFileSync(path.join(dir, 'live.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:2.0,\nseg7.ts\n#EXTINF:2.0,\nseg8.ts\n');
  fs.writeFileSync(path.join(dir, 'vod.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg0.ts\n#EXT-X-ENDLIST\n');
  fs.writeFileSync(path.join(dir, 'page.html'), '<html></html>');
  srv = await startStaticServer(dir);
});

afterAll(async () => {
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('youtube (yt-dlp)', () => {
  const w = () => new YouTubeWatcher({ binary: ytdlp, timeoutMs: 10_000 });
  const ref = { platform: 'youtube' as const, watchUrl: 'https://www.youtube.com/@somebody' };

  it('lists the /videos tab flat, newest first, and reads live_status of /live', async () => {
    fs.writeFileSync(state, JSON.stringify({ videos: ['bbbbbbbbbbb', 'aaaaaaaaaaa', 'not-an-id'], live: null }));
    expect(await w().uploads(ref)).toEqual([
      { id: 'yt:video:bbbbbbbbbbb', url: 'https://www.youtube.com/watch?v=bbbbbbbbbbb', title: 'Video bbbbbbbbbbb' },
      { id: 'yt:video:aaaaaaaaaaa', url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa', title: 'Video aaaaaaaaaaa' },
    ]);
    expect(await w().live(ref)).toEqual({ live: false });
    fs.writeFileSync(state, JSON.stringify({ videos: [], live: { id: 'livelivelv1', title: 'On air', playlist: 'https://manifest.example.com/live.m3u8' } }));
    expect(await w().live(ref)).toEqual({ live: true, id: 'livelivelv1', title: 'On air', playlistUrl: 'https://manifest.example.com/live.m3u8' });
    const calls = fs
      .readFileSync(`${state}.log`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls[0]).toEqual([
      '-J',
      '--no-warnings',
      '--no-progress',
      '--flat-playlist',
      '--playlist-end',
      '15',
      '--',
      'https://www.youtube.com/@somebody/videos',
    ]);
    expect(calls[1]).toEqual(['-J', '--no-warnings', '--no-progress', '--no-playlist', '--', 'https://www.youtube.com/@somebody/live']);
  });

  it('without yt-dlp: PLATFORM_UNAVAILABLE', async () => {
    await expect(new YouTubeWatcher({ binary: null, timeoutMs: 1000 }).uploads(ref)).rejects.toMatchObject({ code: 'PLATFORM_UNAVAILABLE' });
  });
});

describe('twitch (Helix)', () => {
  let helix: http.Server;
  let base: string;
  const seen: string[] = [];
  let tokens = 0;
  let revokeNext = false;
  let live = false;

  beforeAll(async () => {
    helix = http.createServer((req, res) => {
      const u = new URL(req.url!, 'http://x');
      seen.push(`${req.method} ${u.pathname}${u.search}`);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && u.pathname === '/oauth2/token') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const f = new URLSearchParams(body);
          if (f.get('client_id') !== 'cid' || f.get('client_secret') !== 'secret' || f.get('grant_type') !== 'client_credentials')
            return json(400, { message: 'bad' });
          tokens++;
          json(200, { access_token: `tok${tokens}`, expires_in: 5000000, token_type: 'bearer' });
        });
        return;
      }
      if (req.headers['client-id'] !== 'cid' || req.headers.authorization !== `Bearer tok${tokens}`) return json(401, { error: 'Unauthorized' });
      if (revokeNext) {
        revokeNext = false;
        tokens++; // the old token no longer works
        return json(401, { error: 'Unauthorized' });
      }
      if (u.pathname === '/helix/users' && u.searchParams.get('login') === 'streamer') return json(200, { data: [{ id: '4242', login: 'streamer' }] });
      if (u.pathname === '/helix/streams')
        return json(200, { data: live && u.searchParams.get('user_login') === 'streamer' ? [{ id: '777', type: 'live', title: 'Playing' }] : [] });
      if (u.pathname === '/helix/videos' && u.searchParams.get('user_id') === '4242' && u.searchParams.get('type') === 'archive') {
        return json(200, {
          data: [
            { id: '1002', url: 'https://www.twitch.tv/videos/1002', title: 'Yesterday' },
            { id: '1001', title: 'Before' },
          ],
        });
      }
      json(404, { error: 'Not Found' });
    });
    await new Promise<void>((r) => helix.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(helix.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((r) => helix.close(() => r())));

  it('takes an app token by client credentials, lists archives, reads streams, renews a revoked token once', async () => {
    fs.writeFileSync(state, JSON.stringify({ videos: [], live: { id: 'tw1', title: 'ignored', playlist: 'https://video.example.com/tw.m3u8' } }));
    const w = new TwitchWatcher({
      clientId: 'cid',
      clientSecret: 'secret',
      apiUrl: `${base}/helix`,
      authUrl: `${base}/oauth2/token`,
      ytdlp: { binary: ytdlp, timeoutMs: 10_000 },
    });
    const ref = { platform: 'twitch' as const, watchUrl: 'https://www.twitch.tv/streamer' };
    expect(await w.uploads(ref)).toEqual([
      { id: 'twitch:video:1002', url: 'https://www.twitch.tv/videos/1002', title: 'Yesterday' },
      { id: 'twitch:video:1001', url: 'https://www.twitch.tv/videos/1001', title: 'Before' },
    ]);
    expect(await w.live(ref)).toEqual({ live: false });
    live = true;
    revokeNext = true;
    expect(await w.live(ref)).toEqual({ live: true, id: '777', title: 'Playing', playlistUrl: 'https://video.example.com/tw.m3u8' });
    expect(tokens).toBe(3);
    expect(seen.filter((s) => s.startsWith('POST /oauth2/token'))).toHaveLength(2);
    expect(seen).toContain('GET /helix/users?login=streamer');
    expect(seen).toContain('GET /helix/videos?user_id=4242&type=archive&first=20');
    expect(seen.filter((s) => s.startsWith('GET /helix/users'))).toHaveLength(1); // the user id is kept
  });

  it('a refused token is PLATFORM_UNAVAILABLE', async () => {
    const w = new TwitchWatcher({
      clientId: 'cid',
      clientSecret: 'wrong',
      apiUrl: `${base}/helix`,
      authUrl: `${base}/oauth2/token`,
      ytdlp: { binary: ytdlp, timeoutMs: 10_000 },
    });
    await expect(w.uploads({ platform: 'twitch', watchUrl: 'https://www.twitch.tv/streamer' })).rejects.toMatchObject({ code: 'PLATFORM_UNAVAILABLE' });
  });
});

describe('feeds, live playlists and the classifier', () => {
  it('reads a feed and a live playlist with the safe fetcher', async () => {
    expect(await new FeedWatcher({ allowPrivate: true }).uploads({ platform: 'feed', watchUrl: `${srv.url}/feed.xml` })).toEqual([
      { id: 'a', url: 'https://cdn.example.com/a.mp4', title: 'A' },
    ]);
    await expect(new FeedWatcher({ allowPrivate: false }).uploads({ platform: 'feed', watchUrl: `${srv.url}/feed.xml` })).rejects.toMatchObject({
      code: 'INVALID_URL',
    });
    const recorder = new HlsLiveRecorder({ storage: undefined as never, probe: undefined as never, ffmpegBinary: 'ffmpeg', allowPrivate: true });
    const hls = new HlsWatcher(recorder);
    expect(await hls.live({ platform: 'hls', watchUrl: `${srv.url}/live.m3u8` })).toMatchObject({
      live: true,
      id: `${srv.url}/live.m3u8`,
      playlistUrl: `${srv.url}/live.m3u8`,
    });
    expect(await hls.live({ platform: 'hls', watchUrl: `${srv.url}/vod.m3u8` })).toEqual({ live: false });
    const p = await recorder.readPlaylist(`${srv.url}/live.m3u8`);
    expect(p).toMatchObject({ ended: false, targetDuration: 2 });
    expect(p.segments.map((s) => [s.sequence, s.duration])).toEqual([
      [7, 2],
      [8, 2],
    ]);
  });

  it('classifies by the body, refusing private addresses unless allowed and platforms left unconfigured', async () => {
    const all = new SafeChannelClassifier({ allowPrivate: true, available: () => true });
    expect(await all.classify(`${srv.url}/feed.xml`)).toEqual({ platform: 'feed', watchUrl: `${srv.url}/feed.xml` });
    expect(await all.classify(`${srv.url}/live.m3u8`)).toEqual({ platform: 'hls', watchUrl: `${srv.url}/live.m3u8` });
    await expect(all.classify(`${srv.url}/page.html`)).rejects.toMatchObject({ code: 'INVALID_URL' });
    await expect(new SafeChannelClassifier({ allowPrivate: false, available: () => true }).classify(`${srv.url}/live.m3u8`)).rejects.toMatchObject({
      code: 'INVALID_URL',
    });
    await expect(
      new SafeChannelClassifier({ allowPrivate: true, available: (p) => p !== 'twitch' }).classify('https://www.twitch.tv/streamer'),
    ).rejects.toMatchObject({
      code: 'PLATFORM_UNAVAILABLE',
    });
  });
});
