import { VadError, type SpeechSegment, type Vad, type VadDetectOptions } from '../../ports/vad.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { SileroVadOptions } from './silero.vad.js';
import type { vadDetect } from './silero.tasks.js';

/**
 * Silero VAD (silero.vad.ts) in the threads of a WorkerPool: each thread loads the model once
 * (silero.tasks.ts) and reads the WAV itself, so the event loop only waits for the segments. Errors
 * are the in-thread engine's (VadError with its code). The sessions live as long as the pool's
 * threads; `close` only stops this detector.
 */
export class WorkerVad implements Vad {
  readonly name = 'silero-v5';
  private closed = false;

  constructor(
    private readonly pool: WorkerPool,
    private readonly opts: SileroVadOptions = {},
  ) {}

  async detect(wavPath: string, opts: VadDetectOptions = {}): Promise<SpeechSegment[]> {
    if (this.closed) throw new VadError('VAD_ENGINE_FAILED', 'voice detector is closed');
    try {
      return await this.pool.run<typeof vadDetect>('vadDetect', { opts: this.opts, wavPath }, { signal: opts.signal });
    } catch (err) {
      const e = err as Error & { code?: unknown };
      if (e?.name === 'VadError' && (e.code === 'VAD_BAD_AUDIO' || e.code === 'VAD_ENGINE_FAILED')) throw new VadError(e.code, e.message);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
