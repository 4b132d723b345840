import { blendPatch, featherInside, pasteCutout, transferColour, warpMesh, type Cutout, type Point } from './face-warp.js';

/**
 * One frame of the embedded head swap, as a compute-pool task (src/adapters/workers/compute.worker.ts):
 * the persona's face warped onto the tracked mesh (photo personas) or the illustrated head pasted on
 * the tracked head (illustrations). The frame's pixels are moved in and answered back.
 */

export interface MeshPersona {
  kind: 'mesh';
  width: number;
  height: number;
  /** Packed RGB. */
  data: Uint8Array;
  /** The persona's 468 mesh points, flat [x0, y0, x1, y1, …]. */
  points: number[];
  triangles: number[];
}

export interface CutoutPersona {
  kind: 'cutout';
  cutout: Cutout;
}

export interface SwapFrameTask {
  width: number;
  height: number;
  /** The frame, packed RGB (moved here). */
  data: Uint8Array;
  persona: MeshPersona | CutoutPersona;
  /** The tracked face: 468 points flat (smoothed), its centre, width and roll (radians). */
  target: { points: number[]; centre: Point; scale: number; roll: number };
}

const pairs = (flat: readonly number[]): Point[] => {
  const out: Point[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
};

/** Composites one frame in place and answers its pixels. */
export function swapFrame(task: SwapFrameTask): Uint8Array {
  const frame = { width: task.width, height: task.height, data: task.data };
  const p = task.persona;
  if (p.kind === 'cutout') {
    pasteCutout(frame, p.cutout, task.target.centre, task.target.scale, task.target.roll);
    return frame.data;
  }
  const patch = warpMesh(
    { width: p.width, height: p.height, data: p.data },
    pairs(p.points),
    pairs(task.target.points),
    p.triangles,
    frame.width,
    frame.height,
  );
  if (patch.mask.length === 0) return frame.data;
  transferColour(patch, frame);
  const bw = patch.box.x1 - patch.box.x0;
  const bh = patch.box.y1 - patch.box.y0;
  const alpha = featherInside(patch.mask, bw, bh, Math.max(2, task.target.scale * 0.08));
  blendPatch(frame, patch, alpha);
  return frame.data;
}
