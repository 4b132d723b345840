import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FacePhotoReader } from '../../src/adapters/faces/worker.face-detector.js';
import { FACE_PHOTO_MAX_SIDE, decodeFacePhoto } from '../../src/adapters/faces/face-photo.read.js';
import { MAX_IMAGE_PIXELS } from '../../src/adapters/images/image-format.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import type { WorkerPool } from '../../src/adapters/workers/worker-pool.js';
import { tempDir } from '../helpers/app.js';
import { claimedPng, enlargedPhoto } from '../helpers/image-fixtures.js';
import { facePhoto } from '../helpers/persona-fixtures.js';

/**
 * Own-face photos read in the compute pool (second security audit, finding 2): the header and the 40 MP ceiling
 * first, then the face mesh on a copy of at most 2048 px, answered in the photo's own pixels; the
 * pool's threads bound how many photos are decoded at once (here one thread for three photos).
 */

let fx: string;
let pool: WorkerPool;
let face: string;

beforeAll(async () => {
  fx = tempDir('cutroom-face-read-');
  face = await facePhoto(path.join(fx, 'face.png'));
  pool = createComputePool(1);
}, 120_000);

afterAll(async () => {
  await pool?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

describe('FacePhotoReader in the compute pool', () => {
  it('reads three photos at once through its one thread: a 24 MP face in the photo’s pixels, a small photo as it is, 100 MP refused from the header', async () => {
    const big = await enlargedPhoto(face, 6000, 4000);
    const small = fs.readFileSync(face);
    const reader = new FacePhotoReader(pool);
    const [a, b, c] = await Promise.all([reader.read(big.bytes), reader.read(small), reader.read(claimedPng(100_000, 100_000))]);
    expect(pool.threadCount).toBe(1);

    expect(c).toEqual({ rejected: 'too_many_pixels', maxPixels: MAX_IMAGE_PIXELS });
    if ('rejected' in a || 'rejected' in b) throw new Error('photo refused');
    expect(a).toMatchObject({ contentType: 'image/jpeg', extension: '.jpg', width: 6000, height: 4000 });
    expect(b).toMatchObject({ contentType: 'image/png', extension: '.png', width: 640, height: 640 });
    expect(a.faces).toHaveLength(1);
    expect(b.faces).toHaveLength(1);
    // The same face, found on a 2048 px copy of the enlarged photo: its box and mesh scaled back to the
    // photo agree with the small photo's, enlarged 6.25× and moved by the canvas margin.
    const k = big.side / 640;
    const [fa, fb] = [a.faces[0], b.faces[0]];
    expect(fa.mesh).toHaveLength(468);
    expect(Math.abs(fa.box.x - (fb.box.x * k + big.left))).toBeLessThan(big.side * 0.03);
    expect(Math.abs(fa.box.width - fb.box.width * k)).toBeLessThan(big.side * 0.03);
    expect(Math.abs(fa.mesh[33][0] - (fb.mesh[33][0] * k + big.left))).toBeLessThan(big.side * 0.03);
    expect(Math.abs(fa.mesh[33][1] - fb.mesh[33][1] * k)).toBeLessThan(big.side * 0.03);
  }, 120_000);

  it('decodes a stored photo for its portrait at the same bound, with the scale of the copy', async () => {
    const big = await enlargedPhoto(face, 6000, 4000);
    const img = await decodeFacePhoto(big.bytes);
    expect({ width: img.width, height: img.height, scale: img.scale }).toEqual({ width: FACE_PHOTO_MAX_SIDE, height: 1365, scale: FACE_PHOTO_MAX_SIDE / 6000 });
    expect(img.data.length).toBe(img.width * img.height * 3);
  });
});
