import { WorkerPool } from './worker-pool.js';

/**
 * The pool that runs the service's CPU-heavy adapter work (faces, voice detection, diarization) off
 * the event loop: its threads load compute.worker.ts (compute.worker.js in dist).
 */
export function createComputePool(threads?: number): WorkerPool {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new WorkerPool({ entry: new URL(`./compute.worker${ext}`, import.meta.url), threads, name: 'cutroom-compute' });
}
