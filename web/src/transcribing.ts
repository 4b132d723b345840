import type { Transcription } from '@cutroom/sdk/browser';

/** A transcription's state as a person reads it. */
export function statusName(t: Pick<Transcription, 'status'>): string {
  return { processing: 'Transcribing', ready: 'Ready', no_speech: 'No speech', failed: 'Failed' }[t.status] ?? t.status;
}

export function badgeClass(t: Pick<Transcription, 'status'>): string {
  return t.status === 'ready' ? 'badge completed' : t.status === 'failed' ? 'badge failed' : 'badge';
}

const STEPS: Record<string, string> = {
  queued: 'Waiting in line',
  extracting_audio: 'Reading the sound',
  detecting_speech: 'Finding speech',
  recognising: 'Recognising words',
  labelling_speakers: 'Labelling speakers',
};

export function stepName(stage: string | undefined): string {
  return stage ? (STEPS[stage] ?? stage.replace(/_/g, ' ')) : 'Starting';
}

/** The languages offered (ISO 639-1); the service says in words when its engine cannot do one. */
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl'] as const;

const names = new Intl.DisplayNames(['en'], { type: 'language' });

export function languageName(code: string | null): string {
  if (!code || code === 'auto') return 'Detected';
  if (code === 'und') return 'Unknown';
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** What POST /transcriptions charges: started minutes (at least 1) × the per-minute price, with the labels' surcharge. */
export function transcriptionPrice(seconds: number, prices: { per_minute: number; speaker_labels_per_minute: number }, labels: boolean): number {
  const minutes = Math.max(1, Math.ceil(Math.round(seconds * 1000) / 60_000));
  return minutes * (prices.per_minute + (labels ? prices.speaker_labels_per_minute : 0));
}
