import { boxBlur, sampleBilinear, softLimit } from './face-warp.js';
import { PersonaEngineError, type FacePhoto, type PortraitEngine, type PortraitRequest, type PortraitResult } from '../../ports/persona-engines.js';

/**
 * The embedded portrait from the caller's own face photos (a `photo`): the photo with the largest
 * detected face is aligned on its eyes (rotated level, scaled so the eyes sit at about the same place in
 * every portrait) and cropped to a square head-and-shoulders portrait of up to 256 px, enhanced 4× by
 * the ESRGAN super-resolution model, resized to 768 px and colour-graded by the `vibe` trait. It
 * applies `vibe` only (FACE_PHOTO_TRAITS): everything else is the person's own face.
 *
 * Framing: the crop is one the photo covers where one exists (planCrop: the eyes may sit a little off
 * their usual place and the crop may be a little tighter); where none does, what lies outside the photo
 * is filled with a blurred mirror of the photo blended in over a soft edge (alignedCrop), never its edge
 * pixels stretched. Tone: the enhanced picture keeps the model's fine detail on the crop's own tones
 * (matchTone), so the model adds no clipped highlights or crushed shadows; the vibe's grade is applied
 * at half strength through a soft shoulder (gradeByVibe), so it clips nothing either.
 */

export const FACE_PHOTO_TRAITS = ['vibe'] as const;

