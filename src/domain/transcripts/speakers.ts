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

/** A pause at least this long ends an utterance (seconds). */
export const UTTERANCE_PAUSE_SECONDS = 0.5;
/** A change of speaker inside an utterance stays only when the new speaker talks at least this long (seconds). */
export const CLEAR_TURN_SECONDS = 1;

const ENDS_SENTENCE = /[.?!…]["'”’)\]]*$/;

/**
 * Labels that change only at pauses or sentence ends unless the change is clear (pure): the words are
 * split into utterances at pauses of UTTERANCE_PAUSE_SECONDS or more and after a word ending a
 * sentence; inside one, a run of words of one speaker shorter than CLEAR_TURN_SECONDS between two
 * other runs (half that at the utterance's start or end: a lone word) takes the speaker of its longer
 * neighbouring run (shortest runs first, until every run is clear or the
 * utterance has one speaker); the labels are then `A`, `B`, … again in order of first appearance.
 * Words keep their order, times and other fields.
 */
export function steadySpeakers<W extends { start: number; end: number; text?: string; speaker?: string }>(words: W[]): W[] {
  const out = words.map((w) => ({ ...w }));
  let from = 0;
  for (let i = 1; i <= out.length; i++) {
    const prev = out[i - 1];
    const ends = i === out.length || out[i].start - prev.end >= UTTERANCE_PAUSE_SECONDS || (prev.text !== undefined && ENDS_SENTENCE.test(prev.text));
    if (!ends) continue;
    steadyUtterance(out, from, i);
    from = i;
  }
  // Labels stay `A`, `B`, … in order of first appearance (a label a run lost altogether is gone).
  const names = new Map<string, string>();
  for (const w of out) {
    if (w.speaker === undefined) continue;
    if (!names.has(w.speaker)) names.set(w.speaker, String.fromCharCode(65 + names.size));
    w.speaker = names.get(w.speaker);
  }
  return out;
}

function steadyUtterance(words: Array<{ start: number; end: number; speaker?: string }>, from: number, to: number): void {
  for (;;) {
    const runs: Array<{ from: number; to: number; speaker?: string; seconds: number }> = [];
    for (let i = from; i < to; i++) {
      const last = runs[runs.length - 1];
      if (last && last.speaker === words[i].speaker) {
        last.to = i + 1;
        last.seconds = words[i].end - words[last.from].start;
      } else runs.push({ from: i, to: i + 1, speaker: words[i].speaker, seconds: words[i].end - words[i].start });
    }
    if (runs.length < 2) return;
    // A run between two others is an interjection unless clear; a run at an utterance's edge, half that.
    const short = runs.map((r, k) => ({ r, k })).filter(({ r, k }) => r.seconds < (k > 0 && k < runs.length - 1 ? CLEAR_TURN_SECONDS : CLEAR_TURN_SECONDS / 2));
    if (!short.length) return;
    const { r, k } = short.reduce((a, b) => (b.r.seconds < a.r.seconds ? b : a));
    const before = runs[k - 1];
    const after = runs[k + 1];
    const into = !after || (before && before.seconds >= after.seconds) ? before! : after;
    for (let i = r.from; i < r.to; i++) words[i].speaker = into.speaker;
  }
}
