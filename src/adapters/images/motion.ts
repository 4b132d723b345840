import path from 'node:path';
import { startFfmpeg, writeFrames } from '../media/ffmpeg-run.js';
import type { RawImage } from './image-format.js';

/**
 * Camera moves over a still image, rendered frame by frame: each frame is a window of the image
 * (a rectangle of the output's aspect that always lies inside the image, so no frame shows a border),
 * moved and scaled along an eased path and sampled bilinearly with sub-pixel precision (no integer
 * stepping, so slow moves do not judder), then encoded by ffmpeg (H.264, yuv420p, MP4 with the index
 * first) from raw frames on its standard input. Parallax composes two layers: the background moves
 * along the path, the foreground (a cut-out with alpha) moves further, like a nearer plane. With a face
 * found in the image, the move keeps it whole in every frame (faceRect); without one, cameraRect.
 */

export type Motion = 'zoom_in' | 'zoom_out' | 'pan_left' | 'pan_right' | 'push_in';
export const MOTIONS: readonly Motion[] = ['push_in', 'zoom_in', 'zoom_out', 'pan_left', 'pan_right'];

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Smooth start and stop: 0 → 1 with zero speed at both ends (pure). */
export function ease(t: number): number {
  const c = Math.min(1, Math.max(0, t));
  return 0.5 - 0.5 * Math.cos(Math.PI * c);
}

/** The largest rectangle of aspect `aspect` (w/h) inside a `w`×`h` image, centred (pure). */
export function coverRect(w: number, h: number, aspect: number): Rect {
  if (w / h > aspect) {
    const cw = h * aspect;
    return { x: (w - cw) / 2, y: 0, w: cw, h };
  }
  const ch = w / aspect;
  return { x: 0, y: (h - ch) / 2, w, h: ch };
}

/** How far each move goes: zoom factor reached, pan zoom. `strength` scales them (parallax foreground). */
const ZOOM = 1.3;
const PAN_ZOOM = 1.18;

/**
 * The window at progress `t` (0..1, eased here) for `motion` over a `w`×`h` image and an output of aspect
 * `aspect` (pure). `amount` scales the move (1 = the full move). With `amount` ≤ 1 the window always lies
 * inside the image: it is the camera's, which fills the frame. A nearer layer's (the parallax foreground,
 * `amount` > 1) pans further than the image's room allows and may leave it: what lies outside is
 * transparent, over the background window that fills the frame.
 */
export function cameraRect(motion: Motion, t: number, w: number, h: number, aspect: number, amount = 1): Rect {
  const base = coverRect(w, h, aspect);
  const e = ease(t);
  const zoomAt = (z: number, fx: number, fy: number): Rect => {
    const rw = base.w / z;
    const rh = base.h / z;
    // Centre on the focus point, then keep the window inside the image.
    const x = Math.min(Math.max(fx - rw / 2, 0), w - rw);
    const y = Math.min(Math.max(fy - rh / 2, 0), h - rh);
    return { x, y, w: rw, h: rh };
  };
  const cx = base.x + base.w / 2;
  const cy = base.y + base.h / 2;
  switch (motion) {
    case 'zoom_in':
      return zoomAt(1 + (ZOOM - 1) * amount * e, cx, cy);
    case 'zoom_out':
      return zoomAt(1 + (ZOOM - 1) * amount * (1 - e), cx, cy);
    case 'push_in': {
      // A push towards the upper third, where faces and subjects usually are.
      const z = 1 + (ZOOM + 0.1 - 1) * amount * e;
      return zoomAt(z, cx, cy - (base.h / 6) * amount * e);
    }
    case 'pan_left':
    case 'pan_right': {
      const z = 1 + (PAN_ZOOM - 1) * Math.min(1, amount);
      const rw = base.w / z;
      const rh = base.h / z;
      // Travel: the zoom's margin inside the cover window, scaled by `amount`; the camera's never past the
      // image, a nearer layer's as far as its amount says (centred, so both layers meet half-way).
      const slack = w - rw;
      const travel = (base.w - rw) * amount;
      const span = amount > 1 ? travel : Math.min(slack, travel);
      const start = (slack - span) / 2;
      const p = motion === 'pan_right' ? e : 1 - e;
      return { x: start + span * p, y: Math.min(Math.max(cy - rh / 2, 0), h - rh), w: rw, h: rh };
    }
  }
}

