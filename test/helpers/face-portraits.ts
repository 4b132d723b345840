import path from 'node:path';
import { decodeFacePhoto } from '../../src/adapters/faces/face-photo.read.js';
import type { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { decodeImage, encodePng, resizeRaw } from '../../src/adapters/images/image-format.js';
import { imageUpscale } from '../../src/adapters/images/images.tasks.js';
import { FacePhotoPortraitEngine } from '../../src/adapters/personas/face-photo.portrait.js';
import type { MeshFace } from '../../src/ports/face-detector.js';
import type { Rgb } from './portrait-checks.js';

/**
 * The own-face portrait engine as the service wires it (persona-engines.factory.ts) without the compute
 * pool (ESRGAN on the event loop), its crops written in `dir`; and the main face of a picture found
 * with margin. Used by the portrait tests and `npm run eval`.
 */

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export function facePortraitEngine(dir: string): FacePhotoPortraitEngine {
  let k = 0;
  return new FacePhotoPortraitEngine({
    decode: decodeFacePhoto,
    upscale: async (rgb, width, height) => {
      const file = path.join(dir, `crop-${k}.png`);
      const outFile = path.join(dir, `up-${k++}.png`);
      await encodePng({ width, height, channels: 3, data: asBuffer(rgb) }, file);
      await imageUpscale({ file, outFile });
      return (await decodeImage(outFile)).data;
    },
    resize: async (img, width, height) => resizeRaw({ ...img, channels: 3, data: asBuffer(img.data) }, width, height),
    encodePng: async (img) => (await encodePng({ width: img.width, height: img.height, channels: 3, data: asBuffer(img.data) }))!,
  });
}

/** Grey margin around a picture for the detector (a face filling its frame is not always found without). */
const PAD = 128;

/** The main face of `img` with its mesh (a mesh detector), found on a copy padded by PAD grey pixels, in `img`'s pixels. */
export async function meshFaceOf(detector: HumanFaceDetector, img: Rgb): Promise<MeshFace> {
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
