import { segmentOffsets, segmentsDuration, type Segment } from './edit-timeline.js';

/**
 * `remove_silences` (POST /edits; pure): the pauses of an edit, found by the voice detector, cut
 * down to a short natural gap. The rule works on the output as it would play (the kept stretches
 * one after another), so a pause that spans a joint counts once:
 *
 * - a quiet span between two stretches of speech that lasts longer than `min_seconds` keeps
 *   SILENCE_KEEP_SECONDS after the speech before it and SILENCE_KEEP_SECONDS before the speech after
 *   it; the rest is cut, so the joint leaves NATURAL_GAP_SECONDS of quiet;
 * - quiet at the start (end) of the edit longer than `min_seconds` keeps SILENCE_KEEP_SECONDS before
 *   the first (after the last) speech;
 * - a recognised word is never cut, even where the detector hears no speech: its time is taken out
 *   of the cut; cut pieces shorter than an edit's shortest stretch are not made (no needless joints);
 * - an edit in which the detector hears no speech at all is left as it is.
 *
 * "Speech" is what the detector (Silero, src/ports/vad.ts) reports, padded by about 0.1 s on each
 * side: the quiet left at a joint is the fading end and start of the words around it plus the kept
 * gap (0.2 to 0.35 s under -35 dB in the end-to-end test's render).
 */

/** Quiet kept next to speech on each side of a shortened pause. */
export const SILENCE_KEEP_SECONDS = 0.125;
/** What a shortened pause leaves at its joint: the kept quiet of both sides. */
export const NATURAL_GAP_SECONDS = 2 * SILENCE_KEEP_SECONDS;
/** `remove_silences: true`: pauses longer than this are shortened. */
export const DEFAULT_MIN_SILENCE_SECONDS = 0.6;
/** `remove_silences.min_seconds` range: a pause not longer than the natural gap has nothing to cut. */
export const MIN_SILENCE_SECONDS = 0.3;
export const MAX_SILENCE_SECONDS = 10;
/** Cut pieces shorter than this are not cut (an edit's shortest stretch, MIN_SEGMENT_SECONDS). */
const MIN_CUT_SECONDS = 0.1;

/** Ascending, non-overlapping union of the spans. */
function union(spans: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else if (s.end > s.start) out.push({ ...s });
  }
  return out;
}

/** `span` without the parts that overlap any of `holes`. */
function subtract(span: Segment, holes: readonly Segment[]): Segment[] {
  let pieces: Segment[] = [{ ...span }];
  for (const h of holes) {
    if (h.end <= span.start || h.start >= span.end) continue;
    pieces = pieces.flatMap((p) => {
      if (h.end <= p.start || h.start >= p.end) return [p];
      const out: Segment[] = [];
      if (h.start > p.start) out.push({ start: p.start, end: h.start });
      if (h.end < p.end) out.push({ start: h.end, end: p.end });
      return out;
    });
  }
  return pieces;
}

/**
 * The source spans to cut out of `segments` (source seconds, ascending) so that no pause longer
 * than `minSeconds` is left (the rule above). `speech` and `words` are in source seconds.
 */
export function silenceCuts(
  segments: readonly Segment[],
  speech: readonly Segment[],
  minSeconds: number,
  words: readonly { start: number; end: number }[] = [],
): Segment[] {
  const offsets = segmentOffsets(segments);
  const total = segmentsDuration(segments);
  // Speech on the output timeline.
  const heard = union(
    segments.flatMap((s, i) =>
      speech
        .map((sp) => ({ start: Math.max(sp.start, s.start), end: Math.min(sp.end, s.end) }))
        .filter((sp) => sp.end > sp.start)
        .map((sp) => ({ start: offsets[i] + sp.start - s.start, end: offsets[i] + sp.end - s.start })),
    ),
  );
  if (heard.length === 0) return [];
  // The pauses longer than minSeconds, less the quiet kept next to speech (output seconds).
  const quiet: Array<Segment & { leading: boolean; trailing: boolean }> = [];
  quiet.push({ start: 0, end: heard[0].start, leading: true, trailing: false });
  for (let i = 1; i < heard.length; i++) quiet.push({ start: heard[i - 1].end, end: heard[i].start, leading: false, trailing: false });
  quiet.push({ start: heard[heard.length - 1].end, end: total, leading: false, trailing: true });
  const outputCuts = quiet
    .filter((q) => q.end - q.start > minSeconds)
    .map((q) => ({ start: q.leading ? q.start : q.start + SILENCE_KEEP_SECONDS, end: q.trailing ? q.end : q.end - SILENCE_KEEP_SECONDS }))
    .filter((c) => c.end > c.start);
  // Back on the source timeline, stretch by stretch, without the words' time.
  const wordSpans = union(words.map((w) => ({ start: w.start, end: w.end })));
  const cuts: Segment[] = [];
  for (const c of outputCuts) {
    segments.forEach((s, i) => {
      const a = Math.max(c.start, offsets[i]);
      const b = Math.min(c.end, offsets[i] + s.end - s.start);
      if (b <= a) return;
      const span = { start: s.start + a - offsets[i], end: s.start + b - offsets[i] };
      for (const piece of subtract(span, wordSpans)) if (piece.end - piece.start >= MIN_CUT_SECONDS - 1e-9) cuts.push(piece);
    });
  }
  return cuts;
}
