import type { TaskContext } from '../workers/worker-protocol.js';
import { faceDetect } from '../faces/human.tasks.js';
import { blurRaw, decodeImage, encodePng, resizeRaw, type RawImage } from './image-format.js';
import { renderMotion, outputSize, type FaceRect, type Motion } from './motion.js';
import { SelfieSegmenter } from './segmenter.js';
import { EsrganSlim, UPSCALE_FACTOR } from './upscaler.js';

/**
 * The embedded image models as worker-thread tasks (src/adapters/workers/compute.worker.ts): each thread
 * loads a model on first use and keeps it; files cross the thread boundary as paths (the thread reads
 * and writes them itself). Also run on the event loop when the pool has no threads (0).
 */

let upscaler: Promise<EsrganSlim> | undefined;
let segmenter: Promise<SelfieSegmenter> | undefined;

function loadUpscaler(): Promise<EsrganSlim> {
  upscaler ??= EsrganSlim.load();
  upscaler.catch(() => (upscaler = undefined));
  return upscaler;
}

function loadSegmenter(): Promise<SelfieSegmenter> {
  segmenter ??= SelfieSegmenter.load();
  segmenter.catch(() => (segmenter = undefined));
  return segmenter;
}

export interface ImageOut {
  width: number;
  height: number;
  /** The engine that ran (`esrgan-slim-x4/wasm`). */
  engine: string;
}

/**
 * upscale-x4: the image 4× larger with ESRGAN slim, as PNG at `outFile`. An image with transparency (a
 * cut-out) keeps it: the colours go through the network, the alpha channel is enlarged with Lanczos.
 */
export async function imageUpscale(task: { file: string; outFile: string }, ctx: TaskContext = {}): Promise<ImageOut> {
  const model = await loadUpscaler();
  const rgba = await decodeImage(task.file, { alpha: true });
  const n = rgba.width * rgba.height;
  const rgbIn = Buffer.alloc(n * 3);
  const alphaIn = Buffer.alloc(n * 3);
  let transparent = false;
  for (let i = 0; i < n; i++) {
    rgbIn[i * 3] = rgba.data[i * 4];
    rgbIn[i * 3 + 1] = rgba.data[i * 4 + 1];
    rgbIn[i * 3 + 2] = rgba.data[i * 4 + 2];
    const a = rgba.data[i * 4 + 3];
    alphaIn[i * 3] = alphaIn[i * 3 + 1] = alphaIn[i * 3 + 2] = a;
    if (a !== 255) transparent = true;
  }
  const rgb = await model.upscale(rgbIn, rgba.width, rgba.height, ctx.signal);
  const width = rgba.width * UPSCALE_FACTOR;
  const height = rgba.height * UPSCALE_FACTOR;
  if (!transparent) {
    await encodePng({ width, height, channels: 3, data: Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength) }, task.outFile);
  } else {
    const alpha = await resizeRaw({ width: rgba.width, height: rgba.height, channels: 3, data: alphaIn }, width, height);
    const out = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      out[i * 4] = rgb[i * 3];
      out[i * 4 + 1] = rgb[i * 3 + 1];
      out[i * 4 + 2] = rgb[i * 3 + 2];
      out[i * 4 + 3] = alpha.data[i * 3];
    }
    await encodePng({ width, height, channels: 4, data: out }, task.outFile);
  }
  return { width, height, engine: `esrgan-slim-x4/${model.backend}` };
}

/** The matte of an RGB image at its own size: one byte per pixel, edges softened a little. */
async function matteOf(src: RawImage): Promise<Buffer> {
  const model = await loadSegmenter();
  const small = await resizeRaw(src, model.inputWidth, model.inputHeight, 'linear');
  const m = model.segment(small.data);
  const up = await resizeRaw({ width: model.inputWidth, height: model.inputHeight, channels: 3, data: Buffer.from(grey3(m)) }, src.width, src.height, 'linear');
  const soft = await blurRaw(up, Math.max(0.6, Math.min(src.width, src.height) / 400));
  const out = Buffer.alloc(src.width * src.height);
  for (let i = 0; i < out.length; i++) out[i] = soft.data[i * 3];
  return out;
}

function grey3(m: Uint8Array): Uint8Array {
  const out = new Uint8Array(m.length * 3);
  for (let i = 0; i < m.length; i++) out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = m[i];
  return out;
}

/** cutout: the person/foreground on transparency (PNG with alpha), or on a solid colour. */
export async function imageCutout(task: {
  file: string;
  outFile: string;
  background: [number, number, number] | null;
}): Promise<ImageOut & { coverage: number }> {
  const src = await decodeImage(task.file);
  const matte = await matteOf(src);
  let sum = 0;
  for (const v of matte) sum += v;
  const coverage = sum / 255 / matte.length;
  if (task.background) {
    const [r, g, b] = task.background;
    const out = Buffer.alloc(src.width * src.height * 3);
    for (let i = 0; i < matte.length; i++) {
      const a = matte[i] / 255;
      out[i * 3] = src.data[i * 3] * a + r * (1 - a) + 0.5;
      out[i * 3 + 1] = src.data[i * 3 + 1] * a + g * (1 - a) + 0.5;
      out[i * 3 + 2] = src.data[i * 3 + 2] * a + b * (1 - a) + 0.5;
    }
    await encodePng({ width: src.width, height: src.height, channels: 3, data: out }, task.outFile);
  } else {
    await encodePng(withAlpha(src, matte), task.outFile);
  }
  return { width: src.width, height: src.height, engine: 'mediapipe-selfie-segmentation', coverage };
}

