import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AsrError, type AsrEngine, type AsrResult, type AsrTranscribeOptions } from '../../ports/asr.js';
import { shiftResult } from './asr-result.js';
import { normalizeLanguage } from './languages.js';
import { assertAsrWav, frameLevels, readWavInfo, WavFormatError, writeWavSlice, type WavInfo } from './wav.js';

/**
 * Long audio is cut at silences into chunks, each chunk transcribed on its own (a few at a time),
 * and the results stitched back with absolute times. Keeps every request small (servers cap uploads
 * at ~25 MB, about 13 minutes of 16 kHz WAV) and lets the embedded engine use several cores.
 */

export interface ChunkingOptions {
  /** No chunk is longer than this. Default 120 s. */
  maxChunkSeconds?: number;
  /** No cut before this many seconds into a chunk. Default 60 s (clamped to maxChunkSeconds). */
  minChunkSeconds?: number;
  /** Among equally quiet places, the cut nearest to this length wins. Default 90 s. */
  targetChunkSeconds?: number;
  /** Loudness is averaged over this window before looking for the quietest place. Default 0.5 s. */
  smoothSeconds?: number;
  /** Levels below this (dBFS) all count as the same silence. Default -60. */
  silenceFloorDb?: number;
}

export interface ChunkSpan {
  start: number;
  end: number;
}

/**
 * Plans the chunks of an audio whose loudness is `levels` (dBFS, one value per `frameSeconds`) (pure).
 * Each cut is at the quietest place (smoothed loudness) between min and max chunk length from the
 * previous cut, ties going to the place nearest the target length. Chunks are contiguous and cover
 * [0, levels.length * frameSeconds].
 */
export function planChunks(levels: ArrayLike<number>, frameSeconds: number, opts: ChunkingOptions = {}): ChunkSpan[] {
  const n = levels.length;
  const total = n * frameSeconds;
  const max = opts.maxChunkSeconds ?? 120;
  if (!(max > 0)) throw new RangeError('maxChunkSeconds must be > 0');
  const min = Math.min(opts.minChunkSeconds ?? 60, max);
  const target = Math.min(Math.max(opts.targetChunkSeconds ?? 90, min), max);
  const floor = opts.silenceFloorDb ?? -60;
  const half = Math.max(0, Math.round((opts.smoothSeconds ?? 0.5) / frameSeconds / 2));
  if (total <= max) return [{ start: 0, end: total }];

  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + Math.max(floor, levels[i]);
  const smooth = (f: number) => {
    const a = Math.max(0, f - half);
    const b = Math.min(n, f + half + 1);
    return (prefix[b] - prefix[a]) / (b - a);
  };

  const toFrame = (s: number) => Math.round(s / frameSeconds);
  const cuts: number[] = [0];
  let pos = 0;
  while ((n - pos) * frameSeconds > max) {
    const lo = pos + Math.max(1, toFrame(min));
    const hi = Math.min(n - 1, pos + toFrame(max));
    const aim = pos + toFrame(target);
    const span = Math.max(1, hi - lo);
    let best = hi;
    let bestScore = Infinity;
    for (let f = lo; f <= hi; f++) {
      // Up to 3 dB for being far from the target: a real silence beats loud speech anywhere in the window.
      const score = smooth(f) + (3 * Math.abs(f - aim)) / span;
      if (score < bestScore) {
        bestScore = score;
        best = f;
      }
    }
    cuts.push(best);
    pos = best;
  }
  const spans: ChunkSpan[] = [];
  for (let i = 0; i < cuts.length; i++) {
    const start = cuts[i] * frameSeconds;
    const end = i + 1 < cuts.length ? cuts[i + 1] * frameSeconds : total;
    spans.push({ start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000 });
  }
  return spans;
}

/** Runs `fn` over `items` with at most `limit` at once; stops starting new ones after a failure. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: { err: unknown } | undefined;
  const worker = async () => {
    while (!failed && next < items.length) {
      if (signal?.aborted) {
        failed ??= { err: signal.reason ?? new DOMException('aborted', 'AbortError') };
        break;
      }
      const i = next++;
      try {
        results[i] = await fn(items[i], i);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failed.err;
  return results;
}

export interface TranscribeLongOptions extends AsrTranscribeOptions, ChunkingOptions {
  /** Chunks transcribed at once. Default 2. */
  concurrency?: number;
  /** Where chunk files go (a temporary folder inside it, removed afterwards). Default: the OS temp dir. */
  tmpDir?: string;
}

/** Stitches chunk results (already in absolute time) into one (pure). */
export function stitchResults(parts: AsrResult[], language?: string): AsrResult {
  const segments = parts.flatMap((p) => p.segments);
  const detected = language ?? parts.find((p) => p.segments.length)?.language ?? parts[0]?.language ?? 'en';
  return { language: detected, segments, words: segments.flatMap((s) => s.words) };
}

/**
 * Transcribes a 16 kHz mono WAV of any length with `engine`: short files go straight through, long
 * ones are cut with planChunks. Without a language, the first chunk is transcribed first and the
 * language it finds is used for the others, so every chunk is read in the same language.
 */
export async function transcribeLong(engine: AsrEngine, wavPath: string, opts: TranscribeLongOptions = {}): Promise<AsrResult> {
  let info: WavInfo;
  try {
    info = await readWavInfo(wavPath);
    assertAsrWav(info);
  } catch (err) {
    if (err instanceof WavFormatError) throw new AsrError('ASR_BAD_AUDIO', `${path.basename(wavPath)}: ${err.message}`);
    throw err;
  }
  const max = opts.maxChunkSeconds ?? 120;
  if (info.duration <= max) return engine.transcribe(wavPath, { language: opts.language, signal: opts.signal });

  const frameSeconds = 0.01;
  const spans = planChunks(await frameLevels(wavPath, info, frameSeconds), frameSeconds, opts);
  const dir = await fs.mkdtemp(path.join(opts.tmpDir ?? os.tmpdir(), 'cutroom-asr-'));
  try {
    const rate = info.sampleRate;
    const run = async (span: ChunkSpan, i: number, language: string | undefined): Promise<AsrResult> => {
      const startFrame = Math.round(span.start * rate);
      const file = path.join(dir, `chunk-${String(i).padStart(4, '0')}.wav`);
      await writeWavSlice(wavPath, info, startFrame, Math.round(span.end * rate), file);
      try {
        const r = await engine.transcribe(file, { language, signal: opts.signal });
        return shiftResult(r, startFrame / rate);
      } finally {
        await fs.rm(file, { force: true });
      }
    };
    let language = normalizeLanguage(opts.language);
    const results: AsrResult[] = [];
    let rest = spans.map((s, i) => ({ s, i }));
    if (language === undefined) {
      const first = await run(spans[0], 0, undefined);
      results.push(first);
      if (first.segments.length) language = first.language;
      rest = rest.slice(1);
    }
    const others = await mapLimit(rest, opts.concurrency ?? 2, ({ s, i }) => run(s, i, language), opts.signal);
    return stitchResults([...results, ...others], language);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The same engine, transcribing through transcribeLong. */
export function withChunking(engine: AsrEngine, defaults: Omit<TranscribeLongOptions, 'language' | 'signal'> = {}): AsrEngine {
  return {
    name: engine.name,
    supportsLanguage: (lang) => engine.supportsLanguage(lang),
    transcribe: (wavPath, opts) => transcribeLong(engine, wavPath, { ...defaults, ...opts }),
  };
}
