import type { FaceSample } from './crop-path.js';

/**
 * The `auto` layout's rules (pure): what each shot of a clip shows, and the layout it gets. A shot is
 * the stretch between two scene cuts (the analysis finds them). From the face samples of the shot:
 * a screen or slide (a flat, still picture with no face or a small one) → `screen`; two faces →
 * `split`; one face → `speaker`; nothing → `center`.
 */

export type ShotLayout = 'speaker' | 'split' | 'screen' | 'center';

/** What the analysis measures of a sampled frame besides faces (screenStats), 0..1. */
export interface FrameStats {
  /** Share of the frame at its most common brightness (±12 of 255): a slide's background is most of it. */
  flat: number;
  /** Mean brightness change from the previous sample (of 255): a screen barely moves. Absent on the first sample. */
  motion?: number;
}

/** A sample of the analysis, with the frame statistics kept since the `auto` layout. */
export type ShotSample = FaceSample & { flat?: number; motion?: number };

/** A frame is screen-like when at least this share is at one brightness… */
export const SCREEN_MIN_FLAT = 0.45;
/** …and it moved less than this from the previous sample. */
export const SCREEN_MAX_MOTION = 0.03;
/** A face on a screen is a webcam's: at most this high (share of the frame). */
export const SCREEN_MAX_FACE_HEIGHT = 0.3;
/** A shot takes a layout when at least this share of its samples shows it. */
export const SHOT_MIN_SHARE = 0.5;

/**
 * The flatness and motion of an RGB frame (packed, 8 bits a channel) against the previous sample's
 * brightness grid (what it returns as `grid`, for the next call). Reads every 4th pixel of every 4th row.
 */
export function screenStats(frame: { width: number; height: number; data: Uint8Array }, prev?: Float32Array): FrameStats & { grid: Float32Array } {
  const { width, height, data } = frame;
  const hist = new Uint32Array(256);
  const gw = Math.max(1, Math.floor(width / 4));
  const gh = Math.max(1, Math.floor(height / 4));
  const grid = new Float32Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      const i = (gy * 4 * width + gx * 4) * 3;
      const l = (data[i] * 299 + data[i + 1] * 587 + data[i + 2] * 114) / 1000;
      grid[gy * gw + gx] = l;
      hist[Math.min(255, Math.round(l))]++;
    }
  }
  // The most common brightness, ±12.
  let best = 0;
  for (let c = 0; c < 256; c++) {
    let s = 0;
    for (let d = Math.max(0, c - 12); d <= Math.min(255, c + 12); d++) s += hist[d];
    best = Math.max(best, s);
  }
  const flat = best / grid.length;
  let motion: number | undefined;
  if (prev && prev.length === grid.length) {
    let sum = 0;
    for (let i = 0; i < grid.length; i++) sum += Math.abs(grid[i] - prev[i]);
    motion = sum / grid.length / 255;
  }
  return { flat, ...(motion !== undefined ? { motion } : {}), grid };
}

function faces(s: FaceSample) {
  return s.boxes.filter((b) => b.width > 0 && b.height > 0 && b.score > 0);
}

/** A webcam's face sits off the middle: its centre outside the frame's middle [0.3, 0.7] on at least one axis. */
function offMiddle(b: { x: number; y: number; width: number; height: number }): boolean {
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  return cx < 0.3 || cx > 0.7 || cy < 0.3 || cy > 0.7;
}

/**
 * Whether a sample looks like a screen: flat and still (motion unknown counts as still), with no face
 * or only small ones off the middle (a webcam in a corner; a person in the middle before a plain wall
 * is not a screen).
 */
export function screenLike(s: ShotSample): boolean {
  if (s.flat === undefined || s.flat < SCREEN_MIN_FLAT) return false;
  if (s.motion !== undefined && s.motion > SCREEN_MAX_MOTION) return false;
  return faces(s).every((b) => b.height <= SCREEN_MAX_FACE_HEIGHT && offMiddle(b));
}

/** The layout of one shot from its samples; no samples: `center`. */
export function classifyShot(samples: readonly ShotSample[]): ShotLayout {
  const n = samples.length;
  if (n === 0) return 'center';
  const share = (f: (s: ShotSample) => boolean) => samples.filter(f).length / n;
  if (share(screenLike) >= SHOT_MIN_SHARE) return 'screen';
  if (share((s) => faces(s).length >= 2) >= SHOT_MIN_SHARE) return 'split';
  if (share((s) => faces(s).length >= 1) >= SHOT_MIN_SHARE) return 'speaker';
  return 'center';
}

export interface Shot {
  /** Source seconds. */
  start: number;
  end: number;
  layout: ShotLayout;
}

/**
 * The shots of `[start, end]` (source seconds): split at the scene cuts inside it, each classified
 * from its samples; neighbours with the same layout are merged. A shot shorter than `minSeconds`
 * (default 1 s) takes its neighbour's layout (before it, else after), so a flash never changes it.
 */
export function clipShots(samples: readonly ShotSample[], sceneCuts: readonly number[], range: { start: number; end: number }, minSeconds = 1): Shot[] {
  const { start, end } = range;
  if (!(end > start)) throw new RangeError('end must be after start');
  const cuts = [...new Set(sceneCuts)].filter((c) => c > start && c < end).sort((a, b) => a - b);
  const bounds = [start, ...cuts, end];
  const shots: Shot[] = [];
  for (let i = 0; i < bounds.length - 1; i++) {
    const a = bounds[i];
    const b = bounds[i + 1];
    // The samples inside; a shot too short to hold one takes the nearest sample.
    let inside = samples.filter((s) => s.t >= a - 1e-6 && s.t < b - 1e-6);
    if (inside.length === 0 && samples.length > 0) {
      const mid = (a + b) / 2;
      inside = [samples.reduce((p, s) => (Math.abs(s.t - mid) < Math.abs(p.t - mid) ? s : p))];
    }
    shots.push({ start: a, end: b, layout: classifyShot(inside) });
  }
  for (let i = 0; i < shots.length; i++) {
    if (shots.length > 1 && shots[i].end - shots[i].start < minSeconds) shots[i].layout = (shots[i - 1] ?? shots[i + 1]).layout;
  }
  const merged: Shot[] = [];
  for (const s of shots) {
    const last = merged[merged.length - 1];
    if (last && last.layout === s.layout) last.end = s.end;
    else merged.push({ ...s });
  }
  return merged.map((s) => ({ start: Math.round(s.start * 1000) / 1000, end: Math.round(s.end * 1000) / 1000, layout: s.layout }));
}
