import { sampleBilinear } from './face-warp.js';
import { PersonaEngineError, type FacePhoto, type PortraitEngine, type PortraitRequest, type PortraitResult } from '../../ports/persona-engines.js';

/**
 * The embedded portrait from the caller's own face photos (a `photo`): the photo with the largest
 * detected face is aligned on its eyes (rotated level, scaled so the eyes sit at the same place in
 * every portrait) and cropped to a square head-and-shoulders portrait of up to 256 px, enhanced 4× by
 * the ESRGAN super-resolution model, resized to 768 px and colour-graded by the `vibe` trait. It
 * applies `vibe` only (FACE_PHOTO_TRAITS): everything else is the person's own face.
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

/**
 * The square crop of `side` pixels aligned on the eyes, sampled bilinearly from `img` (pure):
 * rotation levels the eye line; pixels outside the photo repeat its edge.
 */
export function alignedCrop(
  img: { width: number; height: number; data: Uint8Array },
  eyes: { left: [number, number]; right: [number, number] },
  side: number,
): Uint8Array {
  const [lx, ly] = eyes.left;
  const [rx, ry] = eyes.right;
  const dist = Math.hypot(rx - lx, ry - ly);
  const angle = Math.atan2(ry - ly, rx - lx);
  // Source pixels per output pixel.
  const s = dist / (EYE_SPAN * side);
  const cos = Math.cos(angle) * s;
  const sin = Math.sin(angle) * s;
  const [cx, cy] = mid(eyes.left, eyes.right);
  const out = new Uint8Array(side * side * 3);
  const px = new Float32Array(3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const u = x + 0.5 - side / 2;
      const v = y + 0.5 - side * EYE_Y;
      sampleBilinear(img, 3, cx + u * cos - v * sin - 0.5, cy + u * sin + v * cos - 0.5, px);
      const o = (y * side + x) * 3;
      for (let c = 0; c < 3; c++) out[o + c] = Math.round(px[c]);
    }
  }
  return out;
}

/** The crop side: the eyes' distance in the photo scaled to the portrait, within 96..256 (pure). */
export function cropSide(eyes: { left: [number, number]; right: [number, number] }): number {
  const dist = Math.hypot(eyes.right[0] - eyes.left[0], eyes.right[1] - eyes.left[1]);
  return Math.round(Math.min(MAX_CROP, Math.max(MIN_CROP, dist / EYE_SPAN)));
}

/** The colour grade of a `vibe` (pure, in place): warm, soft, cool and contrasted, vivid, bright. */
export function gradeByVibe(rgb: Uint8Array, vibe: string): void {
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
    for (let c = 0; c < 3; c++) rgb[i + c] = px[c] < 0 ? 0 : px[c] > 255 ? 255 : Math.round(px[c]);
  }
}

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
    const side = cropSide(eyes);
    const crop = alignedCrop(img, eyes, side);
    const big = await this.o.upscale(crop, side, side);
    const out = await this.o.resize({ width: side * 4, height: side * 4, data: big }, FACE_PORTRAIT_SIZE, FACE_PORTRAIT_SIZE);
    gradeByVibe(out.data, req.chips.vibe ?? '');
    return { png: await this.o.encodePng(out), width: out.width, height: out.height, kind: 'photo' };
  }
}
