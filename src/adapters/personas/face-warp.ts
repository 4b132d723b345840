/**
 * The pixel work of the embedded head swap (pure, no I/O; runs in the compute pool's threads):
 * piecewise-affine warp of a face mesh onto another, colour transfer, a feathered mask, alpha blends,
 * and pasting a cut-out scaled and rotated. Images are packed RGB (`RgbImage`), 8 bits per channel.
 */

export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Point = [number, number];

/** An axis-aligned box of whole pixels, `x1`/`y1` exclusive. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The box around `points`, grown by `pad` pixels on each side and clipped to the image. */
export function boxAround(points: readonly Point[], width: number, height: number, pad = 0): PixelBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of points) {
    if (x < x0) x0 = x;
    if (y < y0) y0 = y;
    if (x > x1) x1 = x;
    if (y > y1) y1 = y;
  }
  return {
    x0: Math.max(0, Math.floor(x0 - pad)),
    y0: Math.max(0, Math.floor(y0 - pad)),
    x1: Math.min(width, Math.ceil(x1 + pad) + 1),
    y1: Math.min(height, Math.ceil(y1 + pad) + 1),
  };
}

/** The affine map (a, b, c, d, e, f: x' = a x + b y + c, y' = d x + e y + f) taking triangle `from` to `to`; null when degenerate. */
export function affineBetween(from: readonly [Point, Point, Point], to: readonly [Point, Point, Point]): number[] | null {
  const [[x0, y0], [x1, y1], [x2, y2]] = from;
  const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (Math.abs(det) < 1e-9) return null;
  const [[u0, v0], [u1, v1], [u2, v2]] = to;
  // Solve for [a b c] with the three point pairs (Cramer on the differences).
  const a = ((u1 - u0) * (y2 - y0) - (u2 - u0) * (y1 - y0)) / det;
  const b = ((u2 - u0) * (x1 - x0) - (u1 - u0) * (x2 - x0)) / det;
  const c = u0 - a * x0 - b * y0;
  const d = ((v1 - v0) * (y2 - y0) - (v2 - v0) * (y1 - y0)) / det;
  const e = ((v2 - v0) * (x1 - x0) - (v1 - v0) * (x2 - x0)) / det;
  const f = v0 - d * x0 - e * y0;
  return [a, b, c, d, e, f];
}

/**
 * Bilinear sample at (x, y) of packed pixels with `channels` per pixel (3 RGB, 4 RGBA), clamped to the
 * edges, written to `out` from `at` (pure).
 */
export function sampleBilinear(
  img: { width: number; height: number; data: Uint8Array },
  channels: number,
  x: number,
  y: number,
  out: Float32Array,
  at = 0,
): void {
  const w = img.width;
  const h = img.height;
  const cx = Math.min(Math.max(x, 0), w - 1);
  const cy = Math.min(Math.max(y, 0), h - 1);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(x0 + 1, w - 1);
  const y1 = Math.min(y0 + 1, h - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const d = img.data;
  const i00 = (y0 * w + x0) * channels;
  const i10 = (y0 * w + x1) * channels;
  const i01 = (y1 * w + x0) * channels;
  const i11 = (y1 * w + x1) * channels;
  for (let c = 0; c < channels; c++) {
    const top = d[i00 + c] + (d[i10 + c] - d[i00 + c]) * fx;
    const bottom = d[i01 + c] + (d[i11 + c] - d[i01 + c]) * fx;
    out[at + c] = top + (bottom - top) * fy;
  }
}

/** A warped patch over `box` of the destination: colours (RGB floats) and coverage (0 or 1). */
export interface Patch {
  box: PixelBox;
  rgb: Float32Array;
  mask: Float32Array;
}

/**
 * Piecewise-affine warp: every triangle of `triangles` (indices into both point lists) of `src` at
 * `srcPts` is mapped onto the same triangle at `dstPts` in a destination of `width` x `height`.
 * Only the box around the destination points is computed.
 */
export function warpMesh(
  src: RgbImage,
  srcPts: readonly Point[],
  dstPts: readonly Point[],
  triangles: readonly number[],
  width: number,
  height: number,
): Patch {
  const box = boxAround(dstPts, width, height, 1);
  const bw = Math.max(0, box.x1 - box.x0);
  const bh = Math.max(0, box.y1 - box.y0);
  const rgb = new Float32Array(bw * bh * 3);
  const mask = new Float32Array(bw * bh);
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const ia = triangles[t];
    const ib = triangles[t + 1];
    const ic = triangles[t + 2];
    const da = dstPts[ia];
    const db = dstPts[ib];
    const dc = dstPts[ic];
    if (!da || !db || !dc) continue;
    // Sampling map: destination pixel → source pixel.
    const m = affineBetween([da, db, dc], [srcPts[ia], srcPts[ib], srcPts[ic]]);
    if (!m) continue;
    const tx0 = Math.max(box.x0, Math.floor(Math.min(da[0], db[0], dc[0])));
    const tx1 = Math.min(box.x1 - 1, Math.ceil(Math.max(da[0], db[0], dc[0])));
    const ty0 = Math.max(box.y0, Math.floor(Math.min(da[1], db[1], dc[1])));
    const ty1 = Math.min(box.y1 - 1, Math.ceil(Math.max(da[1], db[1], dc[1])));
    const area = (db[0] - da[0]) * (dc[1] - da[1]) - (dc[0] - da[0]) * (db[1] - da[1]);
    if (Math.abs(area) < 1e-6) continue;
    for (let y = ty0; y <= ty1; y++) {
      const py = y + 0.5;
      for (let x = tx0; x <= tx1; x++) {
        const px = x + 0.5;
        // Barycentric inside test (edges included, so neighbouring triangles leave no gap).
        const w0 = ((db[0] - px) * (dc[1] - py) - (dc[0] - px) * (db[1] - py)) / area;
        const w1 = ((dc[0] - px) * (da[1] - py) - (da[0] - px) * (dc[1] - py)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < -1e-4 || w1 < -1e-4 || w2 < -1e-4) continue;
        const at = (y - box.y0) * bw + (x - box.x0);
        if (mask[at] > 0) continue;
        sampleBilinear(src, 3, m[0] * px + m[1] * py + m[2] - 0.5, m[3] * px + m[4] * py + m[5] - 0.5, rgb, at * 3);
        mask[at] = 1;
      }
    }
  }
  return { box, rgb, mask };
}

