import type { FaceBox, MeshFace } from '../../ports/face-detector.js';
import { HumanFaceDetector, type HumanFaceDetectorOptions } from './human.face-detector.js';

/**
 * Face detection as worker-thread tasks (src/adapters/workers/compute.worker.ts): each thread loads
 * its own Human detector on first use and keeps it for the thread's life, one per set of options.
 */

const detectors = new Map<string, Promise<HumanFaceDetector>>();

function detector(opts: HumanFaceDetectorOptions): Promise<HumanFaceDetector> {
  const key = JSON.stringify(opts);
  let d = detectors.get(key);
  if (!d) {
    d = HumanFaceDetector.create(opts);
    // A failed start is not kept: the next task tries again.
    d.catch(() => detectors.delete(key));
    detectors.set(key, d);
  }
  return d;
}

/** Loads the model in this thread; the engine's name (`human-blazeface/wasm`, or `/cpu` after a fallback). */
export async function faceLoad(opts: HumanFaceDetectorOptions): Promise<{ name: string }> {
  return { name: (await detector(opts)).name };
}

export interface FaceDetectTask {
  opts: HumanFaceDetectorOptions;
  width: number;
  height: number;
  /** Packed RGB, moved here from the main thread. */
  data: Uint8Array;
}

export async function faceDetect(task: FaceDetectTask): Promise<{ name: string; boxes: FaceBox[] }> {
  const d = await detector(task.opts);
  return { name: d.name, boxes: await d.detect({ width: task.width, height: task.height, data: task.data }) };
}

const MESH_OPTS: HumanFaceDetectorOptions = { mesh: true };

/** Loads the mesh model in this thread; its name and the mesh's triangles. */
export async function faceMeshLoad(): Promise<{ name: string; triangles: number[] }> {
  const d = await detector(MESH_OPTS);
  return { name: `${d.name}+facemesh`, triangles: d.triangulation };
}

export async function faceMeshDetect(task: Omit<FaceDetectTask, 'opts'>): Promise<MeshFace[]> {
  return (await detector(MESH_OPTS)).detectMesh({ width: task.width, height: task.height, data: task.data });
}
