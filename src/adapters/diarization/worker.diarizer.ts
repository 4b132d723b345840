import type { DiarizeRunOptions, Diarizer, SpeakerTurn } from '../../ports/diarizer.js';
import type { SpeechSegment } from '../../ports/vad.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { diarize } from './embedded.tasks.js';

/**
 * The embedded diarizer (embedded.diarizer.ts) in the threads of a WorkerPool: features and
 * clustering run in a thread that reads the WAV itself; the event loop only waits for the turns.
 */
export class WorkerDiarizer implements Diarizer {
  constructor(private readonly pool: WorkerPool) {}

  diarize(wavPath: string, speech: SpeechSegment[], opts: DiarizeRunOptions = {}): Promise<SpeakerTurn[]> {
    return this.pool.run<typeof diarize>(
      'diarize',
      { wavPath, speech, ...(opts.speakers !== undefined ? { speakers: opts.speakers } : {}) },
      { signal: opts.signal },
    );
  }
}
