/**
 * Speaker diarization: who speaks when in an audio file. The embedded engine computes MFCC and pitch
 * features and clusters them, with no model (src/adapters/diarization/embedded.diarizer.ts). See
 * docs/transcription.md#speaker-labels-diarization.
 *
 * All times are in seconds from the start of the file.
 */
import type { SpeechSegment } from './vad.js';

/** A stretch of speech by one speaker. */
export interface SpeakerTurn {
  start: number;
  end: number;
  /** `A`, `B`, … in order of first appearance. */
  speaker: string;
}

export interface DiarizeRunOptions {
  signal?: AbortSignal;
  /** How many speakers there are, when the caller knows (1–10): the turns use exactly that many labels (fewer only when there is too little speech to tell them apart). */
  speakers?: number;
}

export interface Diarizer {
  /**
   * The speaker turns inside the speech segments (from voice detection) of a 16 kHz mono 16-bit PCM
   * WAV, in time order, never overlapping. No segment: no turn.
   */
  diarize(wavPath: string, speech: SpeechSegment[], opts?: DiarizeRunOptions): Promise<SpeakerTurn[]>;
}
