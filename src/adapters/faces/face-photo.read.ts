import type { MeshFace } from '../../ports/face-detector.js';
import { ImageRejected, MAX_IMAGE_PIXELS, readImage } from '../images/image-format.js';
import { faceMeshDetect } from './human.tasks.js';

/**
 * An own-face photo read for `POST /personas/faces` and for the portrait made from it, within bounds:
 * its header first (above MAX_IMAGE_PIXELS refused before any pixel is decoded), then a copy of at most
 * FACE_PHOTO_MAX_SIDE pixels on its long side, decoded shrunk (readImage), on which the face and its
 * mesh are found; the face is answered in the photo's own pixels. A pool task (compute.worker.ts):
 * FacePhotoReader (worker.face-detector.ts) runs it in the compute pool's threads, so at most one photo
 * per thread is decoded at a time, and the detector's memory (its WebAssembly heap never shrinks) is
 * bounded by the copy, not by the photo.
 */

/**
 * The long side a face photo is read at. BlazeFace sees the whole (letterboxed) frame at 256×256 and the
 * mesh a crop around the face, so more pixels add nothing to what is found; the detector's input tensor
 * (int32, squared) of a 6000×4000 photo is 432 MB, of its 2048 px copy 50 MB.
 */
export const FACE_PHOTO_MAX_SIDE = 2048;

/** What a face photo reads as: its sniffed type, its own size and the faces found (in its pixels, best first). */
export interface FacePhotoReading {
  contentType: string;
  extension: string;
  width: number;
  height: number;
  faces: MeshFace[];
}

/** The reading, or why the photo is refused (`too_many_pixels` with the ceiling). */
export type FacePhotoRead = FacePhotoReading | { rejected: ImageRejected['reason']; maxPixels?: number };

/** The pool task: reads the photo's header, decodes the bounded copy and finds its faces. */
export async function facePhotoRead(task: { bytes: Uint8Array }): Promise<FacePhotoRead> {
  let read;
  try {
    read = await readImage(asBuffer(task.bytes), { maxSide: FACE_PHOTO_MAX_SIDE });
  } catch (err) {
    if (err instanceof ImageRejected) return { rejected: err.reason, ...(err.reason === 'too_many_pixels' ? { maxPixels: MAX_IMAGE_PIXELS } : {}) };
    throw err;
  }
  const { info, image } = read;
  const found = await faceMeshDetect({ width: image.width, height: image.height, data: image.data });
  const sx = info.width / image.width;
  const sy = info.height / image.height;
  return {
    contentType: info.contentType,
    extension: info.format === 'jpeg' ? '.jpg' : `.${info.format}`,
    width: info.width,
    height: info.height,
    faces: sx === 1 && sy === 1 ? found : found.map((f) => scaleFace(f, sx, sy)),
  };
}

/** A face found on the bounded copy, in the photo's pixels (pure). */
export function scaleFace(f: MeshFace, sx: number, sy: number): MeshFace {
  return {
    box: { x: f.box.x * sx, y: f.box.y * sy, width: f.box.width * sx, height: f.box.height * sy },
    score: f.score,
    mesh: f.mesh.map(([x, y]) => [x * sx, y * sy] as [number, number]),
  };
}

/**
 * A stored face photo decoded for its portrait at the same bound, with `scale`: the copy's pixels per
 * photo pixel (the stored face is in the photo's pixels). The photo was read at upload, so it is known
 * to be within MAX_IMAGE_PIXELS.
 */
export async function decodeFacePhoto(bytes: Uint8Array): Promise<{ width: number; height: number; data: Uint8Array; scale: number }> {
  const { info, image } = await readImage(asBuffer(bytes), { maxSide: FACE_PHOTO_MAX_SIDE });
  return { width: image.width, height: image.height, data: image.data, scale: image.width / info.width };
}

const asBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