/** Separable box blur of a single-channel float image, `passes` times (≈ Gaussian for 3). */
export function boxBlur(src: Float32Array, width: number, height: number, radius: number, passes = 3): Float32Array {
  const r = Math.max(0, Math.round(radius));
  if (r === 0 || width === 0 || height === 0) return src.slice();
  const a = src.slice();
  const b = new Float32Array(a.length);
  const norm = 1 / (2 * r + 1);
  for (let p = 0; p < passes; p++) {
    for (let y = 0; y < height; y++) {
      const row = y * width;
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += a[row + Math.min(Math.max(k, 0), width - 1)];
      for (let x = 0; x < width; x++) {
        b[row + x] = acc * norm;
        acc += a[row + Math.min(x + r + 1, width - 1)] - a[row + Math.max(x - r, 0)];
      }
    }
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -r; k <= r; k++) acc += b[Math.min(Math.max(k, 0), height - 1) * width + x];
      for (let y = 0; y < height; y++) {
        a[y * width + x] = acc * norm;
        acc += b[Math.min(y + r + 1, height - 1) * width + x] - b[Math.max(y - r, 0) * width + x];
      }
    }
  }
  return a;
}

/** A mask feathered inwards: 0 on and outside its edge, rising to 1 about `radius` pixels inside. */
export function featherInside(mask: Float32Array, width: number, height: number, radius: number): Float32Array {
  const blurred = boxBlur(mask, width, height, radius / 2);
  const out = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = mask[i] > 0 ? Math.min(1, Math.max(0, (blurred[i] - 0.5) * 2)) : 0;
  // A last light blur smooths the ramp; nothing outside the mask (the patch has no colour there).
  const smooth = boxBlur(out, width, height, radius / 4, 2);
  for (let i = 0; i < mask.length; i++) if (mask[i] === 0) smooth[i] = 0;
  return smooth;
}

/** Per-channel mean and standard deviation of the pixels where `weight` > 0.5. */
export function channelStats(pixels: (i: number, c: number) => number, weight: Float32Array): { mean: number[]; std: number[] } {
  const sum = [0, 0, 0];
  const sq = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < weight.length; i++) {
    if (weight[i] <= 0.5) continue;
    n++;
    for (let c = 0; c < 3; c++) {
      const v = pixels(i, c);
      sum[c] += v;
      sq[c] += v * v;
    }
  }
  if (n === 0) return { mean: [0, 0, 0], std: [1, 1, 1] };
  const mean = sum.map((s) => s / n);
  const std = sq.map((s, c) => Math.sqrt(Math.max(s / n - mean[c] * mean[c], 1)));
  return { mean, std };
}

/** Levels from either end where softLimit starts to bend. */
const KNEE = 24;

/**
 * A level computed by a colour change brought into 0..255 without clipping (pure): identity between
 * KNEE and 255 − KNEE, beyond that an exponential shoulder (slope 1 at the joint) that only approaches
 * 0.51 and 254.49, so a value pushed past the range keeps its gradation instead of turning flat 0 or 255.
 * Rounded, it is always within 1..254.
 */
