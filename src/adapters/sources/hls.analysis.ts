import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import { readCapped } from '../net/read-body.js';
import { checkedUrl, refused, resolveAllowed, type SafeFetchOptions, type SafeResponse } from '../net/safe-fetch.js';
import { assembleSegments, TransientFetchError, type HlsIo } from './hls-fetch.js';
import { audioPlaylistOf, HlsParseError, parseHlsPlaylist, parseHlsSegments, pickVariant, type HlsPlaylist } from './hls-playlist.js';

/**
 * Analysis of an HLS link (the direct resolver's HLS branch; what POST /clips/info runs). ffprobe never
 * reads the playlist: the playlists are read here, a media playlist without `#EXT-X-ENDLIST` is on air
 * (nothing probed), and for a VOD the first segment (with its init section and AES-128 key; also the
 * first segment of a separate audio rendition) is fetched with safeFetch into a temporary folder and
 * probed there as the container its bytes are. The duration is the playlist's.
 */

export interface HlsAnalysisDeps {
  /** safeFetch with the resolver's settings (address rules, timeouts). */
  fetch(url: string, extra?: Partial<SafeFetchOptions>): Promise<SafeResponse>;
  /** 2xx passes; else the resolver's error for the status. */
  checkStatus(res: SafeResponse): void;
  probe: MediaProbe;
  probeTimeoutMs: number;
  maxPlaylistBytes: number;
  addressRules: Pick<SafeFetchOptions, 'allowPrivate' | 'resolve' | 'treatAsPublic'>;
  signal?: AbortSignal;
}

export interface HlsAnalysis {
  /** The URL to download later: the media playlist, or the master one when the audio is a separate rendition. */
  mediaUrl: string;
  isLive: boolean;
  /** Seconds, the sum of the `#EXTINF` durations. */
  duration: number;
  /** Probe of the first segment (absent for a stream on air). */
  info?: MediaInfo;
  /** The audio rendition's first segment has audio (when the variant has a separate one). */
  separateAudio?: boolean;
}

/** Bytes of the first segment written for ffprobe at most: enough for its stream parameters. */
const PROBE_BYTES = 8 * 1024 * 1024;
/** Bytes received at most for it (a byte range a server does not honour means reading up to its offset). */
const MAX_RECEIVED = 4 * PROBE_BYTES;

type Media = { url: string; text: string; playlist: Extract<HlsPlaylist, { kind: 'media' }> };

function parse(text: string, url: string): HlsPlaylist {
  try {
    return parseHlsPlaylist(text, url);
  } catch (err) {
    if (err instanceof HlsParseError) throw refused(`${url}: ${err.message}`, 'not_media');
    throw err;
  }
}

async function readText(res: SafeResponse, max: number, head?: Buffer): Promise<string> {
  return (await readCapped(res, max, () => refused(`playlist larger than ${max} bytes`, 'not_media'), head)).toString('utf8');
}

async function fetchMedia(uri: string, deps: HlsAnalysisDeps): Promise<Media> {
  const res = await deps.fetch(uri, { maxBytes: deps.maxPlaylistBytes });
  try {
    deps.checkStatus(res);
    const text = await readText(res, deps.maxPlaylistBytes);
    const playlist = parse(text, res.url);
    if (playlist.kind !== 'media') throw refused('master playlist points at another master playlist', 'not_media');
    return { url: res.url, text, playlist };
  } finally {
    res.discard();
  }
}

/** `first`: the answer whose body starts as a playlist; `head`: its bytes already read. */
export async function analyzeHls(first: SafeResponse, head: Buffer, deps: HlsAnalysisDeps): Promise<HlsAnalysis> {
  const text = await readText(first, deps.maxPlaylistBytes, head);
  const top = parse(text, first.url);
  let video: Media;
  let audio: Media | undefined;
  let mediaUrl: string;
  if (top.kind === 'master') {
    const variant = pickVariant(top.variants);
    const audioUrl = audioPlaylistOf(top, variant);
    video = await fetchMedia(variant.uri, deps);
    if (audioUrl) audio = await fetchMedia(audioUrl, deps);
    // The downloader must find the audio rendition again: it needs the master playlist for that.
    mediaUrl = audio ? first.url : video.url;
  } else {
    video = { url: first.url, text, playlist: top };
    mediaUrl = first.url;
  }
  if (!video.playlist.ended || (audio && !audio.playlist.ended)) {
    return { mediaUrl, isLive: true, duration: video.playlist.duration };
  }
  if (video.playlist.segmentCount === 0) throw refused(`${video.url}: playlist without segments`, 'not_media');

  // Every host the playlists name must pass the address rules (the download fetches all of them).
  const origins = new Map<string, URL>();
  for (const uri of [...video.playlist.uris, ...(audio?.playlist.uris ?? [])]) {
    const u = checkedUrl(uri);
    origins.set(u.origin, u);
  }
  for (const u of origins.values()) await resolveAllowed(u, deps.addressRules);

  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cutroom-probe-'));
  try {
    const info = await probeFirstSegment(video, path.join(dir, 'video.segment'), deps);
    const out: HlsAnalysis = { mediaUrl, isLive: false, duration: video.playlist.duration, info };
    if (audio) out.separateAudio = (await probeFirstSegment(audio, path.join(dir, 'audio.segment'), deps)).hasAudio;
    return out;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

async function probeFirstSegment(media: Media, file: string, deps: HlsAnalysisDeps): Promise<MediaInfo> {
  let segments;
  try {
    segments = parseHlsSegments(media.text, media.url).slice(0, 1);
  } catch (err) {
    if (err instanceof HlsParseError) throw refused(`${media.url}: ${err.message}`, 'not_media');
    throw err;
  }
  if (segments.length === 0) throw refused(`${media.url}: playlist without segments`, 'not_media');
  const budget = { used: 0, max: MAX_RECEIVED, tooLarge: () => refused(`more than ${MAX_RECEIVED} bytes received for the first segment`, 'not_media') };
  const local = await assembleSegments(segments, file, analysisIo(deps), { stopAfterBytes: PROBE_BYTES, budget });
  try {
    return await deps.probe.probe(local.path, { timeoutMs: deps.probeTimeoutMs, signal: deps.signal });
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    throw refused(`ffprobe could not read the first segment of ${media.url}: ${(err as Error).message}`, 'not_media');
  }
}

/** One attempt per GET; any failure is the analysis' INVALID_URL (or the status' own code). */
function analysisIo(deps: HlsAnalysisDeps): HlsIo {
  return {
    async get(url, headers) {
      const res = await deps.fetch(url, { headers });
      try {
        deps.checkStatus(res);
      } catch (err) {
        res.discard();
        throw err;
      }
      return res;
    },
    async retrying(what, step) {
      try {
        return await step();
      } catch (err) {
        if (err instanceof TransientFetchError) throw refused(`${what}: ${err.message}`, 'unreachable');
        throw err;
      }
    },
    unreadable: (message) => refused(message, 'not_media'),
    signal: deps.signal,
  };
}
