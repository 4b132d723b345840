import type { SpeechSegment } from '../../ports/vad.js';
import type { TaskContext } from '../workers/worker-protocol.js';
import { SileroVad, type SileroVadOptions } from './silero.vad.js';

/**
 * Voice detection as a worker-thread task (src/adapters/workers/compute.worker.ts): each thread keeps
 * one Silero session per set of options, loaded on first use, and reads the WAV itself (only the
 * path and the segments cross the thread boundary).
 */

const vads = new Map<string, SileroVad>();

export async function vadDetect(task: { opts: SileroVadOptions; wavPath: string }, ctx: TaskContext = {}): Promise<SpeechSegment[]> {
  const key = JSON.stringify(task.opts);
  let vad = vads.get(key);
  if (!vad) vads.set(key, (vad = new SileroVad(task.opts)));
  return vad.detect(task.wavPath, { signal: ctx.signal });
}
