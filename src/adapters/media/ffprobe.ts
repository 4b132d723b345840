import { execFile } from 'node:child_process';
import path from 'node:path';
import type { MediaInfo, MediaProbe, ProbeOptions } from '../../ports/media.js';
import { ffprobePath } from './binaries.js';
import { CONTAINERS, sniffFile } from './container.js';

/** ffprobe could not read the input (not media, unreachable, timed out). `detail` is ffprobe's stderr. */
export class ProbeError extends Error {
  constructor(
    message: string,
    readonly detail = '',
  ) {
    super(message);
    this.name = 'ProbeError';
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/**
 * Protocols ffprobe may open. A URL input is only ever the service's loopback relay (plain http);
 * a local input only its own file. With the demuxer forced (`-f`), nothing opens a second input.
 */
const URL_PROTOCOLS = 'http,tcp';
const FILE_PROTOCOLS = 'file';

type Json = Record<string, unknown>;

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && v !== 'N/A') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function lowerKeys(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (tags && typeof tags === 'object') {
    for (const [k, v] of Object.entries(tags as Json)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  }
  return out;
}

function rate(v: unknown): number | undefined {
  const s = str(v);
  if (!s) return undefined;
  const [a, b] = s.split('/').map(Number);
  if (!Number.isFinite(a) || !Number.isFinite(b ?? 1) || a <= 0) return undefined;
  const r = b === undefined ? a : b > 0 ? a / b : undefined;
  return r === undefined ? undefined : Math.round(r * 1000) / 1000;
}

/** Clockwise display rotation: the `rotate` tag (older muxers) or the display matrix side data (ffmpeg ≥ 5). */
export function streamRotation(stream: Json): number {
  let deg: number | undefined;
  const tag = num(lowerKeys(stream.tags).rotate);
  if (tag !== undefined) deg = tag;
  else if (Array.isArray(stream.side_data_list)) {
    for (const sd of stream.side_data_list as Json[]) {
      const r = num(sd?.rotation);
      // The display matrix angle is counter-clockwise: -90 there is the `rotate=90` of older files.
      if (r !== undefined) {
        deg = -r;
        break;
      }
    }
  }
  if (deg === undefined) return 0;
  const n = (((Math.round(deg / 90) * 90) % 360) + 360) % 360;
  return n;
}

function isCoverArt(stream: Json): boolean {
  const d = stream.disposition as Json | undefined;
  return d?.attached_pic === 1 || d?.attached_pic === '1';
}

/**
 * Maps ffprobe's `-show_format -show_streams` JSON to MediaInfo. Pure; unit-tested.
 * Cover art (an attached picture in an audio file) does not count as video; width and height are
 * the display size, swapped for a 90°/270° rotation.
 */
export function parseProbeOutput(data: unknown): MediaInfo {
  if (!data || typeof data !== 'object') throw new ProbeError('ffprobe printed no JSON object');
  const root = data as Json;
  const format = (root.format ?? {}) as Json;
  const streams = (Array.isArray(root.streams) ? root.streams : []) as Json[];
  if (!root.format && streams.length === 0) throw new ProbeError('ffprobe found no format and no streams');

  const video =
    streams.find((s) => s.codec_type === 'video' && !isCoverArt(s) && (num(s.width) ?? 0) > 0) ??
    streams.find((s) => s.codec_type === 'video' && !isCoverArt(s));
  const audio = streams.find((s) => s.codec_type === 'audio');

  const rotation = video ? streamRotation(video) : 0;
  let width = video ? (num(video.width) ?? 0) : 0;
  let height = video ? (num(video.height) ?? 0) : 0;
  if (rotation === 90 || rotation === 270) [width, height] = [height, width];

  let duration = num(format.duration);
  if (duration === undefined) {
    const durations = streams.map((s) => num(s.duration)).filter((d): d is number => d !== undefined);
    duration = durations.length ? Math.max(...durations) : 0;
  }

  const tags = lowerKeys(format.tags);
  const info: MediaInfo = {
    duration: Math.max(0, duration),
    width,
    height,
    hasVideo: !!video,
    hasAudio: !!audio,
    videoCodec: video ? (str(video.codec_name) ?? null) : null,
    audioCodec: audio ? (str(audio.codec_name) ?? null) : null,
    rotation,
    formatName: str(format.format_name) ?? '',
  };
  const fps = video ? (rate(video.avg_frame_rate) ?? rate(video.r_frame_rate)) : undefined;
  if (fps !== undefined) info.fps = fps;
  const title = str(tags.title);
  if (title) info.title = title;
  const artist = str(tags.artist) ?? str(tags.author) ?? str(tags.album_artist);
  if (artist) info.artist = artist;
  const size = num(format.size);
  if (size !== undefined) info.sizeBytes = size;
  const bitRate = num(format.bit_rate);
  if (bitRate !== undefined) info.bitRate = bitRate;
  return info;
}

function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

/**
 * The ffprobe command line for `input` read with the demuxer `format` (pure; unit-tested). The demuxer
 * is always named: ffprobe never guesses it from the bytes, so it never opens a playlist.
 */
export function probeArgs(input: string, opts: { timeoutMs?: number; format: string }): string[] {
  if (!(CONTAINERS as readonly string[]).includes(opts.format)) throw new ProbeError(`unsupported container ${opts.format}`);
  const args = ['-hide_banner', '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams'];
  if (isUrl(input)) {
    const ioTimeoutUs = Math.max(1, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) * 1000;
    args.push('-protocol_whitelist', URL_PROTOCOLS, '-rw_timeout', String(ioTimeoutUs), '-user_agent', 'Cutroom/1.0', '-f', opts.format, '-i', input);
  } else {
    args.push('-protocol_whitelist', FILE_PROTOCOLS, '-f', opts.format, '-i', `file:${path.resolve(input)}`);
  }
  return args;
}

/** The demuxer for `input`: sniffed from a local file's bytes, else the caller's `format` (URLs). */
function formatFor(input: string, opts: ProbeOptions): string {
  if (!isUrl(input)) {
    let sniffed: string | null;
    try {
      sniffed = sniffFile(input);
    } catch (err) {
      throw new ProbeError(`cannot read ${input}: ${(err as Error).message}`);
    }
    if (!sniffed) throw new ProbeError('not a media container the service reads');
    return sniffed;
  }
  if (!opts.format) throw new ProbeError('a URL input needs the demuxer named (ProbeOptions.format)');
  return opts.format;
}

/**
 * Runs ffprobe on a local path or an http(s) URL and parses its JSON. The only URLs given to it are
 * the service's loopback relay (src/adapters/net/safe-relay.ts), with the demuxer sniffed by the caller.
 */
export async function probe(input: string, opts: ProbeOptions = {}): Promise<MediaInfo> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const format = formatFor(input, opts);
  const args = probeArgs(input, { timeoutMs, format });
  const binary = ffprobePath();
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { env: process.env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: MAX_OUTPUT_BYTES, signal: opts.signal, encoding: 'utf8', windowsHide: true },
      (err, stdout, stderr) => {
        const detail = String(stderr ?? '')
          .trim()
          .slice(0, 2000);
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
          if (e.name === 'AbortError') return reject(err);
          if (e.killed || e.signal === 'SIGKILL') return reject(new ProbeError(`ffprobe timed out after ${timeoutMs} ms`, detail));
          return reject(new ProbeError(`ffprobe failed: ${detail.split('\n')[0] || e.message}`, detail));
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(stdout);
        } catch {
          return reject(new ProbeError('ffprobe printed invalid JSON', detail));
        }
        try {
          resolve({ ...parseProbeOutput(parsed), container: format });
        } catch (parseErr) {
          reject(parseErr);
        }
      },
    );
  });
}

export class FfprobeMediaProbe implements MediaProbe {
  constructor(private readonly defaults: ProbeOptions = {}) {}

  probe(input: string, opts: ProbeOptions = {}): Promise<MediaInfo> {
    return probe(input, { ...this.defaults, ...opts });
  }
}
