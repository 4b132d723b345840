/**
 * Face detection on one decoded frame. The embedded engine is @vladmandic/human (src/adapters/faces),
 * on the event loop or in worker threads (src/adapters/workers).
 */

export interface RgbFrame {
  width: number;
  height: number;
  /** Packed RGB, 8 bits per channel, row-major, `width * height * 3` bytes. */
  data: Uint8Array;
}

/** A face box normalised to the frame: x, y (top-left), width and height in 0..1; score 0..1. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

export interface FaceDetector {
  /** Engine and backend, for logs and docs (for example `human-blazeface/wasm`). */
  readonly name: string;
  /**
   * The faces in the frame, best score first. The detector may take the frame's pixels (the
   * worker-thread detector moves `frame.data`'s buffer to its thread): do not read them afterwards.
   */
  detect(frame: RgbFrame): Promise<FaceBox[]>;
  /** Frees models and tensors; the detector is not used afterwards. */
  close(): Promise<void>;
}

/** A face with its mesh, in the frame's pixels: 468 points ([x, y]), empty when the mesh was not found. */
export interface MeshFace {
  box: { x: number; y: number; width: number; height: number };
  score: number;
  mesh: Array<[number, number]>;
}

/** Face mesh detection (the persona engines): the faces of a frame with their 468 points. */
export interface FaceMesher {
  readonly name: string;
  /** Best score first. The mesher may take the frame's pixels (moved to a worker thread). */
  detectMesh(frame: RgbFrame): Promise<MeshFace[]>;
  /** The mesh's triangles: indices into the 468 points, three per triangle. */
  readonly triangles: readonly number[];
}
