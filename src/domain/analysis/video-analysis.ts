import { DomainError } from '../errors.js';
import type { FaceBox, FaceDetector, RgbFrame } from '../../ports/face-detector.js';
import type { MediaInfo } from '../../ports/media.js';
import { computeCropPath, type Keyframe } from '../reframe/crop-path.js';
import { screenStats } from '../reframe/shots.js';

/**
 * The `video_analysis` stage: what renders need to reframe, and signals the highlight scorer uses.
 * Scene cuts and loudness come from ffmpeg filters; faces from a FaceDetector on frames sampled at
 * `fps`; the 9:16 crop path is computed from both. The result is plain JSON, stored with the video.
 */

export const SILENCE_LUFS = -70;

export interface StageOptions {
  /** Only this stretch of the input (seconds) is read; results then count from its start. */
  range?: { start: number; end: number };
  /** Seconds read: the range's length, else the input's duration. */
  durationSeconds: number;
  onProgress?: (p: { fraction: number }) => void;
  signal?: AbortSignal;
}

export interface ScenePassOptions {
  threshold?: number;
  minGapSeconds?: number;
  onCuts: (cuts: number[]) => void;
}

/** What the stage needs; src/adapters/media and src/adapters/faces provide each function. */
export interface VideoAnalysisDeps {
  probe(input: string, opts?: { signal?: AbortSignal }): Promise<Pick<MediaInfo, 'duration' | 'width' | 'height' | 'hasVideo' | 'hasAudio'>>;
  detectSceneCuts(input: string, opts: StageOptions): Promise<number[]>;
  measureLoudness(input: string, opts: StageOptions): Promise<number[]>;
  /** With `scenes`, the same pass also finds scene cuts and hands them to `onCuts` when it ends. */
  sampleFrames(
    input: string,
    opts: StageOptions & { fps: number; sourceWidth: number; sourceHeight: number; scenes?: ScenePassOptions },
  ): AsyncIterable<RgbFrame & { t: number }>;
  faceDetector: FaceDetector;
}

/** The stage's media passes without the face detector (which the pipeline loads on first use): src/adapters/media/analysis-passes.ts. */
export type VideoAnalysisPasses = Omit<VideoAnalysisDeps, 'faceDetector'>;

export interface AnalyzeOptions {
  /** Face samples per second (at least 1 is advised). Default 1. */
  fps?: number;
  /** Overall progress 0..1 and the stage that moved it. */
  onProgress?: (fraction: number, stage: 'scenes' | 'loudness' | 'faces') => void;
  signal?: AbortSignal;
  /** Runs the loudness (and a separate scene) pass while faces are detected. Default true. */
  concurrent?: boolean;
  /**
   * `combined` (default) finds scene cuts in the frame sampler's ffmpeg process, decoding the video
   * once; `separate` runs detectSceneCuts as its own pass.
   */
  scenePass?: 'combined' | 'separate';
  /**
   * Analyse only [start, end) of the input (the paid stretch, never past the measured duration): every
   * pass reads just that (ffmpeg `-ss`/`-t`), and the answer is in the stretch's timeline (0 = `start`;
   * `toSourceTimeline` moves it to the source's). Default: the whole input.
   */
  range?: { start: number; end: number };
}

export interface FaceTrackSample {
  t: number;
  boxes: FaceBox[];
  /** The frame's flatness and its motion since the previous sample (screenStats, src/domain/reframe/shots.ts); absent on older analyses. */
  flat?: number;
  motion?: number;
}

export interface VideoAnalysis {
  /** Seconds. */
  duration: number;
  /** Source display size in pixels. */
  width: number;
  height: number;
  /** Scene cut times, seconds ascending. */
  sceneCuts: number[];
  /** Loudness in LUFS per second (index = second), -70 is silence; all -70 without an audio track. */
  loudness: number[];
  /** Face boxes per sample (normalised 0..1), one entry per sampled frame, faces or not. */
  faces: FaceTrackSample[];
  /** Crop keyframes for 9:16 in source pixels (see src/domain/reframe/crop-path.ts). */
  cropPath9x16: Keyframe[];
  /** Samples per second used for faces. */
  fps: number;
  /** The face engine and backend that produced `faces`. */
  detector: string;
}

