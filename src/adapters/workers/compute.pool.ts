import os from 'node:os';
import { WorkerPool } from './worker-pool.js';

/**
 * The pool that runs the service's CPU-heavy adapter work (faces, voice detection, diarization) off
 * the event loop: its threads load compute.worker.ts (compute.worker.js in dist) and run below normal
 * priority, so that requests are answered first when the cores are busy.
 */
export function createComputePool(threads?: number): WorkerPool {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new WorkerPool({
    entry: new URL(`./compute.worker${ext}`, import.meta.url),
    threads,
    name: 'cutroom-compute',
    priority: os.constants.priority.PRIORITY_BELOW_NORMAL,
  });
}
