import fs from 'node:fs';
import path from 'node:path';
import { DomainError } from '../../domain/errors.js';
import type { LocalMedia } from '../media/container.js';
import { FfmpegError, localInputArgs } from '../media/ffmpeg-run.js';
import { readCapped } from '../net/read-body.js';
import { checkedUrl, resolveAllowed, type SafeResponse } from '../net/safe-fetch.js';
import {
  fetchAttempt,
  isPolicyRefusal,
  RETRY_SECONDS,
  sourceTooLarge,
  sourceUnavailable,
  sourceUnreadable,
  throwIfAborted,
  waiting,
  withRetries,
  type DownloadContext,
  type Fetched,
  type Waiting,
} from './download-support.js';
import { assembleSegments, TransientFetchError, type ByteBudget, type HlsIo } from './hls-fetch.js';
import { audioPlaylistOf, HlsParseError, parseHlsPlaylist, parseHlsSegments, pickVariant, type HlsPlaylist, type HlsSegment } from './hls-playlist.js';
import { remuxToMp4 } from './mp4-remux.js';

/**
 * HLS sources. A media playlist without `#EXT-X-ENDLIST` is still on air (waiting
 * SOURCE_LIVE_IN_PROGRESS). A VOD's playlists, segments, init sections and AES-128 keys are all
 * fetched in Node with safeFetch (hls-fetch.ts: address rules on every hop, retries, the size cap
 * counted while writing) into the work dir; ffmpeg then remuxes those local files to MP4 with the
 * demuxer named and only the `file` protocol. ffmpeg never gets a URL. A master playlist is followed
 * to its highest-bandwidth variant, with the variant's separate audio rendition when it has one.
 */

type Retry = { kind: 'retry'; error: Error; delayMs?: number };
type MediaPlaylist = Extract<HlsPlaylist, { kind: 'media' }>;
interface Loaded {
  kind: 'playlist';
  url: string;
  text: string;
  playlist: MediaPlaylist;
}

/** Share of the progress given to fetching segments; the rest is ffmpeg's remux. */
const FETCH_SHARE = 0.9;

/** A segment answered "not yet" (404/503 with Retry-After): the whole download waits. */
class WaitingSignal extends Error {
  constructor(readonly result: Waiting) {
    super(`waiting: ${result.reason}`);
  }
}

/** `first`: the answer whose body starts as a playlist; `head`: its bytes already read. */
export async function downloadHls(first: SafeResponse, head: Buffer, ctx: DownloadContext): Promise<Fetched | Retry> {
  let text: string;
  try {
    text = await readPlaylist(first, head, ctx);
  } catch (err) {
    first.discard();
    throwIfAborted(ctx.signal);
    if (err instanceof DomainError) throw err;
    return { kind: 'retry', error: err as Error };
  }
  let video: Loaded;
  let audio: Loaded | undefined;
  const top = parse(text, first.url);
  if (top.kind === 'master') {
    const variant = pickVariant(top.variants);
    const audioUrl = audioPlaylistOf(top, variant);
    const v = await fetchMediaPlaylist(variant.uri, ctx);
    if (v.kind === 'waiting') return v;
    video = v;
    if (audioUrl) {
      const a = await fetchMediaPlaylist(audioUrl, ctx);
      if (a.kind === 'waiting') return a;
      audio = a;
    }
  } else {
    video = { kind: 'playlist', url: first.url, text, playlist: top };
  }
  for (const p of [video, audio]) {
    if (p && !p.playlist.ended) return waiting('SOURCE_LIVE_IN_PROGRESS', RETRY_SECONDS.liveHls);
  }
  if (video.playlist.segmentCount === 0) throw sourceUnreadable(`${video.url}: playlist without segments`);
  if (audio && audio.playlist.segmentCount === 0) throw sourceUnreadable(`${audio.url}: audio playlist without segments`);
  await checkHosts([...video.playlist.uris, ...(audio?.playlist.uris ?? [])], ctx);

  const videoSegments = segmentsOf(video);
  const audioSegments = audio ? segmentsOf(audio) : undefined;
  // The caller's abort or the download deadline, whichever comes first, stops every GET and ffmpeg.
  throwIfAborted(ctx.signal);
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error(`not downloaded within ${ctx.downloadTimeoutMs} ms`));
  }, ctx.downloadTimeoutMs);
  const onAbort = () => stop.abort(ctx.signal?.reason);
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fetchAndRemux(video, videoSegments, audioSegments, { ...ctx, signal: stop.signal });
  } catch (err) {
    throwIfAborted(ctx.signal);
    if (timedOut) throw sourceUnavailable(`${video.url}: not downloaded within ${ctx.downloadTimeoutMs} ms`);
    if (err instanceof WaitingSignal) return err.result;
    throw err;
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
}

async function fetchAndRemux(video: Loaded, videoSegments: HlsSegment[], audioSegments: HlsSegment[] | undefined, ctx: DownloadContext): Promise<Fetched> {
  const io = downloadIo(ctx);
  const budget: ByteBudget = { used: 0, max: ctx.maxBytes, tooLarge: () => sourceTooLarge(ctx.maxBytes) };
  const total = sum(videoSegments) + sum(audioSegments ?? []);
  let before = 0;
  const onSegment = (seconds: number) => ctx.progress((FETCH_SHARE * (before + seconds)) / (total || 1));
  const files: LocalMedia[] = [];
  try {
    files.push(await assembleSegments(videoSegments, path.join(ctx.workDir, 'video.segments'), io, { budget, onSegment }));
    before = sum(videoSegments);
    if (audioSegments) files.push(await assembleSegments(audioSegments, path.join(ctx.workDir, 'audio.segments'), io, { budget, onSegment }));
    return await remux(files, video.playlist.duration, video.url, ctx);
  } finally {
    for (const name of ['video.segments', 'audio.segments']) fs.rmSync(path.join(ctx.workDir, name), { force: true });
  }
}