const WEIGHTS = { scenes: 0.2, loudness: 0.05, faces: 0.75 } as const;

/** Combines stage fractions into one monotonic overall fraction, emitted in steps of at least 1 %. */
export function progressCombiner(emit?: AnalyzeOptions['onProgress']): (stage: keyof typeof WEIGHTS, fraction: number) => void {
  const done = { scenes: 0, loudness: 0, faces: 0 };
  let last = -1;
  return (stage, fraction) => {
    const f = Math.min(1, Math.max(0, fraction));
    if (f <= done[stage]) return;
    done[stage] = f;
    const total = (Object.keys(WEIGHTS) as Array<keyof typeof WEIGHTS>).reduce((s, k) => s + WEIGHTS[k] * done[k], 0);
    const rounded = Math.floor(total * 1000) / 1000;
    if (emit && (rounded - last >= 0.01 || (rounded >= 0.999 && last < 0.999))) {
      last = rounded;
      emit(Math.min(1, rounded), stage);
    }
  };
}

async function detectFaces(
  input: string,
  deps: VideoAnalysisDeps,
  info: { duration: number; width: number; height: number },
  fps: number,
  report: (f: number) => void,
  signal: AbortSignal,
  scenes?: ScenePassOptions,
  range?: { start: number; end: number },
): Promise<FaceTrackSample[]> {
  const expected = Math.max(1, Math.ceil(info.duration * fps));
  const out: FaceTrackSample[] = [];
  const frames = deps.sampleFrames(input, { fps, sourceWidth: info.width, sourceHeight: info.height, durationSeconds: info.duration, range, signal, scenes });
  let grid: Float32Array | undefined;
  for await (const frame of frames) {
    signal.throwIfAborted();
    // Measured before the detector, which may take the frame's pixels.
    const stats = screenStats(frame, grid);
    grid = stats.grid;
    const boxes = await deps.faceDetector.detect(frame);
    out.push({ t: frame.t, boxes, flat: stats.flat, ...(stats.motion !== undefined ? { motion: stats.motion } : {}) });
    report(out.length / expected);
  }
  return out;
}