export interface FacePhotoOptions {
  /**
   * Decodes a photo to packed RGB (EXIF orientation applied), possibly shrunk (at most 2048 px on its
   * long side: decodeFacePhoto); `scale` is the decoded pixels per photo pixel (1 when not shrunk).
   */
  decode(bytes: Uint8Array): Promise<{ width: number; height: number; data: Uint8Array; scale?: number }>;
  /** 4× super-resolution of packed RGB. */
  upscale(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array>;
  /** Resizes packed RGB (Lanczos). */
  resize(img: { width: number; height: number; data: Uint8Array }, width: number, height: number): Promise<{ width: number; height: number; data: Uint8Array }>;
  encodePng(img: { width: number; height: number; data: Uint8Array }): Promise<Uint8Array>;
}

/** Output side in pixels. */
export const FACE_PORTRAIT_SIZE = 768;
/** Crop side ceiling before the 4× enhancement. */
const MAX_CROP = 256;
const MIN_CROP = 96;
/** In the portrait: the eyes' midpoint at (0.5, EYE_Y) and the eyes EYE_SPAN of the side apart. */
const EYE_Y = 0.42;
const EYE_SPAN = 0.26;

/**
 * Where the eyes sit in the square portrait: their midpoint at (`ex`, `ey`) of the side and `span` of
 * the side apart.
 */
export interface CropPlan {
  ex: number;
  ey: number;
  span: number;
}

export const DEFAULT_CROP: CropPlan = { ex: 0.5, ey: EYE_Y, span: EYE_SPAN };

const mid = (a: [number, number], b: [number, number]): [number, number] => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

/**
 * Where the eyes are (pure): centres of the two eyes from the mesh (outer and inner corners), or from
 * the box (eyes at 38 % of its height, 20 % either side of its centre) without one.
 */
export function eyesOf(face: FacePhoto['face']): { left: [number, number]; right: [number, number] } {
  const m = face.mesh;
  if (m.length >= 468) return { left: mid(m[33], m[133]), right: mid(m[263], m[362]) };
  const { x, y, width, height } = face.box;
  return { left: [x + width * 0.3, y + height * 0.38], right: [x + width * 0.7, y + height * 0.38] };
}

/** Eye positions in a copy of the photo `scale` times its size (pure). */
export function scaleEyes(eyes: { left: [number, number]; right: [number, number] }, scale: number): { left: [number, number]; right: [number, number] } {
  if (scale === 1) return eyes;
  return { left: [eyes.left[0] * scale, eyes.left[1] * scale], right: [eyes.right[0] * scale, eyes.right[1] * scale] };
}

/** The photo point (x, y) under the portrait point (u, v), both sides 0..1 of the square (pure). */
function photoPoint(eyes: { left: [number, number]; right: [number, number] }, plan: CropPlan, u: number, v: number): [number, number] {
  const [lx, ly] = eyes.left;
  const [rx, ry] = eyes.right;
  const len = Math.hypot(rx - lx, ry - ly) / plan.span;
  const angle = Math.atan2(ry - ly, rx - lx);
  const [cx, cy] = mid(eyes.left, eyes.right);
  const du = (u - plan.ex) * len;
  const dv = (v - plan.ey) * len;
  return [cx + du * Math.cos(angle) - dv * Math.sin(angle), cy + du * Math.sin(angle) + dv * Math.cos(angle)];
}

/** The share (0..1) of the crop of `plan` that lies outside a `width`×`height` photo, on a 24×24 grid (pure). */
export function uncoveredShare(width: number, height: number, eyes: { left: [number, number]; right: [number, number] }, plan: CropPlan): number {
  const inside = ([x, y]: [number, number]) => x >= 0 && y >= 0 && x <= width && y <= height;
  // Square and photo are both convex: the corners decide full cover.
  if (
    (
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const
    ).every(([u, v]) => inside(photoPoint(eyes, plan, u, v)))
  )
    return 0;
  const n = 24;
  let out = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (!inside(photoPoint(eyes, plan, (i + 0.5) / n, (j + 0.5) / n))) out++;
  // A crop with an uncovered corner is never counted as covered.
  return Math.max(out, 1) / (n * n);
}

/** The eyes' place in the square may move this far from the usual one, and the crop tighten up to MAX_SPAN. */
const EX_STEPS = [0.5, 0.47, 0.53, 0.44, 0.56];
const EY_STEPS = [0.42, 0.4, 0.44, 0.38, 0.46, 0.36, 0.48];
const MAX_SPAN = 0.3;

/**
 * The framing of the portrait (pure): the usual one (DEFAULT_CROP) when the photo covers it, else the
 * nearest one the photo covers (eyes moved up to 0.06 of the side, the crop tightened up to MAX_SPAN: still head and shoulders),
 * else the one leaving the least outside the photo (that part is filled: alignedCrop).
 */
export function planCrop(width: number, height: number, eyes: { left: [number, number]; right: [number, number] }): CropPlan {
  let best = DEFAULT_CROP;
  let bestOut = Infinity;
  let bestCost = Infinity;
  for (let span = EYE_SPAN; span <= MAX_SPAN + 1e-9; span += 0.01) {
    for (const ey of EY_STEPS) {
      for (const ex of EX_STEPS) {
        const plan = { ex, ey, span: Math.round(span * 100) / 100 };
        // Uncovered area first (to the half percent), then how far the framing moved from the usual.
        const out = Math.ceil(uncoveredShare(width, height, eyes, plan) * 200);
        const cost = (plan.span - EYE_SPAN) * 4 + Math.abs(ex - 0.5) * 2 + Math.abs(ey - EYE_Y) * 2;
        if (out < bestOut || (out === bestOut && cost < bestCost)) {
          best = plan;
          bestOut = out;
          bestCost = cost;
        }
      }
    }
  }
  return best;
}

/** `x` reflected into 0..n−1 (mirror at the edges, pure). */
function reflect(x: number, n: number): number {
  if (n <= 1) return 0;
  const p = 2 * (n - 1);
  const m = ((x % p) + p) % p;
  return m <= n - 1 ? m : p - m;
}

/**
 * The square crop of `side` pixels framed by `plan` on the eyes, sampled bilinearly from `img` (pure):
 * rotation levels the eye line. Where the crop runs past the photo, the photo is mirrored there and
 * blurred (radius side/16), blended in over a soft edge (side/64): it reads as out-of-focus
 * surroundings, and no edge pixel is repeated outward.
 */
export function alignedCrop(
  img: { width: number; height: number; data: Uint8Array },
  eyes: { left: [number, number]; right: [number, number] },
  side: number,
  plan: CropPlan = DEFAULT_CROP,
): Uint8Array {
  const [lx, ly] = eyes.left;
  const [rx, ry] = eyes.right;
  const dist = Math.hypot(rx - lx, ry - ly);
  const angle = Math.atan2(ry - ly, rx - lx);
  // Source pixels per output pixel.
  const s = dist / (plan.span * side);
  const cos = Math.cos(angle) * s;
  const sin = Math.sin(angle) * s;
  const [cx, cy] = mid(eyes.left, eyes.right);
  const n = side * side;
  const sharp = new Float32Array(n * 3);
  const cover = new Float32Array(n);
  let outside = 0;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const u = x + 0.5 - side * plan.ex;
      const v = y + 0.5 - side * plan.ey;
      let sx = cx + u * cos - v * sin - 0.5;
      let sy = cy + u * sin + v * cos - 0.5;
      const i = y * side + x;
      if (sx >= -0.5 && sy >= -0.5 && sx <= img.width - 0.5 && sy <= img.height - 0.5) cover[i] = 1;
      else {
        outside++;
        sx = reflect(sx, img.width);
        sy = reflect(sy, img.height);
      }
      sampleBilinear(img, 3, sx, sy, sharp, i * 3);
    }
  }
  const out = new Uint8Array(n * 3);
  if (outside === 0) {
    for (let i = 0; i < out.length; i++) out[i] = Math.round(sharp[i]);
    return out;
  }
  const alpha = boxBlur(cover, side, side, Math.max(1, side / 64), 2);
  const channel = new Float32Array(n);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) channel[i] = sharp[i * 3 + c];
    const blurred = boxBlur(channel, side, side, Math.max(2, side / 16), 3);
    for (let i = 0; i < n; i++) out[i * 3 + c] = Math.round(alpha[i] * sharp[i * 3 + c] + (1 - alpha[i]) * blurred[i]);
  }
  return out;
}

/** The crop side: the eyes' distance in the photo scaled to the portrait (`span` of the side apart), within 96..256 (pure). */
export function cropSide(eyes: { left: [number, number]; right: [number, number] }, span = EYE_SPAN): number {
  const dist = Math.hypot(eyes.right[0] - eyes.left[0], eyes.right[1] - eyes.left[1]);
  return Math.round(Math.min(MAX_CROP, Math.max(MIN_CROP, dist / span)));
}

