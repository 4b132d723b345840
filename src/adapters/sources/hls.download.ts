import path from 'node:path';
import { DomainError } from '../../domain/errors.js';
import { FfmpegError } from '../media/ffmpeg-run.js';
import { checkedUrl, refused, resolveAllowed, type SafeResponse } from '../net/safe-fetch.js';
import { withSafeRelay } from '../net/safe-relay.js';
import {
  fetchAttempt,
  isPolicyMessage,
  isPolicyRefusal,
  RETRY_SECONDS,
  sourceUnavailable,
  sourceUnreadable,
  throwIfAborted,
  waiting,
  withRetries,
  type DownloadContext,
  type Fetched,
  type Waiting,
} from './download-support.js';
import { HlsParseError, parseHlsPlaylist, pickVariant, type HlsPlaylist } from './hls-playlist.js';
import { remuxToMp4 } from './mp4-remux.js';

/**
 * HLS sources: a media playlist without `#EXT-X-ENDLIST` is still on air (waiting
 * SOURCE_LIVE_IN_PROGRESS); a VOD is remuxed to MP4 by ffmpeg, which reads only through the safe relay
 * (every playlist, segment and key request checked by safeFetch). A master playlist is followed to its
 * highest-bandwidth variant, with the variant's separate audio rendition when it has one.
 */

type Retry = { kind: 'retry'; error: Error; delayMs?: number };
type MediaPlaylist = Extract<HlsPlaylist, { kind: 'media' }>;

/** ffmpeg's hls demuxer skips a segment it cannot open and carries on: these lines mean the result has holes. */
const SEGMENT_FAILURE = /failed to open segment|failed to reload playlist|unable to open key file/i;

export async function downloadHls(first: SafeResponse, ctx: DownloadContext): Promise<Fetched | Retry> {
  let text: string;
  try {
    text = await readCapped(first, ctx.maxPlaylistBytes);
  } catch (err) {
    first.discard();
    throwIfAborted(ctx.signal);
    if (err instanceof DomainError) throw err;
    return { kind: 'retry', error: err as Error };
  }
  let url = first.url;
  let playlist = parse(text, url);
  let audioUrl: string | undefined;
  if (playlist.kind === 'master') {
    const variant = pickVariant(playlist.variants);
    const audio = audioRendition(text, url, variant.uri);
    const media = await fetchMediaPlaylist(variant.uri, ctx);
    if (media.kind === 'waiting') return media;
    [url, playlist] = [media.url, media.playlist];
    if (audio) {
      const a = await fetchMediaPlaylist(audio, ctx);
      if (a.kind === 'waiting') return a;
      if (!a.playlist.ended) return waiting('SOURCE_LIVE_IN_PROGRESS', RETRY_SECONDS.liveHls);
      audioUrl = a.url;
      playlist = { ...playlist, uris: [...playlist.uris, ...a.playlist.uris] };
    }
  }
  if (playlist.kind !== 'media') throw sourceUnreadable(`${url}: master playlist points at another master playlist`);
  if (!playlist.ended) return waiting('SOURCE_LIVE_IN_PROGRESS', RETRY_SECONDS.liveHls);
  if (playlist.segmentCount === 0) throw sourceUnreadable(`${url}: playlist without segments`);
  await checkHosts(playlist, ctx);
  return remux(url, audioUrl, playlist.duration, ctx);
}

function parse(text: string, url: string): HlsPlaylist {
  try {
    return parseHlsPlaylist(text, url);
  } catch (err) {
    if (err instanceof HlsParseError) throw sourceUnreadable(`${url}: ${err.message}`);
    throw err;
  }
}

