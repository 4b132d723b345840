import { execFile } from 'node:child_process';
import { DomainError } from '../../domain/errors.js';
import { invalidUrl } from '../../domain/videos/url-refusals.js';
import type { ErrorCode } from '../../domain/error-codes.js';
import { isKnownPlatform } from '../../domain/videos/link-classifier.js';
import type { ResolveOptions, ResolveTarget, SourceMetadata, SourceResolver, SourceWaiting } from '../../ports/source-resolver.js';

/**
 * Platform links (YouTube, Twitch, ...) through the yt-dlp command line: `yt-dlp -J --no-playlist
 * --no-warnings -- <url>` prints one JSON document; failures print `ERROR: ...` on stderr, which is
 * mapped to the spec's codes (mapYtDlpError). Only used when an executable is configured or on PATH.
 */

export interface YtDlpResolverOptions {
  /** Path of the yt-dlp executable. */
  binary: string;
  /** Kills yt-dlp after this long. Default 60 s. */
  timeoutMs?: number;
  /** Extra arguments placed before the URL (cookies file, proxy, ...), from the operator. */
  extraArgs?: string[];
}

const MAX_JSON_BYTES = 64 * 1024 * 1024;

type Json = Record<string, unknown>;

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function httpUrl(v: unknown): string | undefined {
  const s = text(v);
  return s && /^https?:\/\//i.test(s) ? s : undefined;
}

/**
 * Whether the video has this kind of track (`vcodec` for video, `acodec` for audio). yt-dlp writes
 * `none` for a missing track; false only when that is all it says. Without any codec information
 * the track is assumed present (the download's probe checks again).
 */
function hasTrack(json: Json, key: 'vcodec' | 'acodec'): boolean {
  const formats = (Array.isArray(json.formats) ? json.formats : []) as Json[];
  const requested = (Array.isArray(json.requested_formats) ? json.requested_formats : []) as Json[];
  const all = [json, ...requested, ...formats].filter((f) => f && typeof f === 'object');
  const said = all.map((f) => f[key]).filter((c): c is string => typeof c === 'string' && c !== '');
  if (said.some((c) => c !== 'none')) return true;
  if (key === 'vcodec' && all.some((f) => (num(f.width) ?? 0) > 0 && (num(f.height) ?? 0) > 0 && f.vcodec !== 'none')) return true;
  if (said.length === 0) return true;
  const listed = formats.length ? formats : [json];
  return !listed.every((f) => f?.[key] === 'none');
}

function bestSize(json: Json): { width: number; height: number } {
  const w = num(json.width);
  const h = num(json.height);
  if (w && h) return { width: w, height: h };
  let best = { width: 0, height: 0 };
  for (const f of (Array.isArray(json.formats) ? json.formats : []) as Json[]) {
    const fw = num(f?.width) ?? 0;
    const fh = num(f?.height) ?? 0;
    if (f?.vcodec !== 'none' && fw * fh > best.width * best.height) best = { width: fw, height: fh };
  }
  return best;
}

/** Maps yt-dlp's info JSON to SourceMetadata. Pure; unit-tested. */
export function mapYtDlpInfo(json: unknown, target: ResolveTarget): SourceMetadata {
  if (!json || typeof json !== 'object') throw invalidUrl('no_video');
  const j = json as Json;
  if (j._type === 'playlist' || j._type === 'multi_video') throw new DomainError('PLAYLIST_URL');
  const liveStatus = text(j.live_status);
  const isLive = j.is_live === true || liveStatus === 'is_live';
  const { width, height } = bestSize(j);
  const meta: SourceMetadata = {
    title: text(j.title) ?? text(j.fulltitle) ?? target.url,
    author: text(j.uploader) ?? text(j.channel) ?? text(j.creator) ?? text(j.uploader_id) ?? target.platform,
    platform: target.platform,
    duration: num(j.duration) ?? 0,
    width,
    height,
    hasVideo: hasTrack(j, 'vcodec'),
    hasAudio: hasTrack(j, 'acodec'),
    isLive,
    mediaUrl: httpUrl(j.webpage_url) ?? target.url,
  };
  const thumb = httpUrl(j.thumbnail);
  if (thumb) meta.thumbnailUrl = thumb;
  if (liveStatus === 'is_upcoming') {
    const ts = num(j.release_timestamp) ?? num(j.timestamp);
    meta.waiting = { reason: 'SOURCE_PREMIERE_SCHEDULED', ...(ts ? { until: new Date(ts * 1000) } : {}) };
  } else if (liveStatus === 'post_live') {
    meta.waiting = { reason: 'SOURCE_VOD_PROCESSING' };
  }
  return meta;
}

const UNITS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };

/** "This live event will begin in 3 hours." → now + 3 h; "in a few moments" → now. */
function announcedStart(message: string, now: Date): Date | undefined {
  const m = /\bin (\d+|an?|one) (second|minute|hour|day|week)s?\b/i.exec(message);
  if (m) {
    const n = /^\d+$/.test(m[1]) ? Number(m[1]) : 1;
    return new Date(now.getTime() + n * UNITS[m[2].toLowerCase()] * 1000);
  }
  if (/few moments|shortly|momentarily/i.test(message)) return now;
  return undefined;
}

