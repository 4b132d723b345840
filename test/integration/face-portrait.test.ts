import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { decodeImage } from '../../src/adapters/images/image-format.js';
import type { FacePhotoPortraitEngine } from '../../src/adapters/personas/face-photo.portrait.js';
import { tempDir } from '../helpers/app.js';
import { facePortraitEngine, meshFaceOf } from '../helpers/face-portraits.js';
import { syntheticFace } from '../helpers/persona-fixtures.js';
import { borderStreaks, clippedShare, meanColour, meshBox } from '../helpers/portrait-checks.js';

/**
 * The own-face portrait engine (ESRGAN enhancement on the event loop, as with 0 compute threads) on the
 * six synthetic faces as they are: each fills its 512 px frame, so the head-and-shoulders crop runs past
 * the photo on every side. The face is found on a copy padded with grey (the detector needs margin
 * around a face that fills the frame) and moved back into the photo's pixels, as the upload's reading
 * answers it (face-portraits.ts). Every portrait: no border streak (border-streak detector, runs of 32 px), the face's
 * clipped pixels at most the photo's share plus 2 points, the face's mean colour near the photo's.
 * The PNGs are written to test-output/personas/.
 */

const OUTPUT_DIR = path.resolve('test-output/personas');
const FACES = [42, 44, 45, 49, 53, 55] as const;

let fx: string;
let detector: HumanFaceDetector;
let engine: FacePhotoPortraitEngine;

beforeAll(async () => {
  fx = tempDir('cutroom-face-portrait-');
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  detector = await HumanFaceDetector.create({ mesh: true });
  engine = facePortraitEngine(fx);
}, 120_000);

afterAll(async () => {
  await detector?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

describe('own-face portraits from photos the crop runs past', () => {
  for (const n of FACES) {
    it(`face-${n}: no border streaks, no added clipping in the face, the face's tone kept`, async () => {
      const file = syntheticFace(n);
      const photo = await decodeImage(file);
      const face = await meshFaceOf(detector, photo);
      const res = await engine.render({ chips: { vibe: 'friendly' }, note: null, faces: [{ id: `face_${n}`, bytes: fs.readFileSync(file), face }], seed: 's' });
      fs.writeFileSync(path.join(OUTPUT_DIR, `portrait-face-${n}.png`), res.png);
      const out = await decodeImage(Buffer.from(res.png));
      expect([out.width, out.height]).toEqual([768, 768]);

      expect(borderStreaks(out), `face-${n} streaks`).toEqual([]);

      const outFace = await meshFaceOf(detector, out);
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
