import type { FaceBox, FaceDetector, FaceMesher, MeshFace, RgbFrame } from '../../ports/face-detector.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { HumanFaceDetectorOptions } from './human.face-detector.js';
import { faceMeshDetect, faceMeshLoad, type faceDetect, type faceLoad } from './human.tasks.js';
import { facePhotoRead, type FacePhotoRead } from './face-photo.read.js';
import { OneAtATime, cloneableBytes } from '../images/image-inspector.js';

/**
 * The Human face detector (human.face-detector.ts) in the threads of a WorkerPool: each thread loads
 * the model once (human.tasks.ts) and frames are detected in parallel, off the event loop. A frame's
 * pixels are moved to the thread, not copied: `frame.data` is detached once `detect` is called.
 * The models live as long as the pool's threads; `close` only stops this detector.
 */
export class WorkerFaceDetector implements FaceDetector {
  private closed = false;

  private constructor(
    private readonly pool: WorkerPool,
    private readonly opts: HumanFaceDetectorOptions,
    private engine: string,
  ) {}

  /** The engine and backend of the last detection (`human-blazeface/wasm`; `/cpu` after a fallback). */
  get name(): string {
    return this.engine;
  }

  /** Loads the model in one thread (the others load it on their first frame). Throws when no backend can start. */
  static async create(pool: WorkerPool, opts: HumanFaceDetectorOptions = {}): Promise<WorkerFaceDetector> {
    const { name } = await pool.run<typeof faceLoad>('faceLoad', opts);
    return new WorkerFaceDetector(pool, opts, name);
  }

  async detect(frame: RgbFrame): Promise<FaceBox[]> {
    if (this.closed) throw new Error('face detector is closed');
    const data = ownBuffer(frame.data);
    const out = await this.pool.run<typeof faceDetect>(
      'faceDetect',
      { opts: this.opts, width: frame.width, height: frame.height, data },
      { transfer: [data.buffer] },
    );
    this.engine = out.name;
    return out.boxes;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Face meshes found in the pool's threads (the persona engines), or on the event loop without a pool. */
export class WorkerFaceMesher implements FaceMesher {
  private constructor(
    private readonly run: (frame: RgbFrame) => Promise<MeshFace[]>,
    readonly name: string,
    readonly triangles: readonly number[],
  ) {}

  static async create(pool: WorkerPool | null): Promise<WorkerFaceMesher> {
    if (!pool) {
      // The tasks' own mesh detector, loaded once on the event loop (shared with FacePhotoReader).
      const { name, triangles } = await faceMeshLoad();
      return new WorkerFaceMesher((f) => faceMeshDetect(f), name, triangles);
    }
    const { name, triangles } = await pool.run<typeof faceMeshLoad>('faceMeshLoad', undefined as never);
    return new WorkerFaceMesher(
      (frame) => {
        const data = ownBuffer(frame.data);
        return pool.run<typeof faceMeshDetect>('faceMeshDetect', { width: frame.width, height: frame.height, data }, { transfer: [data.buffer] });
      },
      name,
      triangles,
    );
  }

  detectMesh(frame: RgbFrame): Promise<MeshFace[]> {
    return this.run(frame);
  }
}

/**
 * Own-face photos read in the compute pool's threads (face-photo.read.ts: header, pixel ceiling,
 * bounded decode, face mesh): the pool runs one task per thread, so however many uploads arrive at once,
 * at most `threads` photos are decoded and detected at a time and the others wait as their bytes. The
 * bytes are copied to the thread, not moved (the caller stores them afterwards). Without a pool (0
 * threads) the photos are read on the event loop one at a time.
 */
export class FacePhotoReader {
  private readonly serial = new OneAtATime();

  constructor(private readonly pool: WorkerPool | null) {}

  read(bytes: Uint8Array): Promise<FacePhotoRead> {
    if (this.pool) return this.pool.run<typeof facePhotoRead>('facePhotoRead', { bytes: cloneableBytes(bytes) });
    return this.serial.run(() => facePhotoRead({ bytes }));
  }
}

/** The bytes in an ArrayBuffer of their own that can be moved: the array itself when it is, else a copy (pooled or shared memory). */
function ownBuffer(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const buf = data.buffer;
  if (buf instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === buf.byteLength) return data as Uint8Array<ArrayBuffer>;
  return data.slice();
}
