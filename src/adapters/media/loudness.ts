import { localMedia, type LocalMedia } from './container.js';
import { inputRangeArgs, localInputArgs, runFfmpeg, type FfmpegProgress, type InputRange } from './ffmpeg-run.js';

/**
 * Loudness per second, in LUFS. ffmpeg's `ebur128` filter logs, every 100 ms, the momentary loudness
 * `M` (K-weighted, 400 ms window) and the short-term `S` (3 s window). Each second's value is the
 * energy mean of the momentary values of the blocks ending inside it, floored at -70 LUFS (the
 * R128 absolute gate: anything quieter is silence). Index = second from the start.
 */

export const SILENCE_LUFS = -70;

export interface LoudnessBlock {
  /** End of the 100 ms block, seconds. */
  t: number;
  momentary: number;
  shortTerm: number;
}

export interface LoudnessOptions {
  /** Only this stretch of the input is measured; index 0 is then its first second. */
  range?: InputRange;
  durationSeconds?: number;
  onProgress?: (p: FfmpegProgress) => void;
  /** Each 100 ms block as it is measured (the analysis finds voice stretches in them). */
  onBlock?: (b: LoudnessBlock) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The ffmpeg arguments (after the global flags) for loudness measurement (pure). */
export function loudnessArgs(input: LocalMedia, range?: InputRange): string[] {
  return [...localInputArgs(input, inputRangeArgs(range)), '-map', '0:a:0', '-vn', '-sn', '-dn', '-af', 'ebur128=framelog=info', '-f', 'null', '-'];
}

const EBUR128 = /\[Parsed_ebur128_\d+ @ [^\]]+\]\s+t:\s*([\d.]+)\s+.*?\bM:\s*(-?[\d.]+|-?inf|nan)\s+S:\s*(-?[\d.]+|-?inf|nan)/i;

function lufs(v: string): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : SILENCE_LUFS * 2;
}

/** One ebur128 frame-log line, or null for any other line, the summary included (pure). */
export function parseEbur128Line(line: string): LoudnessBlock | null {
  const m = EBUR128.exec(line);
  if (!m) return null;
  const t = Number(m[1]);
  if (!Number.isFinite(t)) return null;
  return { t, momentary: lufs(m[2]), shortTerm: lufs(m[3]) };
}

/**
 * Per-second loudness from 100 ms blocks (pure). A block ending at `t` belongs to second
 * `floor(t - 0.05)`. With `durationSeconds`, the array has `ceil(durationSeconds)` entries and
 * seconds without a block are silence.
 */
export function loudnessPerSecond(blocks: LoudnessBlock[], durationSeconds?: number): number[] {
  const energy: number[] = [];
  const count: number[] = [];
  for (const b of blocks) {
    const s = Math.max(0, Math.floor(b.t - 0.05 + 1e-9));
    const m = Math.max(SILENCE_LUFS, b.momentary);
    energy[s] = (energy[s] ?? 0) + 10 ** (m / 10);
    count[s] = (count[s] ?? 0) + 1;
  }
  const len = durationSeconds !== undefined ? Math.max(0, Math.ceil(durationSeconds - 1e-6)) : energy.length;
  const out: number[] = [];
  for (let s = 0; s < len; s++) {
    const n = count[s] ?? 0;
    if (n === 0) {
      out.push(SILENCE_LUFS);
      continue;
    }
    const v = 10 * Math.log10(energy[s] / n);
    out.push(Math.round(Math.max(SILENCE_LUFS, v) * 10) / 10);
  }
  return out;
}

/** Parses the whole stderr text of an ebur128 run (pure). */
export function parseLoudness(stderr: string, durationSeconds?: number): number[] {
  const blocks: LoudnessBlock[] = [];
  for (const line of stderr.split(/\r\n|\r|\n/)) {
    const b = parseEbur128Line(line);
    if (b) blocks.push(b);
  }
  return loudnessPerSecond(blocks, durationSeconds);
}

/** Measures loudness per second of a local file's first audio stream. */
export async function measureLoudness(input: string, opts: LoudnessOptions = {}): Promise<number[]> {
  const blocks: LoudnessBlock[] = [];
  await runFfmpeg(loudnessArgs(localMedia(input), opts.range), {
    logLevel: 'info',
    durationSeconds: opts.durationSeconds,
    onProgress: opts.onProgress,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    onStderrLine: (line) => {
      const b = parseEbur128Line(line);
      if (b) {
        blocks.push(b);
        opts.onBlock?.(b);
      }
    },
  });
  return loudnessPerSecond(blocks, opts.durationSeconds);
}
