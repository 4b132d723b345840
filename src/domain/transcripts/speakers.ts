import type { SpeakerTurn } from '../../ports/diarizer.js';

/**
 * Gives each word the speaker of the turn it overlaps most; a word overlapping no turn gets the
 * nearest turn's speaker (pure). Words keep their order and other fields. The turns come from the
 * diarizer (src/ports/diarizer.ts).
 */
export function assignSpeakers<W extends { start: number; end: number }>(words: W[], turns: SpeakerTurn[]): Array<W & { speaker?: string }> {
  if (!turns.length) return words.map((w) => ({ ...w }));
  const sorted = [...turns].sort((a, b) => a.start - b.start);
  return words.map((w) => {
    // First turn ending after the word starts (turns do not overlap, so their ends are sorted too).
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid].end <= w.start) lo = mid + 1;
      else hi = mid;
    }
    let best: SpeakerTurn | undefined;
    let bestOverlap = 0;
    for (let i = lo; i < sorted.length && sorted[i].start < w.end; i++) {
      const o = Math.min(w.end, sorted[i].end) - Math.max(w.start, sorted[i].start);
      if (o > bestOverlap) {
        bestOverlap = o;
        best = sorted[i];
      }
    }
    if (!best) {
      const mid = (w.start + w.end) / 2;
      const gap = (t: SpeakerTurn) => (mid < t.start ? t.start - mid : mid > t.end ? mid - t.end : 0);
      const near = [sorted[lo - 1], sorted[lo]].filter((t): t is SpeakerTurn => t !== undefined);
      best = near.reduce((a, b) => (gap(b) < gap(a) ? b : a));
    }
    return { ...w, speaker: best.speaker };
  });
}