export type YtDlpFailure = { kind: 'error'; error: DomainError } | { kind: 'waiting'; waiting: SourceWaiting };

/** Maps yt-dlp's stderr (its `ERROR:` lines) to a spec error or a waiting state. Pure; unit-tested. */
export function mapYtDlpError(stderr: string, now = new Date()): YtDlpFailure {
  const lines = stderr.split('\n').filter((l) => /^ERROR:/.test(l.trim()));
  const message = (lines.length ? lines.join('\n') : stderr).replace(/[\u2018\u2019]/g, "'");
  const has = (re: RegExp) => re.test(message);
  const error = (code: ErrorCode): YtDlpFailure => ({ kind: 'error', error: new DomainError(code) });

  if (has(/not a bot|captcha|too many requests|HTTP Error 429/i)) return error('PLATFORM_UNAVAILABLE');
  if (has(/confirm your age|age.?restricted|age verification|inappropriate for some users|age-gated/i)) return error('AGE_RESTRICTED');
  if (
    has(
      /not available in your country|not made this video available in your (country|location)|geo.?restrict|blocked it in your country|not available (from|in) your location|not available in your region/i,
    )
  ) {
    return error('REGION_BLOCKED');
  }
  if (has(/live event will begin|premieres? (in|will begin)|premiere will begin|scheduled to (start|begin)|upcoming live|is_upcoming|stream will begin/i)) {
    const until = announcedStart(message, now);
    return { kind: 'waiting', waiting: { reason: 'SOURCE_PREMIERE_SCHEDULED', ...(until ? { until } : {}) } };
  }
  if (has(/still being processed|being processed|processing this video/i)) return { kind: 'waiting', waiting: { reason: 'SOURCE_VOD_PROCESSING' } };
  if (
    has(
      /private video|video is private|is private\b|members.?only|join this channel|granted access|login required|log ?in to (view|access|watch)|need to log ?in|sign in to view|only available (for|to) (registered|subscribers|premium)|requires (a )?subscription/i,
    )
  ) {
    return error('PRIVATE_VIDEO');
  }
  if (
    has(
      /unable to download (webpage|api page|json)|urlopen error|timed out|connection (refused|reset|aborted)|name resolution|network is unreachable|HTTP Error 5\d\d|ssl:|certificate verify failed/i,
    ) &&
    !has(/HTTP Error 404|HTTP Error 410/i)
  ) {
    return error('PLATFORM_UNAVAILABLE');
  }
  return { kind: 'error', error: invalidUrl('no_video') };
}

export function ytDlpArgs(url: string, opts: { timeoutMs?: number; extraArgs?: string[] } = {}): string[] {
  const socketTimeout = Math.max(5, Math.floor((opts.timeoutMs ?? 60_000) / 2000));
  return ['-J', '--no-playlist', '--no-warnings', '--no-progress', '--socket-timeout', String(socketTimeout), ...(opts.extraArgs ?? []), '--', url];
}

export class YtDlpSourceResolver implements SourceResolver {
  readonly name = 'yt-dlp';

  constructor(private readonly opts: YtDlpResolverOptions) {}

  supports(platform: string): boolean {
    return platform !== 'direct' && isKnownPlatform(platform);
  }

  resolve(target: ResolveTarget, opts: ResolveOptions = {}): Promise<SourceMetadata> {
    const timeoutMs = this.opts.timeoutMs ?? 60_000;
    const args = ytDlpArgs(target.url, { timeoutMs, extraArgs: this.opts.extraArgs });
    return new Promise((resolve, reject) => {
      execFile(
        this.opts.binary,
        args,
        { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: MAX_JSON_BYTES, signal: opts.signal, encoding: 'utf8', windowsHide: true },
        (err, stdout, stderr) => {
          if (err) {
            const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
            if (e.name === 'AbortError') return reject(err);
            if (e.killed || e.signal === 'SIGKILL' || typeof e.code === 'string') {
              // timed out, or could not start (ENOENT, EACCES): the platform is out of reach, not the link's fault
              const unavailable = new DomainError('PLATFORM_UNAVAILABLE');
              unavailable.cause = err;
              return reject(unavailable);
            }
            const failure = mapYtDlpError(String(stderr ?? ''));
            if (failure.kind === 'waiting') return resolve(waitingMetadata(target, failure.waiting));
            failure.error.cause = new Error(
              String(stderr ?? '')
                .trim()
                .slice(0, 2000),
            );
            return reject(failure.error);
          }
          let json: unknown;
          try {
            json = JSON.parse(String(stdout).trim().split('\n').pop() ?? '');
          } catch {
            const bad = invalidUrl('no_video');
            bad.cause = new Error('yt-dlp printed no JSON');
            return reject(bad);
          }
          try {
            resolve(mapYtDlpInfo(json, target));
          } catch (mapErr) {
            reject(mapErr);
          }
        },
      );
    });
  }
}

/** What is known about a video that does not exist yet: its link and platform. */
function waitingMetadata(target: ResolveTarget, waiting: SourceWaiting): SourceMetadata {
  return {
    title: target.url,
    author: target.platform,
    platform: target.platform,
    duration: 0,
    width: 0,
    height: 0,
    hasVideo: true,
    hasAudio: true,
    isLive: false,
    mediaUrl: target.url,
    waiting,
  };
}