function withAlpha(src: RawImage, matte: Uint8Array): RawImage {
  const out = Buffer.alloc(src.width * src.height * 4);
  for (let i = 0; i < matte.length; i++) {
    out[i * 4] = src.data[i * 3];
    out[i * 4 + 1] = src.data[i * 3 + 1];
    out[i * 4 + 2] = src.data[i * 3 + 2];
    out[i * 4 + 3] = matte[i];
  }
  return { width: src.width, height: src.height, channels: 4, data: out };
}

/**
 * The background plate of a parallax: the subject's area filled from its surroundings (a normalised
 * blur of the image weighted by the inverse matte), so the moving foreground does not uncover a copy
 * of itself.
 */
async function backgroundPlate(src: RawImage, matte: Uint8Array): Promise<RawImage> {
  const n = matte.length;
  const weighted = Buffer.alloc(n * 3);
  const weight = Buffer.alloc(n * 3);
  // The matte grown a little (its soft edge still holds subject colours).
  for (let i = 0; i < n; i++) {
    const keep = matte[i] < 24 ? 1 : 0;
    weighted[i * 3] = src.data[i * 3] * keep;
    weighted[i * 3 + 1] = src.data[i * 3 + 1] * keep;
    weighted[i * 3 + 2] = src.data[i * 3 + 2] * keep;
    weight[i * 3] = weight[i * 3 + 1] = weight[i * 3 + 2] = keep * 255;
  }
  const sigma = Math.max(4, Math.min(src.width, src.height) / 12);
  const [bw, bm] = await Promise.all([blurRaw({ ...src, channels: 3, data: weighted }, sigma), blurRaw({ ...src, channels: 3, data: weight }, sigma)]);
  const out = Buffer.from(src.data);
  for (let i = 0; i < n; i++) {
    const a = matte[i] / 255;
    if (a <= 0) continue;
    const w = bm.data[i * 3] / 255;
    for (let k = 0; k < 3; k++) {
      const fill = w > 0.02 ? bw.data[i * 3 + k] / w : src.data[i * 3 + k];
      out[i * 3 + k] = Math.min(255, src.data[i * 3 + k] * (1 - a) + fill * a + 0.5);
    }
  }
  return { width: src.width, height: src.height, channels: 3, data: out };
}

export interface MotionTask {
  file: string;
  outFile: string;
  motion: Motion;
  seconds: number;
  fps: number;
  /** `16:9`, `9:16`, `1:1`, `4:5`. */
  aspect: string;
  /** The output's short side in pixels. */
  short: number;
  parallax: boolean;
  timeoutMs?: number;
}

/**
 * The main face of an image for its camera move (the largest BlazeFace box, in the image's pixels), null
 * when it has none. Found on a copy at most MOTION_DETECT_SIDE px on its long side (the detector reads a
 * 256 px square).
 */
async function mainFace(image: RawImage): Promise<FaceRect | null> {
  const scale = Math.min(1, MOTION_DETECT_SIDE / Math.max(image.width, image.height));
  const small = scale < 1 ? await resizeRaw(image, Math.round(image.width * scale), Math.round(image.height * scale), 'linear') : image;
  const { boxes } = await faceDetect({ opts: {}, width: small.width, height: small.height, data: Uint8Array.from(small.data) });
  const best = [...boxes].sort((a, b) => b.width * b.height - a.width * a.height)[0];
  if (!best) return null;
  return { x: best.x * image.width, y: best.y * image.height, w: best.width * image.width, h: best.height * image.height };
}

const MOTION_DETECT_SIDE = 1024;

/** camera-motion and parallax: an MP4 of the move over the image, keeping its main face whole when it has one. */
export async function imageMotion(
  task: MotionTask,
  ctx: TaskContext = {},
): Promise<{ width: number; height: number; frames: number; engine: string; face: FaceRect | null }> {
  const { width, height } = outputSize(task.aspect, task.short);
  // The image at a size where the tightest window of the move still has about one source pixel per output pixel.
  const scale = 1.5;
  const cover = { width: Math.round(width * scale), height: Math.round(height * scale) };
  // Resized while decoding (sharp's `outside`: the smallest size covering both sides, aspect kept), so a
  // 40 MP reference costs the cover's pixels, not its own.
  const image = await decodeImage(task.file, { resize: { ...cover, fit: 'outside' } });
  const face = await mainFace(image);
  let background = image;
  let foreground: RawImage | undefined;
  if (task.parallax) {
    const matte = await matteOf(image);
    background = await backgroundPlate(image, matte);
    foreground = withAlpha(image, matte);
  }
  const { frames } = await renderMotion({
    background,
    foreground,
    motion: task.motion,
    face,
    seconds: task.seconds,
    fps: task.fps,
    width,
    height,
    outFile: task.outFile,
    signal: ctx.signal,
    timeoutMs: task.timeoutMs,
  });
  return { width, height, frames, engine: task.parallax ? 'parallax/selfie-segmentation+ffmpeg' : 'camera-motion/ffmpeg', face };
}
