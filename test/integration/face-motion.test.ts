import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { decodeImage } from '../../src/adapters/images/image-format.js';
import { imageMotion, type MotionTask } from '../../src/adapters/images/images.tasks.js';
import { tempDir } from '../helpers/app.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { syntheticFace } from '../helpers/persona-fixtures.js';

/**
 * Face-aware camera moves (camera-motion and parallax, the embedded engine run on the event loop) over
 * a 1280×720 scene with a synthetic face off to the right, where today's centred moves cut it: sampled
 * frames are read back and the face detector must find the face whole in each (its box clear of the
 * frame's edges, both eyes and the mouth of its mesh inside); a push-in ends centred on the face's
 * upper third where the image has room around the face. A scene without a face moves as before (the centred push-in).
 */

const W = 1280;
const H = 720;
const FACE = 240;
let fx: string;
/** The face off to the right (today's centred moves cut it), and where a push-in can centre on it. */
let scene: string;
let centrable: string;
let blank: string;
let boxes: HumanFaceDetector;
let mesh: HumanFaceDetector;

beforeAll(async () => {
  fx = tempDir('cutroom-face-motion-');
  const bg = Buffer.alloc(W * H * 3);
  // A soft two-way gradient: a wall, nothing a face detector would score.
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      bg[i] = 90 + Math.round((60 * x) / W);
      bg[i + 1] = 100 + Math.round((40 * y) / H);
      bg[i + 2] = 120;
    }
  }
  const face = await sharp(syntheticFace(53)).resize(FACE, FACE).toBuffer();
  const withFace = async (name: string, left: number, top: number) => {
    const file = path.join(fx, name);
    await sharp(bg, { raw: { width: W, height: H, channels: 3 } })
      .composite([{ input: face, left, top }])
      .png()
      .toFile(file);
    return file;
  };
  blank = path.join(fx, 'blank.png');
  await sharp(bg, { raw: { width: W, height: H, channels: 3 } })
    .png()
    .toFile(blank);
  scene = await withFace('scene.png', 900, 80);
  centrable = await withFace('centrable.png', 660, 200);
  boxes = await HumanFaceDetector.create({});
  mesh = await HumanFaceDetector.create({ mesh: true });
}, 120_000);

afterAll(async () => {
  await boxes?.close();
  await mesh?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

async function render(name: string, task: Partial<MotionTask>) {
  const outFile = path.join(fx, `${name}.mp4`);
  const res = await imageMotion({ file: scene, outFile, motion: 'push_in', seconds: 2, fps: 30, aspect: '16:9', short: 360, parallax: false, ...task });
  return { ...res, outFile };
}

/** Frame `n` of a video, decoded. */
async function frame(file: string, n: number) {
  const png = path.join(fx, `${path.basename(file)}-${n}.png`);
  await runFfmpeg(['-i', file, '-vf', `select=eq(n\\,${n})`, '-fps_mode', 'passthrough', '-frames:v', '1', png]);
  return decodeImage(png);
}

/** The face in the frame, checked whole: its box clear of the edges, eyes and mouth inside. Answers its box (0..1). */
async function wholeFace(img: { width: number; height: number; data: Uint8Array }, label: string) {
  const [box] = await boxes.detect({ width: img.width, height: img.height, data: img.data.slice() });
  expect(box, `${label}: a face`).toBeDefined();
  // A face cut by the frame has its box clipped to it (0 or 1 on a side).
  expect(box.x, `${label} left`).toBeGreaterThan(0.005);
  expect(box.y, `${label} top`).toBeGreaterThan(0.005);
  expect(box.x + box.width, `${label} right`).toBeLessThan(0.995);
  expect(box.y + box.height, `${label} bottom`).toBeLessThan(0.995);
  const [m] = await mesh.detectMesh({ width: img.width, height: img.height, data: img.data.slice() });
  expect(m?.mesh.length, `${label}: a mesh`).toBe(468);
  // Eye corners (33, 133, 263, 362) and mouth corners and lips (61, 291, 13, 14).
  for (const i of [33, 133, 263, 362, 61, 291, 13, 14]) {
    const [x, y] = m.mesh[i];
    expect(x > 0 && x < img.width && y > 0 && y < img.height, `${label} point ${i} (${x.toFixed(0)}, ${y.toFixed(0)})`).toBe(true);
  }
  return box;
}

describe('face-aware camera moves', () => {
  it('camera-motion push-in: the face whole in the first, middle and last frames, the last nearer centred on it', async () => {
    const r = await render('push-in', {});
    expect(r.face).not.toBeNull();
    expect(r.frames).toBe(60);
    const seen = [];
    for (const n of [0, 30, 59]) seen.push(await wholeFace(await frame(r.outFile, n), `push-in frame ${n}`));
    // The image ends 280 px right of the face: the push goes towards it as far as the image allows.
    const centre = (b: { x: number; width: number }) => b.x + b.width / 2;
    expect(centre(seen[2]) - 0.5).toBeLessThan(centre(seen[0]) - 0.5);
  }, 180_000);

  it('camera-motion push-in with room around the face: it ends centred on the face’s upper third', async () => {
    const r = await render('push-in-centred', { file: centrable });
    const last = await wholeFace(await frame(r.outFile, 59), 'centred push-in last frame');
    expect(Math.abs(last.x + last.width / 2 - 0.5), 'face centred across').toBeLessThan(0.06);
    expect(Math.abs(last.y + last.height / 3 - 0.5), 'upper third centred down').toBeLessThan(0.06);
  }, 180_000);

  it('parallax pan: the face inside the frame in every sampled frame', async () => {
    const r = await render('parallax-pan', { motion: 'pan_left', aspect: '1:1', parallax: true });
    expect(r.face).not.toBeNull();
    for (const n of [0, 12, 24, 36, 48, 59]) await wholeFace(await frame(r.outFile, n), `parallax pan frame ${n}`);
  }, 180_000);

  it('without a face, the move is the centred one it was', async () => {
    const outFile = path.join(fx, 'blank.mp4');
    const r = await imageMotion({ file: blank, outFile, motion: 'push_in', seconds: 1, fps: 30, aspect: '16:9', short: 360, parallax: false });
    expect(r.face).toBeNull();
    expect(r.frames).toBe(30);
  }, 120_000);
});
