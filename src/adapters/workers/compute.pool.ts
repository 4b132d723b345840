import { JOB_PRIORITY } from './job-priority.js';
import { WorkerPool } from './worker-pool.js';

/**
 * The pool that runs the service's CPU-heavy adapter work (faces, voice detection, diarization) off
 * the event loop: its threads load compute.worker.ts (compute.worker.js in dist) and run below normal
 * priority (JOB_PRIORITY), as the jobs' ffmpeg and pocketsphinx processes do, so that requests are
 * answered first when the cores are busy.
 */
export function createComputePool(threads?: number): WorkerPool {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new WorkerPool({
    entry: new URL(`./compute.worker${ext}`, import.meta.url),
    threads,
    name: 'cutroom-compute',
    priority: JOB_PRIORITY,
  });
}
