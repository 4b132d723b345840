import type { SpeakerTurn } from '../../ports/diarizer.js';
import type { SpeechSegment } from '../../ports/vad.js';
import type { TaskContext } from '../workers/worker-protocol.js';
import { EmbeddedDiarizer } from './embedded.diarizer.js';

/**
 * Diarization as a worker-thread task (src/adapters/workers/compute.worker.ts): the thread reads the
 * speech segments of the WAV, computes their features and clusters them; only the path, the segments
 * and the turns cross the thread boundary.
 */

const diarizer = new EmbeddedDiarizer();

export function diarize(task: { wavPath: string; speech: SpeechSegment[]; speakers?: number }, ctx: TaskContext = {}): Promise<SpeakerTurn[]> {
  return diarizer.diarize(task.wavPath, task.speech, { signal: ctx.signal, speakers: task.speakers });
}
