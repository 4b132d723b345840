import type { Readable } from 'node:stream';
import { pitchFrames } from '../audio/features.js';
import { localMedia, type LocalMedia } from './container.js';
import { inputRangeArgs, localInputArgs, startFfmpeg, type FfmpegProgress, type InputRange } from './ffmpeg-run.js';
import { readFrames } from './frame-sampler.js';

/**
 * The voice's pitch per second (Hz, 0 where no voiced sound): the audio decoded to 8 kHz mono,
 * F0 every 50 ms by the autocorrelation tracker of src/adapters/audio/features.ts (40 ms frames,
 * 60–400 Hz), each second the median of its voiced frames (at least 3 of its 20, else 0). What the
 * punch-in reads for emphasis besides loudness (src/domain/reframe/punch-in.ts). Index = second from
 * the start of the input (or of `range`); a last partial second counts as unvoiced.
 */

export const PITCH_SAMPLE_RATE = 8000;
const HOP = PITCH_SAMPLE_RATE / 20;
const MARGIN = HOP / 2;

export interface PitchOptions {
  range?: InputRange;
  durationSeconds?: number;
  onProgress?: (p: FfmpegProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The ffmpeg arguments (after the global flags) that write the first audio stream as 8 kHz mono s16le to stdout (pure). */
export function pitchArgs(input: LocalMedia, range?: InputRange): string[] {
  return [
    ...localInputArgs(input, inputRangeArgs(range)),
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    String(PITCH_SAMPLE_RATE),
    '-f',
    's16le',
    'pipe:1',
  ];
}

/** The median voiced F0 of one second's 20 frames, rounded to a hertz; 0 with fewer than 3 voiced (pure). */
export function secondPitch(f0: ArrayLike<number>): number {
  const voiced = Array.from(f0)
    .filter((v) => v > 0)
    .sort((a, b) => a - b);
  if (voiced.length < 3) return 0;
  const m = voiced.length >> 1;
  return Math.round(voiced.length % 2 ? voiced[m] : (voiced[m - 1] + voiced[m]) / 2);
}

/**
 * The pitch of each second from its samples and its neighbours' (for the frames at its edges; absent
 * at the ends: silence) (pure).
 */
export function pitchOfSecond(prev: Float32Array | null, cur: Float32Array, next: Float32Array | null): number {
  const slice = new Float32Array(cur.length + 2 * MARGIN);
  if (prev) slice.set(prev.subarray(prev.length - MARGIN), 0);
  slice.set(cur, MARGIN);
  if (next) slice.set(next.subarray(0, MARGIN), MARGIN + cur.length);
  // Frame f centred at MARGIN + f * HOP of the slice: f * HOP of the second.
  return secondPitch(pitchFrames(slice, PITCH_SAMPLE_RATE, Math.floor(cur.length / HOP), HOP, 2 * MARGIN));
}

function toFloat(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.length >> 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(2 * i, true) / 32768;
  return out;
}

/** Measures the pitch per second of a local file's first audio stream (see the module's comment). */
export async function measurePitch(input: string, opts: PitchOptions = {}): Promise<number[]> {
  const proc = startFfmpeg(pitchArgs(localMedia(input), opts.range), {
    stdout: 'pipe',
    logLevel: 'error',
    durationSeconds: opts.durationSeconds,
    onProgress: opts.onProgress,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
  });
  const out: number[] = [];
  let finished = false;
  try {
    let prev: Float32Array | null = null;
    let cur: Float32Array | null = null;
    if (proc.stdout) {
      for await (const bytes of readFrames(proc.stdout as Readable, PITCH_SAMPLE_RATE * 2)) {
        const next = toFloat(bytes);
        if (cur) out.push(pitchOfSecond(prev, cur, next));
        prev = cur;
        cur = next;
      }
    }
    if (cur) out.push(pitchOfSecond(prev, cur, null));
    await proc.done;
    finished = true;
  } finally {
    if (!finished) proc.kill();
  }
  if (opts.durationSeconds !== undefined) while (out.length < Math.ceil(opts.durationSeconds - 1e-6)) out.push(0);
  return out;
}
