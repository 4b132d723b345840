/**
 * Checks of a portrait's pixels (pure; the tests and `npm run eval` use them): border streaks (an edge
 * pixel smeared outward) and the share of clipped pixels in the face. Images are packed RGB.
 */

export interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Edge = 'top' | 'bottom' | 'left' | 'right';

export interface Streak {
  edge: Edge;
  /** Where along the edge the window starts (pixels) and its length. */
  at: number;
  length: number;
  /** How many lines in a row, outward, repeat the line before them. */
  run: number;
}

/** A run this long (pixels, outward) counts as a streak. */
export const STREAK_MIN_RUN = 32;
/** A line is textured from this mean step between neighbouring pixels along it (levels). */
const MIN_TEXTURE = 2;
/** …spread along it: at least this share of its pixels step by MIN_STEP levels or more (one straight edge crossing the border is not a streak). */
const MIN_STEP = 4;
const MIN_STEPS_SHARE = 0.3;
/** A line repeats another when their difference is at most this share of its texture. */
const REPEAT_RATIO = 0.4;
/** Lines are compared this many apart. */
const GAP = 3;

/**
 * Border streaks: along each edge, in windows of `window` pixels, the longest run of consecutive lines
 * (rows for top and bottom, columns for left and right) within `depth` of the edge where each line repeats
 * the one GAP lines further out (shifted by up to ±1 pixel per line: straight or slanted streaks) while
 * being textured. A line "repeats" when its mean absolute difference from the shifted one is at most REPEAT_RATIO of
 * its own texture (mean absolute difference between neighbouring pixels along it): natural detail and
 * blur change about as much across lines as along them, a smeared edge pixel hardly at all. A line is
 * textured when that texture is at least MIN_TEXTURE levels and spread along it (MIN_STEPS_SHARE): a
 * flat fill, or one straight edge meeting the border, is not a streak. Runs of `minRun` or more are
 * answered.
 */
export function borderStreaks(img: Rgb, opts: { minRun?: number; window?: number; depth?: number } = {}): Streak[] {
  const minRun = opts.minRun ?? STREAK_MIN_RUN;
  const win = opts.window ?? 64;
  const out: Streak[] = [];
  for (const edge of ['top', 'bottom', 'left', 'right'] as Edge[]) {
    const vertical = edge === 'top' || edge === 'bottom';
    // Along: the edge's length; across: distance from the edge.
    const along = vertical ? img.width : img.height;
    const across = vertical ? img.height : img.width;
    const depth = Math.min(across - 1, opts.depth ?? Math.round(across / 3));
    const px = (a: number, d: number, c: number): number => {
      const x = vertical ? a : edge === 'left' ? d : img.width - 1 - d;
      const y = vertical ? (edge === 'top' ? d : img.height - 1 - d) : a;
      return img.data[(y * img.width + x) * 3 + c];
    };
    // Windows half overlapping, the last one ending at the corner.
    const starts: number[] = [];
    for (let a0 = 0; a0 + win < along; a0 += win / 2) starts.push(a0);
    starts.push(Math.max(0, along - win));
    for (const a0 of starts) {
      const a1 = Math.min(along, a0 + win);
      let run = 0;
      let best = 0;
      for (let d = 0; d < depth; d++) {
        let tex = 0;
        let n = 0;
        let steps = 0;
        for (let a = a0 + 1; a < a1 - 1; a++) {
          let step = 0;
          for (let c = 0; c < 3; c++, n++) {
            const v = Math.abs(px(a + 1, d, c) - px(a, d, c));
            tex += v;
            if (v > step) step = v;
          }
          if (step >= MIN_STEP) steps++;
        }
        tex /= n;
        // Compared GAP lines further out (a resampled picture varies with a period of a few lines), shifted
        // by up to ±1 pixel per line in steps of half a pixel.
        let diff = Infinity;
        if (d + GAP >= across) break;
        for (let s = -GAP; s <= GAP; s += 0.5) {
          const k = Math.floor(s);
          const f = s - k;
          let sum = 0;
          let m = 0;
          for (let a = a0 + GAP + 1; a < a1 - GAP - 1; a++) {
            for (let c = 0; c < 3; c++, m++) sum += Math.abs(px(a, d, c) - (px(a + k, d + GAP, c) * (1 - f) + px(a + k + 1, d + GAP, c) * f));
          }
          diff = Math.min(diff, sum / m);
        }
        const repeats = tex >= MIN_TEXTURE && steps >= MIN_STEPS_SHARE * (a1 - a0 - 2) && diff <= REPEAT_RATIO * tex;
        run = repeats ? run + 1 : 0;
        if (run > best) best = run;
      }
      // A run of k repeating lines spans k + GAP lines.
      if (best > 0 && best + GAP >= minRun) out.push({ edge, at: a0, length: a1 - a0, run: best + GAP });
    }
  }
  return out;
}

/** The longest streak's run (0 when none reach `minRun`). */
export function longestStreak(img: Rgb, minRun = STREAK_MIN_RUN): number {
  return borderStreaks(img, { minRun }).reduce((m, s) => Math.max(m, s.run), 0);
}

/** A box in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The share (0..1) of the box's pixels with any channel at 0 or 255. */
export function clippedShare(img: Rgb, box: Box): number {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(img.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(img.height, Math.ceil(box.y + box.height));
  let clipped = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 3;
      n++;
      const r = img.data[i];
      const g = img.data[i + 1];
      const b = img.data[i + 2];
      if (r === 0 || g === 0 || b === 0 || r === 255 || g === 255 || b === 255) clipped++;
    }
  }
  return n === 0 ? 0 : clipped / n;
}

/** The box around a face mesh's points (the face itself: the detector's box has margin for the mesh model). */
export function meshBox(mesh: ReadonlyArray<readonly [number, number]>): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of mesh) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The mean colour (R, G, B) inside a box. */
export function meanColour(img: Rgb, box: Box): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(img.height, box.y + box.height); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(img.width, box.x + box.width); x++, n++) {
      for (let c = 0; c < 3; c++) sum[c] += img.data[(y * img.width + x) * 3 + c];
    }
  }
  return n === 0 ? [0, 0, 0] : sum.map((s) => s / n);
}
