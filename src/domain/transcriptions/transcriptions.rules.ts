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
  /** The number of speakers the caller gave (with labels); null when the diarizer estimates it. */
  speakersExpected?: number | null;
  /** `auto` or an ISO 639-1 code. */
  sourceLanguage: string;
}

/** What an earlier transcription of the same content offers. */
export interface CacheCandidate {
  status: string;
  speakerLabels: boolean;
  speakersExpected?: number | null;
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
  // Labels counted for a given number of speakers serve only the same number (and estimated ones only estimates).
  if (ask.speakerLabels && (c.speakersExpected ?? null) !== (ask.speakersExpected ?? null)) return false;
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

/** The steps of a transcription's job, in order (`stage` while processing). */
export const TRANSCRIPTION_STAGES = ['extracting_audio', 'detecting_speech', 'recognising', 'labelling_speakers'] as const;
export type TranscriptionStage = (typeof TRANSCRIPTION_STAGES)[number];

/**
 * Seconds of work per second of media each step takes on the embedded engines (`npm run bench --
 * transcription`: pocketsphinx about 0.08 of the audio's duration, the rest a few hundredths).
 */
export const STAGE_SECONDS_PER_MEDIA_SECOND: Readonly<Record<TranscriptionStage, number>> = {
  extracting_audio: 0.005,
  detecting_speech: 0.01,
  recognising: 0.09,
  labelling_speakers: 0.04,
};

/**
 * How far a processing transcription is and the seconds left, an estimate (pure): the steps done by
 * their expected seconds, the current one by the clock (never past 90 % of it), of the steps it will
 * run (speaker labelling only when asked). `stage` null: the job has not started (0, the whole estimate).
 */
export function transcriptionProgress(
  stage: string | null,
  sinceStage: number,
  mediaSeconds: number,
  speakerLabels: boolean,
): { progress: number; estimated_time: number } {
  const steps = TRANSCRIPTION_STAGES.filter((s) => speakerLabels || s !== 'labelling_speakers');
  const expected = steps.map((s) => Math.max(0.5, STAGE_SECONDS_PER_MEDIA_SECOND[s] * Math.max(0, mediaSeconds)));
  const total = expected.reduce((a, b) => a + b, 0);
  const i = stage === null ? -1 : steps.indexOf(stage as TranscriptionStage);
  if (i < 0) return { progress: 0, estimated_time: Math.max(1, Math.round(total)) };
  const before = expected.slice(0, i).reduce((a, b) => a + b, 0);
  const inStage = Math.min(0.9 * expected[i], Math.max(0, sinceStage));
  const done = before + inStage;
  return { progress: Math.min(0.99, Math.round((done / total) * 100) / 100), estimated_time: Math.max(1, Math.round(total - done)) };
}
