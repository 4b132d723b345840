import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFacePhoto } from '../../src/adapters/faces/face-photo.read.js';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { decodeImage, encodePng, resizeRaw } from '../../src/adapters/images/image-format.js';
import { imageUpscale } from '../../src/adapters/images/images.tasks.js';
import { FacePhotoPortraitEngine } from '../../src/adapters/personas/face-photo.portrait.js';
import type { MeshFace } from '../../src/ports/face-detector.js';
import { tempDir } from '../helpers/app.js';
import { syntheticFace } from '../helpers/persona-fixtures.js';
import { borderStreaks, clippedShare, meshBox, type Rgb } from '../helpers/portrait-checks.js';

/**
 * The own-face portrait engine (ESRGAN enhancement on the event loop, as with 0 compute threads) on the
 * six synthetic faces as they are: each fills its 512 px frame, so the head-and-shoulders crop runs past
 * the photo on every side. The face is found on a copy padded with grey (the detector needs margin
 * around a face that fills the frame) and moved back into the photo's pixels, as the upload's reading
 * answers it. Every portrait: no border streak (border-streak detector, runs of 32 px), the face's
 * clipped pixels at most the photo's share plus 2 points, the face's mean colour near the photo's.
 * The PNGs are written to test-output/personas/.
 */

const OUTPUT_DIR = path.resolve('test-output/personas');
const FACES = [42, 44, 45, 49, 53, 55] as const;
const PAD = 128;
const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

let fx: string;
let detector: HumanFaceDetector;
let engine: FacePhotoPortraitEngine;

beforeAll(async () => {
  fx = tempDir('cutroom-face-portrait-');
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  detector = await HumanFaceDetector.create({ mesh: true });
  let k = 0;
  // The factory's wiring (persona-engines.factory.ts) without the compute pool.
  engine = new FacePhotoPortraitEngine({
    decode: decodeFacePhoto,
    upscale: async (rgb, width, height) => {
      const file = path.join(fx, `crop-${k}.png`);
      const outFile = path.join(fx, `up-${k++}.png`);
      await encodePng({ width, height, channels: 3, data: asBuffer(rgb) }, file);
      await imageUpscale({ file, outFile });
      return (await decodeImage(outFile)).data;
    },
    resize: async (img, width, height) => resizeRaw({ ...img, channels: 3, data: asBuffer(img.data) }, width, height),
    encodePng: async (img) => (await encodePng({ width: img.width, height: img.height, channels: 3, data: asBuffer(img.data) }))!,
  });
}, 120_000);

afterAll(async () => {
  await detector?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

/** The main face of `img` with its mesh, found on a copy padded by PAD grey pixels, in `img`'s pixels. */
async function faceOf(img: Rgb): Promise<MeshFace> {
  const w = img.width + 2 * PAD;
  const h = img.height + 2 * PAD;
  const padded = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) padded.set([0x80, 0x88, 0x90], i * 3);
  for (let y = 0; y < img.height; y++) padded.set(img.data.subarray(y * img.width * 3, (y + 1) * img.width * 3), ((y + PAD) * w + PAD) * 3);
  const face = (await detector.detectMesh({ width: w, height: h, data: padded })).find((f) => f.mesh.length === 468);
  if (!face) throw new Error('no face with a mesh');
  return {
    score: face.score,
    box: { ...face.box, x: face.box.x - PAD, y: face.box.y - PAD },
    mesh: face.mesh.map(([x, y]) => [x - PAD, y - PAD] as [number, number]),
  };
}

/** Mean colour inside a box. */
function meanColour(img: Rgb, box: { x: number; y: number; width: number; height: number }): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(img.height, box.y + box.height); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(img.width, box.x + box.width); x++, n++) {
      for (let c = 0; c < 3; c++) sum[c] += img.data[(y * img.width + x) * 3 + c];
    }
  }
  return sum.map((s) => s / n);
}

describe('own-face portraits from photos the crop runs past', () => {
  for (const n of FACES) {
    it(`face-${n}: no border streaks, no added clipping in the face, the face's tone kept`, async () => {
      const file = syntheticFace(n);
      const photo = await decodeImage(file);
      const face = await faceOf(photo);
      const res = await engine.render({ chips: { vibe: 'friendly' }, note: null, faces: [{ id: `face_${n}`, bytes: fs.readFileSync(file), face }], seed: 's' });
      fs.writeFileSync(path.join(OUTPUT_DIR, `portrait-face-${n}.png`), res.png);
      const out = await decodeImage(Buffer.from(res.png));
      expect([out.width, out.height]).toEqual([768, 768]);

      expect(borderStreaks(out), `face-${n} streaks`).toEqual([]);

      const outFace = await faceOf(out);
      const srcBox = meshBox(face.mesh);
      const outBox = meshBox(outFace.mesh);
      const srcClipped = clippedShare(photo, srcBox);
      expect(clippedShare(out, outBox), `face-${n} clipped (photo ${srcClipped.toFixed(3)})`).toBeLessThanOrEqual(srcClipped + 0.02);
      // The tone: the face's mean colour within 20 levels of the photo's in every channel (the vibe's warmth is gentle).
      const a = meanColour(photo, srcBox);
      const b = meanColour(out, outBox);
      for (let c = 0; c < 3; c++) expect(Math.abs(a[c] - b[c]), `face-${n} channel ${c}: ${a.map(Math.round)} → ${b.map(Math.round)}`).toBeLessThan(20);
    }, 120_000);
  }
});