export function softLimit(x: number): number {
  const hi = 255 - KNEE;
  // Just under half a level short of the ends, so the rounded value is never 0 or 255.
  const room = KNEE - 0.51;
  if (x > hi) return hi + room * (1 - Math.exp(-(x - hi) / room));
  if (x < KNEE) return KNEE - room * (1 - Math.exp(-(KNEE - x) / room));
  return x;
}

/**
 * Colour transfer (Reinhard, per RGB channel): the patch's colours moved to the mean and spread of the
 * destination's pixels under the same mask, the spread ratio kept within 0.7..1.4. Levels the transfer
 * pushes past the ends are brought back with softLimit (no clipped seam); a level already at 0 or 255
 * in the patch is left to the plain clamp.
 */
export function transferColour(patch: Patch, dst: RgbImage): void {
  const { box, rgb, mask } = patch;
  const bw = box.x1 - box.x0;
  const from = channelStats((i, c) => rgb[i * 3 + c], mask);
  const to = channelStats((i, c) => dst.data[((box.y0 + Math.floor(i / bw)) * dst.width + box.x0 + (i % bw)) * 3 + c], mask);
  const k = from.std.map((s, c) => Math.min(1.4, Math.max(0.7, to.std[c] / s)));
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    for (let c = 0; c < 3; c++) {
      const v = rgb[i * 3 + c];
      const moved = (v - from.mean[c]) * k[c] + to.mean[c];
      rgb[i * 3 + c] = v <= 0 || v >= 255 ? moved : softLimit(moved);
    }
  }
}

/** `dst` = alpha · patch + (1 − alpha) · dst over the patch's box (in place). */
export function blendPatch(dst: RgbImage, patch: Patch, alpha: Float32Array): void {
  const { box, rgb } = patch;
  const bw = box.x1 - box.x0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = (y - box.y0) * bw + (x - box.x0);
      const a = alpha[i];
      if (a <= 0) continue;
      const o = (y * dst.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = a * rgb[i * 3 + c] + (1 - a) * dst.data[o + c];
        dst.data[o + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  }
}

/** An RGBA cut-out (straight alpha) with its anchor: the point that lands on the target, and the length that matches the target's scale. */
export interface Cutout {
  width: number;
  height: number;
  /** Packed RGBA. */
  data: Uint8Array;
  anchor: Point;
  /** Pixels of the cut-out that equal one unit of the target's `scale`. */
  unit: number;
}

/**
 * Pastes `cut` onto `dst` so that its anchor lands on `at`, scaled by `scale / cut.unit` and rotated
 * by `roll` radians (clockwise in image coordinates), blending with the cut-out's alpha (in place).
 */
export function pasteCutout(dst: RgbImage, cut: Cutout, at: Point, scale: number, roll: number): void {
  const s = scale / cut.unit;
  if (!(s > 0)) return;
  const cos = Math.cos(roll);
  const sin = Math.sin(roll);
  // Destination box: the rotated, scaled corners of the cut-out.
  const corners: Point[] = [
    [0, 0],
    [cut.width, 0],
    [0, cut.height],
    [cut.width, cut.height],
  ].map(([x, y]) => {
    const dx = (x - cut.anchor[0]) * s;
    const dy = (y - cut.anchor[1]) * s;
    return [at[0] + dx * cos - dy * sin, at[1] + dx * sin + dy * cos] as Point;
  });
  const box = boxAround(corners, dst.width, dst.height, 1);
  const px = new Float32Array(4);
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      // Inverse map: destination → cut-out.
      const dx = x + 0.5 - at[0];
      const dy = y + 0.5 - at[1];
      const u = (dx * cos + dy * sin) / s + cut.anchor[0] - 0.5;
      const v = (-dx * sin + dy * cos) / s + cut.anchor[1] - 0.5;
      if (u < -0.5 || v < -0.5 || u > cut.width - 0.5 || v > cut.height - 0.5) continue;
      sampleBilinear(cut, 4, u, v, px);
      const a = px[3] / 255;
      if (a <= 0) continue;
      const o = (y * dst.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const val = a * px[c] + (1 - a) * dst.data[o + c];
        dst.data[o + c] = val < 0 ? 0 : val > 255 ? 255 : Math.round(val);
      }
    }
  }
}

/** Exponential smoothing of landmarks over time: `prev` moved towards `next` by `alpha` (0..1); `next` when there is no `prev`. */
export function smoothPoints(prev: readonly Point[] | null, next: readonly Point[], alpha: number): Point[] {
  if (!prev || prev.length !== next.length) return next.map((p) => [p[0], p[1]]);
  return next.map((p, i) => [prev[i][0] + alpha * (p[0] - prev[i][0]), prev[i][1] + alpha * (p[1] - prev[i][1])]);
}
