import type { ImageCheck, ImageInspector } from '../../ports/images.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import { ImageRejected, MAX_IMAGE_PIXELS, inspectImage } from './image-format.js';

/** The pool task (compute.worker.ts): the check of one image (a buffer, or a local file the thread reads). */
export async function imageInspect(input: Uint8Array | string): Promise<ImageCheck> {
  try {
    return {
      ok: true,
      info: await inspectImage(typeof input === 'string' || Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength)),
    };
  } catch (err) {
    if (err instanceof ImageRejected) return { ok: false, reason: err.reason, ...(err.reason === 'too_many_pixels' ? { maxPixels: MAX_IMAGE_PIXELS } : {}) };
    throw err;
  }
}

/**
 * ImageInspector on sharp (image-format.ts): the format sniffed from the bytes, the pixel ceiling read
 * from the header, then one full decode into a thumbnail. With a pool, in its threads: one image per
 * thread at a time, so parallel uploads cannot each run a decode (of up to 40 MP) at once; without
 * (0 threads), on the event loop one at a time.
 */
export class SharpImageInspector implements ImageInspector {
  private readonly serial = new OneAtATime();

  constructor(private readonly pool: WorkerPool | null = null) {}

  inspect(input: Buffer | string): Promise<ImageCheck> {
    if (this.pool) return this.pool.run<typeof imageInspect>('imageInspect', typeof input === 'string' ? input : cloneableBytes(input));
    return this.serial.run(() => imageInspect(input));
  }
}

/** Runs its calls one after the other (the caller images read on the event loop when there is no pool). */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.last.then(fn);
    this.last = run.catch(() => undefined);
    return run;
  }
}

/**
 * The bytes alone in their buffer, so that cloning them to a pool thread copies only them (a Buffer may
 * be a view on a larger pool; `new Uint8Array(view)` copies, a Buffer's `slice()` would not).
 */
export function cloneableBytes(data: Uint8Array): Uint8Array {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : new Uint8Array(data);
}
