import path from 'node:path';
import { startFfmpeg, writeFrames } from '../media/ffmpeg-run.js';
import type { RawImage } from './image-format.js';

/**
 * Camera moves over a still image, rendered frame by frame: each frame is a window of the image
 * (a rectangle of the output's aspect that always lies inside the image, so no frame shows a border),
 * moved and scaled along an eased path and sampled bilinearly with sub-pixel precision (no integer
 * stepping, so slow moves do not judder), then encoded by ffmpeg (H.264, yuv420p, MP4 with the index
 * first) from raw frames on its standard input. Parallax composes two layers: the background moves
 * along the path, the foreground (a cut-out with alpha) moves further, like a nearer plane.
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
      sampleInto(r.background, cameraRect(r.motion, t, r.background.width, r.background.height, aspect), frame, r.width, r.height);
      if (r.foreground) {
        sampleInto(
          r.foreground,
          cameraRect(r.motion, t, r.foreground.width, r.foreground.height, aspect, r.foregroundAmount ?? 1.8),
          frame,
          r.width,
          r.height,
          true,
        );
      }
      await write(frame);
    }
  });
  return { frames };
}