const sum = (segments: HlsSegment[]) => segments.reduce((s, x) => s + x.duration, 0);

function parse(text: string, url: string): HlsPlaylist {
  try {
    return parseHlsPlaylist(text, url);
  } catch (err) {
    if (err instanceof HlsParseError) throw sourceUnreadable(`${url}: ${err.message}`);
    throw err;
  }
}

function segmentsOf(p: Loaded): HlsSegment[] {
  try {
    return parseHlsSegments(p.text, p.url);
  } catch (err) {
    if (err instanceof HlsParseError) throw sourceUnreadable(`${p.url}: ${err.message}`);
    throw err;
  }
}

async function readPlaylist(res: SafeResponse, head: Buffer, ctx: DownloadContext): Promise<string> {
  const max = ctx.maxPlaylistBytes;
  return (await readCapped(res, max, () => sourceUnreadable(`playlist larger than ${max} bytes`), head)).toString('utf8');
}

async function fetchMediaPlaylist(uri: string, ctx: DownloadContext): Promise<Loaded | Waiting> {
  const got = await withRetries<{ kind: 'text'; url: string; text: string } | Waiting>(ctx, uri, async () => {
    const a = await fetchAttempt(uri, ctx, { maxBytes: ctx.maxPlaylistBytes });
    if (a.kind !== 'response') return a;
    try {
      return { kind: 'text', url: a.res.url, text: await readPlaylist(a.res, Buffer.alloc(0), ctx) };
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
  return { kind: 'playlist', url: got.url, text: got.text, playlist };
}

/**
 * The audio rendition a variant of `masterText` names (`AUDIO="group"` → `#EXT-X-MEDIA:TYPE=AUDIO,...,URI=...`),
 * preferring DEFAULT=YES; undefined when the variant's own segments carry the audio. Pure.
 */
export function audioRendition(masterText: string, baseUrl: string, variantUri: string): string | undefined {
  let master: HlsPlaylist;
  try {
    master = parseHlsPlaylist(masterText, baseUrl);
  } catch (err) {
    if (err instanceof HlsParseError) throw sourceUnreadable(`${baseUrl}: ${err.message}`);
    throw err;
  }
  if (master.kind !== 'master') return undefined;
  const variant = master.variants.find((v) => v.uri === variantUri);
  return variant ? audioPlaylistOf(master, variant) : undefined;
}

/** Every host the playlists name must pass the address rules before anything is fetched (each GET checks again). */
async function checkHosts(uris: string[], ctx: DownloadContext): Promise<void> {
  const origins = new Map<string, URL>();
  for (const uri of uris) {
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

/** Segment GETs for the downloader (and the live recorder): fetchAttempt's status rules, withRetries' backoff, SOURCE_* errors. */
export function downloadIo(ctx: DownloadContext): HlsIo {
  return {
    async get(url, headers) {
      const a = await fetchAttempt(url, ctx, { headers });
      if (a.kind === 'response') return a.res;
      if (a.kind === 'retry') throw new TransientFetchError(a.error.message, a.delayMs);
      throw new WaitingSignal(a);
    },
    async retrying<T>(what: string, step: () => Promise<T>): Promise<T> {
      const out = await withRetries<{ kind: 'done'; value: T }>(ctx, what, async () => {
        try {
          return { kind: 'done', value: await step() };
        } catch (err) {
          throwIfAborted(ctx.signal);
          if (err instanceof TransientFetchError) return { kind: 'retry', error: err, delayMs: err.delayMs };
          throw err;
        }
      });
      return out.value;
    },
    unreadable: sourceUnreadable,
    signal: ctx.signal,
  };
}

/** ffmpeg remuxes the local segment files (demuxer named, `file` protocol only) into source.mp4. */
async function remux(inputs: LocalMedia[], duration: number, playlistUrl: string, ctx: DownloadContext): Promise<Fetched> {
  const out = path.join(ctx.workDir, 'source.mp4');
  const inputArgs = inputs.flatMap((input) => localInputArgs(input));
  const maps = inputs.length > 1 ? ['-map', '0:v:0', '-map', '1:a:0'] : ['-map', '0:v:0?', '-map', '0:a:0?'];
  try {
    await remuxToMp4({ inputArgs, maps }, out, {
      ffmpegBinary: ctx.ffmpegBinary,
      durationSeconds: duration,
      onProgress: (f) => ctx.progress(FETCH_SHARE + (1 - FETCH_SHARE) * f),
      signal: ctx.signal,
      timeoutMs: ctx.downloadTimeoutMs,
      maxBytes: ctx.maxBytes,
    });
  } catch (err) {
    throwIfAborted(ctx.signal);
    if (err instanceof DomainError) throw err;
    if (!(err instanceof FfmpegError) || err.reason === 'spawn' || err.reason === 'aborted') throw err;
    if (err.reason === 'timeout') throw sourceUnavailable(`ffmpeg remuxing ${playlistUrl}: ${err.message}`);
    throw sourceUnreadable(`ffmpeg could not remux the segments of ${playlistUrl}: ${err.stderrTail.at(-1) ?? err.message}`);
  }
  return { kind: 'file', path: out };
}