/** A face's box in the image's pixels (x, y top-left). */
export type FaceRect = Rect;

/** Grown by this share of its size on every side, the detector's face box holds the forehead and chin. */
const FACE_MARGIN = 0.2;
/** Pans keep the face inside the frame's safe area: this share of the frame in from each edge. */
const SAFE = 0.05;

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/** The face with its margin, within the image (pure). */
export function keepBox(face: FaceRect, w: number, h: number): Rect {
  const x0 = Math.max(0, face.x - face.w * FACE_MARGIN);
  const y0 = Math.max(0, face.y - face.h * FACE_MARGIN);
  const x1 = Math.min(w, face.x + face.w * (1 + FACE_MARGIN));
  const y1 = Math.min(h, face.y + face.h * (1 + FACE_MARGIN));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Whether `box` lies inside `r` with `inset` (a share of `r`'s size) kept free at every edge (pure). */
export function holds(r: Rect, box: Rect, inset = 0): boolean {
  const eps = 1e-6;
  return (
    r.w > 0 &&
    r.h > 0 &&
    box.x >= r.x + r.w * inset - eps &&
    box.y >= r.y + r.h * inset - eps &&
    box.x + box.w <= r.x + r.w * (1 - inset) + eps &&
    box.y + box.h <= r.y + r.h * (1 - inset) + eps
  );
}

/** A window of `rw`×`rh` centred on (fx, fy) as near as the image allows (pure). */
function windowAt(rw: number, rh: number, fx: number, fy: number, w: number, h: number): Rect {
  return { x: clamp(fx - rw / 2, 0, w - rw), y: clamp(fy - rh / 2, 0, h - rh), w: rw, h: rh };
}

/**
 * The face-aware move's first and last windows for `motion` (pure). The first is the cover window moved
 * (within the image) to hold the face; push-in ends centred on the face's upper third and zoom-in on its
 * centre, zoomed no further than keeps the face (with FACE_MARGIN) whole; zoom-out is zoom-in backwards;
 * pans run at the pan zoom (less if the face would not fit the safe area) over the part of today's
 * travel where the face stays in the safe area (SAFE; the whole frame when the face is too large for
 * it). Every window between two that hold the face holds it too (the windows are interpolated
 * linearly), so checking both ends suffices. Null when even the cover window cannot hold the face.
 */
export function faceMoveEnds(motion: Motion, w: number, h: number, aspect: number, face: FaceRect): { from: Rect; to: Rect; inset: number } | null {
  const base = coverRect(w, h, aspect);
  const k = keepBox(face, w, h);
  const hold = (rw: number, rh: number): Rect => ({
    x: clamp(clamp(base.x, k.x + k.w - rw, k.x), 0, w - rw),
    y: clamp(clamp(base.y, k.y + k.h - rh, k.y), 0, h - rh),
    w: rw,
    h: rh,
  });
  const start = hold(base.w, base.h);
  // A face the frame cannot hold at all (larger than the cover window): today's move.
  if (!holds(start, k)) return null;
  /** The largest zoom ≤ `z` whose window centred on (cx, cy) keeps the face whole. */
  const zoomLimit = (z: number, cx: number, cy: number) => {
    const dx = Math.max(cx - k.x, k.x + k.w - cx);
    const dy = Math.max(cy - k.y, k.y + k.h - cy);
    return Math.max(1, Math.min(z, base.w / (2 * dx), base.h / (2 * dy)));
  };
  switch (motion) {
    case 'push_in':
    case 'zoom_in':
    case 'zoom_out': {
      // Push-in: the face's upper third (about its eyes); zoom: its centre.
      const cx = face.x + face.w / 2;
      const cy = motion === 'push_in' ? face.y + face.h / 3 : face.y + face.h / 2;
      const z = zoomLimit(motion === 'push_in' ? ZOOM + 0.1 : ZOOM, cx, cy);
      const end = windowAt(base.w / z, base.h / z, cx, cy, w, h);
      return motion === 'zoom_out' ? { from: end, to: start, inset: 0 } : { from: start, to: end, inset: 0 };
    }
    case 'pan_left':
    case 'pan_right': {
      // The face in the safe area if it can be, else inside the frame.
      for (const inset of [SAFE, 0]) {
        const fit = Math.min((base.w * (1 - 2 * inset)) / k.w, (base.h * (1 - 2 * inset)) / k.h);
        if (fit < 1) continue;
        const z = Math.min(PAN_ZOOM, fit);
        const rw = base.w / z;
        const rh = base.h / z;
        const slack = w - rw;
        const span = Math.min(slack, base.w - rw);
        // Where the face stays inside the safe area, within the image.
        const lo = Math.max(0, k.x + k.w - rw * (1 - inset));
        const hi = Math.min(slack, k.x - rw * inset);
        const ylo = Math.max(0, k.y + k.h - rh * (1 - inset));
        const yhi = Math.min(h - rh, k.y - rh * inset);
        if (hi < lo || yhi < ylo) continue;
        const y = clamp(base.y + base.h / 2 - rh / 2, ylo, yhi);
        const travel = Math.min(span, hi - lo);
        const a = clamp((slack - span) / 2 + (span - travel) / 2, lo, hi - travel);
        const left = { x: a, y, w: rw, h: rh };
        const right = { x: a + travel, y, w: rw, h: rh };
        return motion === 'pan_right' ? { from: left, to: right, inset } : { from: right, to: left, inset };
      }
      // No room to travel with the face held: the cover window held on the face.
      return { from: start, to: start, inset: 0 };
    }
  }
}

/**
 * The face-aware window at progress `t` (eased here), `amount` times the move (pure): the nearer layer
 * of a parallax (`amount` > 1) moves further (a pan's layers meet half-way, as cameraRect's), but only
 * as far as still keeps the face as the camera does (whole, or in the safe area for pans). A face no
 * window can hold: cameraRect.
 */
export function faceRect(motion: Motion, t: number, w: number, h: number, aspect: number, face: FaceRect, amount = 1): Rect {
  const ends = faceMoveEnds(motion, w, h, aspect, face);
  if (!ends) return cameraRect(motion, t, w, h, aspect, amount);
  const { from, to, inset } = ends;
  const k = keepBox(face, w, h);
  const lerp = (e: number): Rect => ({
    x: from.x + (to.x - from.x) * e,
    y: from.y + (to.y - from.y) * e,
    w: from.w + (to.w - from.w) * e,
    h: from.h + (to.h - from.h) * e,
  });
  const pan = motion === 'pan_left' || motion === 'pan_right';
  // `amount` times the move: a pan's layers meet half-way (as cameraRect's), a zoom's start together.
  const at = (e: number, a: number): Rect => {
    if (!pan) return lerp(e * a);
    const m = lerp(0.5);
    const r = lerp(e);
    return { x: m.x + (r.x - m.x) * a, y: m.y + (r.y - m.y) * a, w: r.w, h: r.h };
  };
  let a = amount;
  while (a > 1 && !(holds(at(0, a), k, inset) && holds(at(1, a), k, inset))) a = Math.max(1, a - 0.05);
  return at(ease(t), a);
}

/**
 * Samples `rect` of `src` into an `outW`×`outH` RGB frame, bilinearly (pure). With an RGBA `src` and
 * `over`, the samples are composited over the frame already in `out` (premultiplied by alpha); outside
 * the image the layer is transparent (its edge pixels are not stretched).
 */
export function sampleInto(src: RawImage, rect: Rect, out: Uint8Array, outW: number, outH: number, over = false): void {
  const { width: sw, height: sh, channels: ch, data } = src;
  const sx = rect.w / outW;
  const sy = rect.h / outH;
  for (let oy = 0; oy < outH; oy++) {
    let fy = rect.y + (oy + 0.5) * sy - 0.5;
    if (over && (fy < -0.5 || fy > sh - 0.5)) continue;
    if (fy < 0) fy = 0;
    if (fy > sh - 1) fy = sh - 1;
    const y0 = Math.floor(fy);
    const y1 = y0 + 1 < sh ? y0 + 1 : y0;
    const wy = fy - y0;
    for (let ox = 0; ox < outW; ox++) {
      let fx = rect.x + (ox + 0.5) * sx - 0.5;
      if (over && (fx < -0.5 || fx > sw - 0.5)) continue;
      if (fx < 0) fx = 0;
      if (fx > sw - 1) fx = sw - 1;
      const x0 = Math.floor(fx);
      const x1 = x0 + 1 < sw ? x0 + 1 : x0;
      const wx = fx - x0;
      const a = (y0 * sw + x0) * ch;
      const b = (y0 * sw + x1) * ch;
      const c = (y1 * sw + x0) * ch;
      const d = (y1 * sw + x1) * ch;
      const w00 = (1 - wx) * (1 - wy);
      const w01 = wx * (1 - wy);
      const w10 = (1 - wx) * wy;
      const w11 = wx * wy;
      const o = (oy * outW + ox) * 3;
      if (!over) {
        out[o] = data[a] * w00 + data[b] * w01 + data[c] * w10 + data[d] * w11 + 0.5;
        out[o + 1] = data[a + 1] * w00 + data[b + 1] * w01 + data[c + 1] * w10 + data[d + 1] * w11 + 0.5;
        out[o + 2] = data[a + 2] * w00 + data[b + 2] * w01 + data[c + 2] * w10 + data[d + 2] * w11 + 0.5;
      } else {
        const aa = data[a + 3] * w00;
        const ab = data[b + 3] * w01;
        const ac = data[c + 3] * w10;
        const ad = data[d + 3] * w11;
        const alpha = (aa + ab + ac + ad) / 255;
        if (alpha <= 0) continue;
        for (let k = 0; k < 3; k++) {
          const premul = (data[a + k] * aa + data[b + k] * ab + data[c + k] * ac + data[d + k] * ad) / 255;
          out[o + k] = premul + out[o + k] * (1 - alpha) + 0.5;
        }
      }
    }
  }
}

/** Even output dimensions of `aspect` with the short side `short` (H.264 in yuv420p needs even sizes; pure). */
export function outputSize(aspect: string, short: number): { width: number; height: number } {
  const [aw, ah] = aspect.split(':').map(Number);
  const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);
  return aw >= ah ? { width: even((short * aw) / ah), height: even(short) } : { width: even(short), height: even((short * ah) / aw) };
}

export interface MotionRender {
  /** The image the camera looks at (RGB); its size should be at least the output's for sharp frames. */
  background: RawImage;
  /** The main face in the image's pixels: the move keeps it whole (faceRect); null or absent: today's move (cameraRect). */
  face?: FaceRect | null;
  /** Parallax: the cut-out layer (RGBA, same size as `background`), moved `foregroundAmount` times as far. */
  foreground?: RawImage;
  foregroundAmount?: number;
  motion: Motion;
  seconds: number;
  fps: number;
  width: number;
  height: number;
  outFile: string;
  signal?: { aborted: boolean };
  timeoutMs?: number;
}

/** Renders the frames and encodes them into `outFile` (MP4, H.264, no sound). */
export async function renderMotion(r: MotionRender): Promise<{ frames: number }> {
  const frames = Math.max(2, Math.round(r.seconds * r.fps));
  const aspect = r.width / r.height;
  const ff = startFfmpeg(
    [
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${r.width}x${r.height}`,
      '-framerate',
      String(r.fps),
      '-i',
      'pipe:0',
      '-an',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-frames:v',
      String(frames),
      '-f',
      'mp4',
      '-y',
      `file:${path.resolve(r.outFile)}`,
    ],
    { stdin: 'pipe', timeoutMs: r.timeoutMs, durationSeconds: r.seconds },
  );
  await writeFrames(ff, async (write) => {
    for (let i = 0; i < frames; i++) {
      if (r.signal?.aborted) throw new Error('render aborted');
      const t = i / (frames - 1);
      const frame = new Uint8Array(r.width * r.height * 3);
      const rect = (img: RawImage, amount: number) =>
        r.face ? faceRect(r.motion, t, img.width, img.height, aspect, r.face, amount) : cameraRect(r.motion, t, img.width, img.height, aspect, amount);
      sampleInto(r.background, rect(r.background, 1), frame, r.width, r.height);
      if (r.foreground) {
        sampleInto(r.foreground, rect(r.foreground, r.foregroundAmount ?? 1.8), frame, r.width, r.height, true);
      }
      await write(frame);
    }
  });
  return { frames };
}
