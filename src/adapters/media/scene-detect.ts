import { localMedia, type LocalMedia } from './container.js';
import { inputRangeArgs, localInputArgs, runFfmpeg, type FfmpegProgress, type InputRange } from './ffmpeg-run.js';

/**
 * Scene cuts: ffmpeg's `select='gt(scene,T)'` keeps the frames whose scene-change score (difference
 * to the previous frame, 0..1) passes the threshold and `showinfo` logs their `pts_time`. The shipped
 * static ffmpeg (2018) has no `scdet` filter; this works on it and on current builds alike.
 * Frames are scaled down first: the score barely changes and decoding stays the main cost.
 */

export interface SceneDetectOptions {
  /** Scene score threshold 0..1. Default 0.3. */
  threshold?: number;
  /** Width the frames are scaled to before scoring. Default 160. */
  width?: number;
  /** Cuts closer than this to the previous one are dropped (flashes, fades). Default 0.5 s. */
  minGapSeconds?: number;
  /** Only this stretch of the input is read; cut times then count from its start. */
  range?: InputRange;
  durationSeconds?: number;
  onProgress?: (p: FfmpegProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The filter chain that logs scene cuts (pure). Also used by the frame sampler's combined pass. */
export function sceneFilter(opts: { threshold?: number; width?: number } = {}): string {
  const threshold = opts.threshold ?? 0.3;
  const width = opts.width ?? 160;
  if (!(threshold > 0 && threshold < 1)) throw new RangeError('scene threshold must be between 0 and 1');
  if (!Number.isInteger(width) || width < 16) throw new RangeError('scene width must be an integer >= 16');
  return `scale=${width}:-2:flags=fast_bilinear,select='gt(scene,${threshold})',showinfo`;
}

/** The ffmpeg arguments (after the global flags) for scene detection on its own (pure). */
export function sceneDetectArgs(input: LocalMedia, opts: { threshold?: number; width?: number; range?: InputRange } = {}): string[] {
  return [...localInputArgs(input, inputRangeArgs(opts.range)), '-map', '0:v:0', '-an', '-sn', '-dn', '-vf', sceneFilter(opts), '-f', 'null', '-'];
}

const SHOWINFO = /\[Parsed_showinfo_\d+ @ [^\]]+\]\s+n:\s*\d+\s+pts:\s*-?\d+\s+pts_time:\s*(-?[\d.]+(?:e[-+]?\d+)?)/i;

/** The `pts_time` of one showinfo frame line, or null for any other line (pure). */
export function parseShowinfoTime(line: string): number | null {
  const m = SHOWINFO.exec(line);
  if (!m) return null;
  const t = Number(m[1]);
  return Number.isFinite(t) ? t : null;
}

/** Cut times (seconds, ascending, 3 decimals) from ffmpeg's stderr text (pure). */
export function parseSceneCuts(stderr: string): number[] {
  const out: number[] = [];
  for (const line of stderr.split(/\r\n|\r|\n/)) {
    const t = parseShowinfoTime(line);
    if (t !== null) out.push(t);
  }
  return normalizeCuts(out);
}

/**
 * Sorts, rounds to milliseconds, drops cuts at or before `minStart` (the first frame is not a cut) and
 * cuts closer than `minGapSeconds` to the previous kept one (pure).
 */
export function normalizeCuts(times: number[], minGapSeconds = 0, minStart = 0.001): number[] {
  const sorted = times
    .filter((t) => Number.isFinite(t) && t > minStart)
    .map((t) => Math.round(t * 1000) / 1000)
    .sort((a, b) => a - b);
  const out: number[] = [];
  for (const t of sorted) {
    const prev = out[out.length - 1];
    if (prev !== undefined && t - prev < Math.max(minGapSeconds, 0.001)) continue;
    out.push(t);
  }
  return out;
}

/** Runs scene detection on a local file; returns cut times in seconds. */
export async function detectSceneCuts(input: string, opts: SceneDetectOptions = {}): Promise<number[]> {
  const times: number[] = [];
  await runFfmpeg(sceneDetectArgs(localMedia(input), opts), {
    logLevel: 'info',
    durationSeconds: opts.durationSeconds,
    onProgress: opts.onProgress,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    onStderrLine: (line) => {
      const t = parseShowinfoTime(line);
      if (t !== null) times.push(t);
    },
  });
  return normalizeCuts(times, opts.minGapSeconds ?? 0.5);
}