/** Runs every measurement on a local file and computes the 9:16 crop path. */
export async function analyzeVideo(input: string, deps: VideoAnalysisDeps, opts: AnalyzeOptions = {}): Promise<VideoAnalysis> {
  const fps = opts.fps ?? 1;
  if (!(fps > 0 && fps <= 30)) throw new RangeError('fps must be in (0, 30]');
  // One failed pass stops the others (and their ffmpeg processes).
  const inner = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, inner.signal]) : inner.signal;
  const info = await deps.probe(input, { signal });
  if (!info.hasVideo || !(info.width > 0 && info.height > 0)) {
    throw new DomainError('VIDEO_ANALYSIS_FAILED', { reason: 'no_video_stream' });
  }
  const range = opts.range;
  if (range && !(range.start >= 0 && range.end > range.start)) throw new RangeError(`invalid analysis range ${range.start}..${range.end}`);
  const duration = range ? range.end - range.start : info.duration;
  const report = progressCombiner(opts.onProgress);
  const stage = (name: 'scenes' | 'loudness') => ({
    range,
    durationSeconds: duration,
    signal,
    onProgress: (p: { fraction: number }) => report(name, p.fraction),
  });

  const combined = (opts.scenePass ?? 'combined') === 'combined';
  let sceneCuts: number[] = [];
  const separateScenes = async () => {
    if (combined) return;
    sceneCuts = await deps.detectSceneCuts(input, stage('scenes'));
    report('scenes', 1);
  };
  let loudness: number[] = [];
  const measureLoudness = async () => {
    if (info.hasAudio) loudness = await deps.measureLoudness(input, stage('loudness'));
    report('loudness', 1);
  };
  let samples: FaceTrackSample[] = [];
  const scenes: ScenePassOptions | undefined = combined ? { onCuts: (cuts) => (sceneCuts = cuts) } : undefined;
  const faces = async () => {
    samples = await detectFaces(
      input,
      deps,
      { ...info, duration },
      fps,
      (f) => {
        report('faces', Math.min(0.99, f));
        if (combined) report('scenes', Math.min(0.99, f));
      },
      signal,
      scenes,
      range,
    );
    report('scenes', 1);
  };

  try {
    if (opts.concurrent ?? true) {
      await Promise.all([
        (async () => {
          await separateScenes();
          await measureLoudness();
        })(),
        faces(),
      ]);
    } else {
      await separateScenes();
      await measureLoudness();
      await faces();
    }
  } catch (err) {
    inner.abort();
    throw err;
  }
  report('faces', 1);

  const end = duration > 0 ? duration : samples.length ? samples[samples.length - 1].t + 1 / fps : 0;
  if (loudness.length === 0) loudness = new Array<number>(Math.ceil(end - 1e-6)).fill(SILENCE_LUFS);
  const cropPath9x16 = computeCropPath(samples, { width: info.width, height: info.height }, { aspect: '9:16', sceneCuts, duration: end });
  return {
    duration: end,
    width: info.width,
    height: info.height,
    sceneCuts,
    loudness,
    faces: samples,
    cropPath9x16,
    fps,
    detector: deps.faceDetector.name,
  };
}

/**
 * The face samples as they are stored with a submission's analysis (pure): times to milliseconds, box
 * positions and sizes to thousandths of the frame (2 px of a 1920-pixel frame), scores and flatness to
 * hundredths, motion to thousandths;
 * boxes without area or score are dropped. Samples without faces stay (they say nobody was there).
 */
export function compactFaces(samples: readonly FaceTrackSample[]): FaceTrackSample[] {
  const r = (v: number, k: number) => Math.round(v * k) / k;
  return samples.map((s) => ({
    t: r(s.t, 1000),
    ...(s.flat !== undefined ? { flat: r(s.flat, 100) } : {}),
    ...(s.motion !== undefined ? { motion: r(s.motion, 1000) } : {}),
    boxes: s.boxes
      .filter((b) => b.width > 0 && b.height > 0 && b.score > 0)
      .map((b) => ({ x: r(b.x, 1000), y: r(b.y, 1000), width: r(b.width, 1000), height: r(b.height, 1000), score: r(b.score, 100) })),
  }));
}

/** An analysis of the stretch [range.start, range.end) of a source, in the source's timeline. */
export interface RangedAnalysis extends VideoAnalysis {
  /** The analysed stretch of the source, seconds. */
  range: { start: number; end: number };
}

/**
 * Moves the analysis of the stretch starting at `range.start` of its source to the source's timeline (pure):
 * scene cuts, face samples and crop keyframes are shifted, `duration` becomes the stretch's end, and
 * `loudness` keeps one value per source second (index = second of the source): the seconds before the
 * stretch, never measured, are silence (and are left out again when highlights are picked).
 */
export function toSourceTimeline(a: VideoAnalysis, range: { start: number; end: number }): RangedAnalysis {
  const at = range.start;
  const shift = (t: number) => Math.round((t + at) * 1000) / 1000;
  return {
    ...a,
    range: { start: range.start, end: range.end },
    duration: shift(a.duration),
    sceneCuts: a.sceneCuts.map(shift),
    loudness: [...new Array<number>(Math.round(at)).fill(SILENCE_LUFS), ...a.loudness],
    faces: a.faces.map((f) => ({ ...f, t: shift(f.t) })),
    cropPath9x16: a.cropPath9x16.map((k) => ({ ...k, t: shift(k.t) })),
  };
}
