/**
 * Speech recognition (ASR). Engines: `pocketsphinx` (embedded, English) and `openai` (any
 * OpenAI-compatible `/v1/audio/transcriptions` server), one of them or both side by side, each
 * language routed to its engine (CUTROOM_ASR_ROUTES). See docs/asr.md.
 *
 * All times are in seconds, absolute from the start of the audio file given to `transcribe`.
 */

export interface AsrWord {
  start: number;
  end: number;
  text: string;
  /** 0..1 when the engine reports one (pocketsphinx: the word's posterior probability). */
  confidence?: number;
}

export interface AsrSegment {
  start: number;
  end: number;
  text: string;
  words: AsrWord[];
  /** Speaker label, when the engine (or a diarizer) assigned one. */
  speaker?: string;
}

export interface AsrResult {
  /** ISO 639-1 code (`en`): the language the engine used, the one asked for or the one it detected. */
  language: string;
  /** Every word of every segment, in time order. */
  words: AsrWord[];
  segments: AsrSegment[];
}

export interface AsrTranscribeOptions {
  /** ISO 639-1 code (`en`, also `en-US`); `auto` or absent lets the engine detect it. */
  language?: string;
  signal?: AbortSignal;
}

export interface AsrEngine {
  readonly name: string;
  /** True when the engine can transcribe speech in `lang` (`auto` = detection is available). */
  supportsLanguage(lang: string): boolean;
  /** `wavPath`: 16 kHz mono 16-bit PCM WAV (src/adapters/media/audio-extract.ts makes one from any media). */
  transcribe(wavPath: string, opts: AsrTranscribeOptions): Promise<AsrResult>;
}

/**
 * Why a transcription failed. Callers map these to their own codes (a submission's `error_code`);
 * `retryable` tells a job handler whether trying again later can help.
 */
export type AsrErrorCode =
  | 'ASR_AUTH_FAILED' // the server refused the API key (401/403)
  | 'ASR_RATE_LIMITED' // 429 after the retries
  | 'ASR_UNAVAILABLE' // 5xx, timeouts, connection errors after the retries
  | 'ASR_REQUEST_REJECTED' // 4xx other than the above (bad model, file too large, ...)
  | 'ASR_BAD_RESPONSE' // the answer was not the expected JSON
  | 'ASR_LANGUAGE_UNSUPPORTED'
  | 'ASR_BAD_AUDIO' // not a 16 kHz mono 16-bit PCM WAV
  | 'ASR_ENGINE_FAILED'; // the embedded engine is missing or crashed

export class AsrError extends Error {
  constructor(
    readonly code: AsrErrorCode,
    message: string,
    readonly retryable = false,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AsrError';
  }
}
