import type { FaceBox, FaceDetector, RgbFrame } from '../../ports/face-detector.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { HumanFaceDetectorOptions } from './human.face-detector.js';
import type { faceDetect, faceLoad } from './human.tasks.js';

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
    const out = await this.pool.run<typeof faceDetect>('faceDetect', { opts: this.opts, width: frame.width, height: frame.height, data }, { transfer: [data.buffer] });
    this.engine = out.name;
    return out.boxes;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** The bytes in an ArrayBuffer of their own that can be moved: the array itself when it is, else a copy (pooled or shared memory). */
function ownBuffer(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const buf = data.buffer;
  if (buf instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === buf.byteLength) return data as Uint8Array<ArrayBuffer>;
  return data.slice();
}
