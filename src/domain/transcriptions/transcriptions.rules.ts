/** Pure rules of standalone transcription (spec: Transcription, credit rule 4). See docs/transcription.md#api. */

export type TranscriptionStatus = 'processing' | 'ready' | 'no_speech' | 'failed';

export const TRANSCRIPTION_STATUSES: TranscriptionStatus[] = ['processing', 'ready', 'no_speech', 'failed'];

/**
 * Media up to this long get voice detection while POST /transcriptions waits (a no-speech file
 * answers 200 `no_speech` at once, never charged); longer media are charged and checked by the job,
 * which ends in `no_speech` with a refund.
 */
export const SYNC_VAD_MAX_SECONDS = 600;

export interface TranscriptionPrices {
  transcriptionCreditsPerMinute: number;
  speakerLabelsCreditsPerMinute: number;
}

/** Started minutes of audio: at least 1 (an empty or unmeasurable file is one minute). */
export function startedMinutes(seconds: number): number {
  if (!(seconds > 0)) return 1;
  // Round away floating noise first (120.0000001 s is 2 minutes).
  return Math.max(1, Math.ceil(Math.round((seconds / 60) * 1e6) / 1e6));
}

/** Credits of a transcription: started minutes × (price per minute + the labels surcharge when asked). */
export function transcriptionCredits(seconds: number, prices: TranscriptionPrices, speakerLabels: boolean): number {
  const perMinute = prices.transcriptionCreditsPerMinute + (speakerLabels ? prices.speakerLabelsCreditsPerMinute : 0);
  return startedMinutes(seconds) * perMinute;
}

/** What a new request asks for, as far as the cache is concerned. */
export interface CacheAsk {
  speakerLabels: boolean;
  /** `auto` or an ISO 639-1 code. */
  sourceLanguage: string;
}

/** What an earlier transcription of the same content offers. */
export interface CacheCandidate {
  status: string;
  speakerLabels: boolean;
  sourceLanguage: string;
  language: string | null;
}

/**
 * Can an earlier transcription of the same bytes answer this request? Labels must be there when
 * asked (a labelled result also serves a request without labels); a language asked must be the one
 * transcribed (or, while still processing, the one that was asked). `no_speech` serves any request.
 */
export function reusable(c: CacheCandidate, ask: CacheAsk): boolean {
  if (c.status === 'no_speech') return true;
  if (c.status !== 'ready' && c.status !== 'processing') return false;
  if (ask.speakerLabels && !c.speakerLabels) return false;
  if (ask.sourceLanguage === 'auto') return true;
  const lang = c.status === 'ready' ? c.language : c.sourceLanguage === 'auto' ? null : c.sourceLanguage;
  return lang === ask.sourceLanguage;
}

/**
 * The best reusable candidate: ready first (labels matching the ask exactly before a labelled one
 * serving an unlabelled ask), then no_speech, then one still processing; newest first within each.
 */
export function pickReusable<T extends CacheCandidate & { createdAt: Date }>(candidates: T[], ask: CacheAsk): T | undefined {
  const rank = (c: T) => (c.status === 'ready' ? (c.speakerLabels === ask.speakerLabels ? 0 : 1) : c.status === 'no_speech' ? 2 : 3);
  return candidates.filter((c) => reusable(c, ask)).sort((a, b) => rank(a) - rank(b) || b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/** The language of a transcript with no speech: the one asked, else `und` (ISO 639-2 "undetermined"). */
export function noSpeechLanguage(sourceLanguage: string): string {
  return sourceLanguage === 'auto' ? 'und' : sourceLanguage;
}
