/** Seconds as m:ss (or h:mm:ss). */
export function clock(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

/** A length in words: "24 s", "3 min 5 s". */
export function length(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'long' });

export function when(iso: string): string {
  return dateTime.format(new Date(iso));
}

export function day(iso: string): string {
  return dateOnly.format(new Date(iso));
}

export function credits(n: number): string {
  return `${n} credit${Math.abs(n) === 1 ? '' : 's'}`;
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.floor((part / whole) * 100)) : 0;
}

/** A submission's stages, in order, as a person reads them. */
export const STAGES = [
  ['queued', 'Waiting in line'],
  ['downloading', 'Fetching the video'],
  ['transcribing', 'Transcribing'],
  ['video_analysis', 'Watching the video'],
  ['analyzing', 'Picking highlights'],
  ['finalizing', 'Cutting the clips'],
  ['completed', 'Done'],
] as const;

export function stageName(status: string): string {
  if (status === 'failed') return 'Failed';
  return STAGES.find(([s]) => s === status)?.[1] ?? status;
}

export function stageNumber(status: string): number {
  return STAGES.findIndex(([s]) => s === status);
}
