/**
 * Voice activity detection: where in an audio file somebody is talking. The embedded engine is
 * Silero VAD v5 on onnxruntime-node (src/adapters/vad/silero.vad.ts). See docs/transcription.md.
 *
 * All times are in seconds from the start of the file.
 */

export interface SpeechSegment {
  start: number;
  end: number;
}

export interface VadDetectOptions {
  signal?: AbortSignal;
}

export interface Vad {
  /** Engine name for logs and docs (for example `silero-v5`). */
  readonly name: string;
  /**
   * Speech segments of a 16 kHz mono 16-bit PCM WAV, in time order, never overlapping; pauses
   * shorter than the engine's merge gap are bridged and very short bursts are dropped. An empty
   * array means nobody is talking.
   */
  detect(wavPath: string, opts?: VadDetectOptions): Promise<SpeechSegment[]>;
  /** Releases the model; the detector is not used afterwards. */
  close(): Promise<void>;
}

export class VadError extends Error {
  constructor(
    readonly code: 'VAD_BAD_AUDIO' | 'VAD_ENGINE_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'VadError';
  }
}
