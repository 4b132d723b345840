import type { EditWord } from './edit-words.js';
import type { Segment } from './edit-timeline.js';

/**
 * A lineage's word list grown from the transcript (pure). A clip's first edit knows the words of its
 * own stretch only; a version that keeps more of the source (a trim or stretches past the clip's
 * ends) gets the transcript's words there, numbered after the list's largest index so every index
 * keeps naming the same word. A transcript word is already in the list when one of the list's words
 * has the same times (within 10 ms): the list's text (a correction, or `""`) stays.
 */

const SAME = 0.01;

/** The stretch a change asks for, from its first start to its last end, widened by `pad` seconds; null when it asks for none. */
export function askedWindow(change: { segments?: readonly Segment[]; trim?: Segment }, pad: number): Segment | null {
  const spans = [...(change.segments ?? []), ...(change.trim ? [change.trim] : [])];
  if (spans.length === 0) return null;
  return { start: Math.max(0, Math.min(...spans.map((s) => s.start)) - pad), end: Math.max(...spans.map((s) => s.end)) + pad };
}

/** The list with the transcript's words overlapping `window` that it lacks (numbered after the list's), all in time order. */
export function withTranscriptWords(
  words: readonly EditWord[],
  transcript: readonly { start: number; end: number; text: string; speaker?: string | null }[],
  window: Segment,
): EditWord[] {
  const known = (w: { start: number; end: number }) => words.some((x) => Math.abs(x.start - w.start) < SAME && Math.abs(x.end - w.end) < SAME);
  const added = transcript.filter((w) => w.end > window.start && w.start < window.end && w.end >= w.start && !known(w)).sort((a, b) => a.start - b.start);
  if (added.length === 0) return words.map((w) => ({ ...w }));
  let next = words.reduce((m, w) => Math.max(m, w.index), -1) + 1;
  return [...words.map((w) => ({ ...w })), ...added.map((w) => ({ index: next++, text: w.text, start: w.start, end: w.end, speaker: w.speaker ?? null }))].sort(
    (a, b) => a.start - b.start || a.index - b.index,
  );
}
