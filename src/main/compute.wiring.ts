import { WorkerHighlightScorer } from '../adapters/highlights/worker.highlight-scorer.js';
import { EmbeddedDiarizer } from '../adapters/diarization/embedded.diarizer.js';
import { WorkerDiarizer } from '../adapters/diarization/worker.diarizer.js';
import { HumanFaceDetector } from '../adapters/faces/human.face-detector.js';
import { WorkerFaceDetector } from '../adapters/faces/worker.face-detector.js';
import { SileroVad } from '../adapters/vad/silero.vad.js';
import { WorkerVad } from '../adapters/vad/worker.vad.js';
import { createComputePool } from '../adapters/workers/compute.pool.js';
import type { WorkerPool } from '../adapters/workers/worker-pool.js';
import type { Diarizer } from '../ports/diarizer.js';
import type { FaceDetector } from '../ports/face-detector.js';
import type { HighlightScorer } from '../ports/highlights.js';
import type { Vad } from '../ports/vad.js';

/** The CPU-heavy engines the jobs (and the transcription API's speech check) use. */
export interface Compute {
  /** The face detector, loaded on first use (then shared). */
  faces(): Promise<FaceDetector>;
  vad: Vad;
  diarizer: Diarizer;
  /**
   * The highlight scorer the pipeline uses, given the optional LLM scorer: with threads, the engine's
   * scoring runs in the pool (the LLM, if any, still re-rates); with 0, `scorer` as it is (on the loop).
   */
  highlights(scorer?: HighlightScorer): HighlightScorer | undefined;
  /** The threads other engines post their tasks to (the embedded image models); null with 0 threads. */
  pool: WorkerPool | null;
  /** Frees the models and ends the threads. */
  close(): Promise<void>;
}

/**
 * With `threads` > 0 (CUTROOM_COMPUTE_THREADS, default the cores) face detection, voice detection,
 * diarization and highlight scoring run in a pool of worker threads that load their models once each, so the event
 * loop only coordinates; the pool starts its threads on first use. With 0 they run on the event loop.
 */
export function createCompute(threads: number): Compute {
  if (threads === 0) {
    let detector: Promise<FaceDetector> | undefined;
    const vad = new SileroVad();
    return {
      faces: () => (detector ??= HumanFaceDetector.create({})),
      vad,
      diarizer: new EmbeddedDiarizer(),
      highlights: (scorer) => scorer,
      pool: null,
      async close() {
        await vad.close();
        await (await detector?.catch(() => undefined))?.close();
      },
    };
  }
  const pool = createComputePool(threads);
  let detector: Promise<FaceDetector> | undefined;
  return {
    faces: () => (detector ??= WorkerFaceDetector.create(pool, {})),
    vad: new WorkerVad(pool),
    diarizer: new WorkerDiarizer(pool),
    highlights: (scorer) => new WorkerHighlightScorer(pool, scorer),
    pool,
    close: () => pool.close(),
  };
}