async function readCapped(res: SafeResponse, maxBytes: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw sourceUnreadable(`playlist larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw sourceUnreadable(`playlist larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function fetchMediaPlaylist(uri: string, ctx: DownloadContext): Promise<{ kind: 'playlist'; url: string; playlist: MediaPlaylist } | Waiting> {
  const got = await withRetries<{ kind: 'text'; url: string; text: string } | Waiting>(ctx, uri, async () => {
    const a = await fetchAttempt(uri, ctx, { maxBytes: ctx.maxPlaylistBytes });
    if (a.kind !== 'response') return a;
    try {
      return { kind: 'text', url: a.res.url, text: await readCapped(a.res, ctx.maxPlaylistBytes) };
    } catch (err) {
      a.res.discard();
      throwIfAborted(ctx.signal);
      if (err instanceof DomainError && err.code !== 'INVALID_URL') throw err;
      if (isPolicyRefusal(err)) throw err;
      return { kind: 'retry', error: err as Error };
    }
  });
  if (got.kind === 'waiting') return got;
  const playlist = parse(got.text, got.url);
  if (playlist.kind !== 'media') throw sourceUnreadable(`${got.url}: master playlist points at another master playlist`);
  return { kind: 'playlist', url: got.url, playlist };
}

/**
 * The audio rendition a variant names (`AUDIO="group"` → `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group",URI=...`),
 * preferring DEFAULT=YES; undefined when the variant's own segments carry the audio. Pure.
 */
export function audioRendition(masterText: string, baseUrl: string, variantUri: string): string | undefined {
  const lines = masterText.split(/\r?\n/).map((l) => l.trim());
  let group: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i] || lines[i].startsWith('#')) continue;
    let abs: string;
    try {
      abs = new URL(lines[i], baseUrl).toString();
    } catch {
      continue;
    }
    if (abs !== variantUri) continue;
    for (let j = i - 1; j >= 0; j--) {
      if (lines[j].startsWith('#EXT-X-STREAM-INF')) {
        group = /[:,]AUDIO="([^"]*)"/.exec(lines[j])?.[1];
        break;
      }
      if (lines[j] && !lines[j].startsWith('#')) break;
    }
    break;
  }
  if (!group) return undefined;
  const renditions = lines
    .filter((l) => l.startsWith('#EXT-X-MEDIA:') && /[:,]TYPE=AUDIO(,|$)/.test(l) && l.includes(`GROUP-ID="${group}"`))
    .map((l) => ({ uri: /[:,]URI="([^"]*)"/.exec(l)?.[1], isDefault: /[:,]DEFAULT=YES(,|$)/.test(l) }))
    .filter((r): r is { uri: string; isDefault: boolean } => !!r.uri);
  const pick = renditions.find((r) => r.isDefault) ?? renditions[0];
  if (!pick) return undefined;
  try {
    return new URL(pick.uri, baseUrl).toString();
  } catch {
    throw sourceUnreadable(`bad audio rendition URI ${pick.uri}`);
  }
}

/** Every host named by the playlist must pass the address rules before ffmpeg starts (the relay checks again). */
async function checkHosts(playlist: MediaPlaylist, ctx: DownloadContext): Promise<void> {
  const origins = new Map<string, URL>();
  for (const uri of playlist.uris) {
    const u = checkedUrl(uri);
    origins.set(u.origin, u);
  }
  for (const u of origins.values()) {
    try {
      await resolveAllowed(u, { allowPrivate: ctx.allowPrivate, resolve: ctx.resolve, treatAsPublic: ctx.treatAsPublic });
    } catch (err) {
      if (isPolicyRefusal(err)) throw err;
      throw sourceUnavailable(`segment host ${u.host}`, err);
    }
  }
}

function httpInput(url: string, ctx: DownloadContext): string[] {
  return ['-protocol_whitelist', 'http,tcp,crypto', '-rw_timeout', String(ctx.fetchTimeoutMs * 2 * 1000), '-i', url];
}

async function remux(playlistUrl: string, audioUrl: string | undefined, duration: number, ctx: DownloadContext): Promise<Fetched> {
  const out = path.join(ctx.workDir, 'source.mp4');
  const relayOpts = {
    allowPrivate: ctx.allowPrivate,
    timeoutMs: ctx.fetchTimeoutMs,
    resolve: ctx.resolve,
    treatAsPublic: ctx.treatAsPublic,
    maxPlaylistBytes: ctx.maxPlaylistBytes,
  };
  return withRetries<Fetched>(ctx, playlistUrl, () =>
    withSafeRelay(relayOpts, async (relay) => {
      const inputArgs = [...httpInput(relay.url(playlistUrl), ctx), ...(audioUrl ? httpInput(relay.url(audioUrl), ctx) : [])];
      const maps = audioUrl ? ['-map', '0:v:0', '-map', '1:a:0'] : ['-map', '0:v:0?', '-map', '0:a:0?'];
      let hole: string | undefined;
      const policyRefusal = () => relay.failures.find((f) => isPolicyMessage(f.message));
      try {
        await remuxToMp4({ inputArgs, maps }, out, {
          ffmpegBinary: ctx.ffmpegBinary,
          durationSeconds: duration,
          onProgress: (f) => ctx.progress(f),
          onStderrLine: (line) => {
            if (SEGMENT_FAILURE.test(line)) hole ??= line;
          },
          signal: ctx.signal,
          timeoutMs: ctx.downloadTimeoutMs,
          maxBytes: ctx.maxBytes,
        });
      } catch (err) {
        throwIfAborted(ctx.signal);
        if (err instanceof DomainError) throw err;
        const refusal = policyRefusal();
        if (refusal) throw refused(refusal.message);
        if (!(err instanceof FfmpegError) || err.reason === 'spawn') throw err;
        const tail = err.stderrTail.join('\n');
        if (err.reason === 'exit' && /invalid data found when processing input|does not contain any stream|no streams/i.test(tail) && !relay.failures.length) {
          throw sourceUnreadable(`ffmpeg could not read ${playlistUrl}: ${err.stderrTail.at(-1) ?? ''}`);
        }
        return { kind: 'retry', error: new Error(`ffmpeg reading ${playlistUrl}: ${err.message}`) };
      }
      // A refused segment is skipped by ffmpeg without failing: the address rules still decide.
      const refusal = policyRefusal();
      if (refusal) throw refused(refusal.message);
      if (hole) return { kind: 'retry', error: new Error(`${playlistUrl}: ${hole}`) };
      return { kind: 'file', path: out };
    }),
  );
}