/**
 * The enhanced picture on the crop's tones (pure): `enhanced` (the model's output resized to `size`)
 * keeps only its fine detail (itself minus its blur), added to the crop enlarged bilinearly, which
 * carries the photo's own tones. A level the crop does not clip is brought into range with softLimit,
 * so the result clips where the crop does and nowhere else.
 */
export function matchTone(enhanced: Uint8Array, size: number, crop: Uint8Array, side: number): Uint8Array {
  const n = size * size;
  const out = new Uint8Array(n * 3);
  const base = new Float32Array(n * 3);
  const k = side / size;
  const src = { width: side, height: side, data: crop };
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) sampleBilinear(src, 3, (x + 0.5) * k - 0.5, (y + 0.5) * k - 0.5, base, (y * size + x) * 3);
  const channel = new Float32Array(n);
  // Detail finer than the crop's own pixels (enlarged size/side times).
  const radius = Math.max(1, Math.round(size / side / 2));
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) channel[i] = enhanced[i * 3 + c];
    const blurred = boxBlur(channel, size, size, radius, 2);
    for (let i = 0; i < n; i++) {
      const b = base[i * 3 + c];
      const v = b + channel[i] - blurred[i];
      out[i * 3 + c] = b <= 0 || b >= 255 ? Math.round(b) : Math.round(softLimit(v));
    }
  }
  return out;
}

/**
 * The colour grade of a `vibe` (pure, in place): warm, soft, cool and contrasted, vivid, bright, mixed
 * in at `strength` (0..1). A level at 0 or 255 stays clamped as computed; any other is brought into
 * range with softLimit, so the grade clips nothing that was not clipped.
 */
export function gradeByVibe(rgb: Uint8Array, vibe: string, strength = 1): void {
  const g = {
    friendly: { gain: [1.06, 1.0, 0.93], sat: 1.05, contrast: 1.0, lift: 0 },
    calm: { gain: [1.0, 1.0, 1.02], sat: 0.85, contrast: 0.92, lift: 8 },
    serious: { gain: [0.96, 1.0, 1.06], sat: 0.9, contrast: 1.12, lift: 0 },
    playful: { gain: [1.03, 1.0, 1.0], sat: 1.25, contrast: 1.04, lift: 0 },
    surprised: { gain: [1.05, 1.05, 1.05], sat: 1.05, contrast: 1.0, lift: 6 },
  }[vibe];
  if (!g) return;
  for (let i = 0; i < rgb.length; i += 3) {
    let r = rgb[i] * g.gain[0];
    let gr = rgb[i + 1] * g.gain[1];
    let b = rgb[i + 2] * g.gain[2];
    const l = 0.299 * r + 0.587 * gr + 0.114 * b;
    r = l + (r - l) * g.sat;
    gr = l + (gr - l) * g.sat;
    b = l + (b - l) * g.sat;
    const px = [r, gr, b].map((v) => (v - 128) * g.contrast + 128 + g.lift);
    for (let c = 0; c < 3; c++) {
      const before = rgb[i + c];
      const v = before + (px[c] - before) * strength;
      rgb[i + c] = before === 0 || before === 255 ? Math.min(255, Math.max(0, Math.round(v))) : Math.round(softLimit(v));
    }
  }
}

/** The vibe's grade is mixed in at this strength. */
const GRADE_STRENGTH = 0.5;

export class FacePhotoPortraitEngine implements PortraitEngine {
  readonly name = 'embedded-face-photo';
  readonly kind = 'photo' as const;
  readonly readsNotes = false;
  readonly appliedTraits = FACE_PHOTO_TRAITS;

  constructor(private readonly o: FacePhotoOptions) {}

  async render(req: PortraitRequest): Promise<PortraitResult> {
    if (req.faces.length === 0) throw new PersonaEngineError('NO_FACE_PHOTO', 'no face photo given');
    // The photo with the largest face carries the most detail.
    const best = [...req.faces].sort((a, b) => b.face.box.width * b.face.box.height - a.face.box.width * a.face.box.height)[0];
    const img = await this.o.decode(best.bytes);
    // The stored face is in the photo's pixels; the decoded copy may be smaller.
    const eyes = scaleEyes(eyesOf(best.face), img.scale ?? 1);
    const plan = planCrop(img.width, img.height, eyes);
    const side = cropSide(eyes, plan.span);
    const crop = alignedCrop(img, eyes, side, plan);
    const big = await this.o.upscale(crop, side, side);
    const enhanced = await this.o.resize({ width: side * 4, height: side * 4, data: big }, FACE_PORTRAIT_SIZE, FACE_PORTRAIT_SIZE);
    const out = { width: FACE_PORTRAIT_SIZE, height: FACE_PORTRAIT_SIZE, data: matchTone(enhanced.data, FACE_PORTRAIT_SIZE, crop, side) };
    gradeByVibe(out.data, req.chips.vibe ?? '', GRADE_STRENGTH);
    return { png: await this.o.encodePng(out), width: out.width, height: out.height, kind: 'photo' };
  }
}
