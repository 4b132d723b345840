import type { Readable } from 'node:stream';
import type { RgbFrame } from '../../ports/face-detector.js';
import { localMedia, type LocalMedia } from './container.js';
import { inputRangeArgs, localInputArgs, startFfmpeg, type FfmpegProgress, type InputRange } from './ffmpeg-run.js';
import { normalizeCuts, parseShowinfoTime, sceneFilter } from './scene-detect.js';

/**
 * Decoded frames at a fixed rate, downscaled, as raw rgb24 read from ffmpeg's stdout one frame at a
 * time. At most `prefetch` frames wait in memory: a slow consumer (the face detector) slows ffmpeg
 * down through the pipe instead of filling memory, while ffmpeg can still decode a few seconds ahead.
 *
 * With `scenes`, the same ffmpeg process also runs the scene-cut filter on a split of the decoded
 * video (one decode instead of two) and reports the cuts when the pass ends.
 */

export interface SampledFrame extends RgbFrame {
  /** Index of the sample, from 0. */
  index: number;
  /** Time of the sample in the source, seconds (`index / fps`). */
  t: number;
}

export interface FrameSamplerOptions {
  /** Samples per second. Default 1. */
  fps?: number;
  /** Source display size (from the probe), to compute the output size. */
  sourceWidth: number;
  sourceHeight: number;
  /** Output width cap. Default 320 (never upscaled). */
  maxWidth?: number;
  /** Frames decoded ahead of the consumer. Default 4. */
  prefetch?: number;
  /** Also detect scene cuts in this pass; `onCuts` gets them (sorted, merged) after ffmpeg exits. */
  scenes?: { threshold?: number; minGapSeconds?: number; onCuts: (cuts: number[]) => void };
  /** Only this stretch of the input is read; sample times (and cuts) then count from its start. */
  range?: InputRange;
  durationSeconds?: number;
  onProgress?: (p: FfmpegProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

/** Output size: at most `maxWidth` wide, aspect kept, both sides even (pure). */
export function sampleSize(sourceWidth: number, sourceHeight: number, maxWidth = 320): { width: number; height: number } {
  if (!(sourceWidth > 0 && sourceHeight > 0)) throw new RangeError('source size must be positive');
  const width = even(Math.min(maxWidth, sourceWidth));
  const height = even((width * sourceHeight) / sourceWidth);
  return { width, height };
}

/**
 * The ffmpeg arguments (after the global flags) that write rgb24 frames to stdout, and with `scenes`
 * a second output that logs scene cuts from the same decode (pure).
 */
export function frameSamplerArgs(
  input: LocalMedia,
  opts: { fps: number; width: number; height: number; scenes?: { threshold?: number }; range?: InputRange },
): string[] {
  if (!(opts.fps > 0 && opts.fps <= 60)) throw new RangeError('fps must be in (0, 60]');
  const frames = `fps=${opts.fps},scale=${opts.width}:${opts.height}:flags=bilinear,setsar=1`;
  const raw = ['-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'];
  const inputArgs = localInputArgs(input, inputRangeArgs(opts.range));
  if (!opts.scenes) return [...inputArgs, '-map', '0:v:0', '-an', '-sn', '-dn', '-vf', frames, ...raw];
  return [
    ...inputArgs,
    '-filter_complex',
    `[0:v:0]split=2[fr][sc];[fr]${frames}[frames];[sc]${sceneFilter({ threshold: opts.scenes.threshold })}[cuts]`,
    '-map',
    '[frames]',
    ...raw,
    '-map',
    '[cuts]',
    '-f',
    'null',
    '-',
  ];
}

/**
 * Keeps up to `size` items of an async iterator requested ahead of the consumer, so the producer
 * keeps working while the consumer is busy. Order and errors are kept.
 */
export async function* prefetch<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  const queue: Array<Promise<IteratorResult<T>>> = [];
  const request = () => {
    const p = it.next();
    p.catch(() => {}); // awaited in order below; this only keeps it from counting as unhandled meanwhile
    queue.push(p);
  };
  try {
    for (;;) {
      while (queue.length < Math.max(1, size)) request();
      const r = await queue.shift()!;
      if (r.done) return;
      yield r.value;
    }
  } finally {
    await it.return?.();
  }
}

/**
 * Cuts a byte stream into frames of exactly `frameBytes` (pure apart from reading the stream). A
 * trailing partial frame is dropped. Each yielded buffer is a fresh copy the caller may keep.
 */
export async function* readFrames(stream: AsyncIterable<Buffer | Uint8Array>, frameBytes: number): AsyncGenerator<Uint8Array> {
  if (!(frameBytes > 0)) throw new RangeError('frameBytes must be positive');
  let frame = new Uint8Array(frameBytes);
  let filled = 0;
  for await (const chunk of stream) {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(frameBytes - filled, chunk.length - offset);
      frame.set(chunk.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === frameBytes) {
        yield frame;
        frame = new Uint8Array(frameBytes);
        filled = 0;
      }
    }
  }
}

/**
 * Streams sampled frames of a local video. Breaking out of the loop kills ffmpeg; an ffmpeg failure
 * is thrown after the frames that were decoded.
 */
export async function* sampleFrames(input: string, opts: FrameSamplerOptions): AsyncGenerator<SampledFrame> {
  const fps = opts.fps ?? 1;
  const { width, height } = sampleSize(opts.sourceWidth, opts.sourceHeight, opts.maxWidth ?? 320);
  const cuts: number[] = [];
  const proc = startFfmpeg(frameSamplerArgs(localMedia(input), { fps, width, height, scenes: opts.scenes, range: opts.range }), {
    stdout: 'pipe',
    // showinfo logs at the info level.
    logLevel: opts.scenes ? 'info' : 'error',
    onStderrLine: opts.scenes
      ? (line) => {
          const t = parseShowinfoTime(line);
          if (t !== null) cuts.push(t);
        }
      : undefined,
    durationSeconds: opts.durationSeconds,
    onProgress: opts.onProgress,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
  });
  let finished = false;
  try {
    let index = 0;
    if (proc.stdout) {
      for await (const data of prefetch(readFrames(proc.stdout as Readable, width * height * 3), opts.prefetch ?? 4)) {
        yield { index, t: Math.round((index / fps) * 1000) / 1000, width, height, data };
        index++;
      }
    }
    await proc.done;
    finished = true;
    opts.scenes?.onCuts(normalizeCuts(cuts, opts.scenes.minGapSeconds ?? 0.5));
  } finally {
    if (!finished) proc.kill();
  }
}
