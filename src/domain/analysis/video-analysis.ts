import { DomainError } from '../errors.js';
import type { FaceBox, FaceDetector, RgbFrame } from '../../ports/face-detector.js';
import type { MediaInfo } from '../../ports/media.js';
import { lumaPlane, mouthChange, voiceSpans, withActiveSpeaker, type VoiceSpan } from '../reframe/active-speaker.js';
import { computeCropPath, type Keyframe } from '../reframe/crop-path.js';
import { screenStats } from '../reframe/shots.js';

/**
 * The `video_analysis` stage: what renders need to reframe, and signals the highlight scorer uses.
 * Scene cuts and loudness come from ffmpeg filters; faces from a FaceDetector on frames sampled at
 * `fps`; the 9:16 crop path is computed from both. The result is plain JSON, stored with the video.
 *
 * Mouths: the sampler decodes MOUTH_FRAMES frames per face sample (5 a second at `fps` 1) in the same
 * ffmpeg pass; the detector runs on the first of them only (the sample), and every frame measures
 * how much the mouth region of each face of the latest sample changed since the frame before
 * (active-speaker.ts `mouthChange`). A box's `mouth` is the mean over its sample's frames. With the
 * voice stretches heard (from the loudness pass' 100 ms blocks), the crop path follows the active
 * speaker when several faces are seen.
 */

/** Frames decoded per face sample for the mouth measurement (the detector runs on one of them). */
export const MOUTH_FRAMES = 5;

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
  /** `onBlock` gets each 100 ms block of momentary loudness (voice stretches are found in them). */
  measureLoudness(input: string, opts: StageOptions & { onBlock?: (b: { t: number; momentary: number }) => void }): Promise<number[]>;
  /** The voice's pitch per second (Hz, 0 unvoiced; src/adapters/media/pitch.ts); absent: not measured. */
  measurePitch?(input: string, opts: StageOptions): Promise<number[]>;
  /** With `scenes`, the same pass also finds scene cuts and hands them to `onCuts` when it ends. */
  sampleFrames(
    input: string,
    opts: StageOptions & { fps: number; sourceWidth: number; sourceHeight: number; scenes?: ScenePassOptions; prefetch?: number },
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

/** A face box with its mouth activity: mean brightness change of the mouth region between frames, 0..1 (absent on older analyses). */
export type MouthFaceBox = FaceBox & { mouth?: number };

export interface FaceTrackSample {
  t: number;
  boxes: MouthFaceBox[];
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
  /** Stretches where a voice is heard (seconds), from the loudness blocks; absent on older analyses. */
  speech?: VoiceSpan[];
  /** The voice's pitch per second (Hz, index = second, 0 unvoiced), what punch-ins read for emphasis; absent on older analyses. */
  pitch?: number[];
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
  // Frames per sample for the mouths: 5, fewer above 6 samples a second (at most 30 frames a second).
  const per = Math.max(1, Math.min(MOUTH_FRAMES, Math.floor(30 / fps)));
  const frames = deps.sampleFrames(input, {
    fps: fps * per,
    sourceWidth: info.width,
    sourceHeight: info.height,
    durationSeconds: info.duration,
    range,
    signal,
    scenes,
    // As many seconds decoded ahead of the detector as before the mouth frames.
    prefetch: 4 * per,
  });
  let grid: Float32Array | undefined;
  let prevLuma: Uint8Array | undefined;
  let sums: number[] = [];
  let counts: number[] = [];
  const closeMouths = () => {
    const last = out[out.length - 1];
    if (!last) return;
    last.boxes.forEach((b, i) => {
      if (counts[i] > 0) b.mouth = sums[i] / counts[i];
    });
  };
  let index = 0;
  for await (const frame of frames) {
    signal.throwIfAborted();
    // Measured before the detector, which may take the frame's pixels.
    const luma = lumaPlane(frame);
    if (index % per === 0) {
      closeMouths();
      const stats = screenStats(frame, grid);
      grid = stats.grid;
      const t = Math.round((index / per / fps) * 1000) / 1000;
      const boxes: MouthFaceBox[] = await deps.faceDetector.detect(frame);
      out.push({ t, boxes, flat: stats.flat, ...(stats.motion !== undefined ? { motion: stats.motion } : {}) });
      sums = boxes.map(() => 0);
      counts = boxes.map(() => 0);
      report(out.length / expected);
    }
    const boxes = out[out.length - 1]?.boxes ?? [];
    if (prevLuma) {
      boxes.forEach((b, i) => {
        const m = mouthChange(luma, prevLuma!, frame.width, frame.height, b);
        if (m !== undefined) {
          sums[i] += m;
          counts[i]++;
        }
      });
    }
    prevLuma = luma;
    index++;
  }
  closeMouths();
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
  let pitch: number[] | undefined;
  const blocks: Array<{ t: number; momentary: number }> = [];
  const measureLoudness = async () => {
    if (info.hasAudio) loudness = await deps.measureLoudness(input, { ...stage('loudness'), onBlock: (b) => blocks.push({ t: b.t, momentary: b.momentary }) });
    if (info.hasAudio && deps.measurePitch) pitch = await deps.measurePitch(input, { range, durationSeconds: duration, signal });
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
  const speech = voiceSpans(blocks);
  // With mouths measured and a voice heard, the camera follows the active speaker.
  const subjects = withActiveSpeaker(samples, speech, { sceneCuts, duration: end });
  const cropPath9x16 = computeCropPath(subjects, { width: info.width, height: info.height }, { aspect: '9:16', sceneCuts, duration: end });
  return {
    duration: end,
    width: info.width,
    height: info.height,
    sceneCuts,
    loudness,
    faces: samples,
    speech,
    ...(pitch ? { pitch } : {}),
    cropPath9x16,
    fps,
    detector: deps.faceDetector.name,
  };
}

/**
 * The face samples as they are stored with a submission's analysis (pure): times to milliseconds, box
 * positions and sizes to thousandths of the frame (2 px of a 1920-pixel frame), scores and flatness to
 * hundredths, motion and mouth activity to thousandths;
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
      .map((b) => ({
        x: r(b.x, 1000),
        y: r(b.y, 1000),
        width: r(b.width, 1000),
        height: r(b.height, 1000),
        score: r(b.score, 100),
        ...(b.mouth !== undefined ? { mouth: r(b.mouth, 1000) } : {}),
      })),
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
    ...(a.pitch ? { pitch: [...new Array<number>(Math.round(at)).fill(0), ...a.pitch] } : {}),
    faces: a.faces.map((f) => ({ ...f, t: shift(f.t) })),
    ...(a.speech ? { speech: a.speech.map((v) => ({ ...v, start: shift(v.start), end: shift(v.end) })) } : {}),
    cropPath9x16: a.cropPath9x16.map((k) => ({ ...k, t: shift(k.t) })),
  };
}
