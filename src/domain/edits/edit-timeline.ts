import { sliceKeyframes, type Keyframe } from '../reframe/crop-keyframes.js';

/**
 * The output timeline of an edit with cuts (pure). An edit keeps one or more stretches of its source
 * (`segments`, source seconds, ascending, not overlapping) and plays them one after another. These
 * functions map source time to output time and carry the source-timed parts of an edit (caption
 * words, crop keyframes) onto the output timeline.
 */

export interface Segment {
  /** Source seconds. */
  start: number;
  end: number;
}

/** The stretches an edit keeps: its `segments`, or `[in, out]` when it has none. */
export function editSegments(edit: { in: number; out: number; segments?: readonly Segment[] }): readonly Segment[] {
  return edit.segments && edit.segments.length > 0 ? edit.segments : [{ start: edit.in, end: edit.out }];
}

/** Output seconds: the sum of the stretches. */
export function segmentsDuration(segments: readonly Segment[]): number {
  let d = 0;
  for (const s of segments) d += s.end - s.start;
  return d;
}

/** Output second at which each stretch starts. */
export function segmentOffsets(segments: readonly Segment[]): number[] {
  const out: number[] = [];
  let acc = 0;
  for (const s of segments) {
    out.push(acc);
    acc += s.end - s.start;
  }
  return out;
}

/**
 * The stretches moved onto the source's frame grid (frames at k / fps), so a stretch holds whole
 * frames and its sound is cut at the same instants as its picture: each start moves to the first
 * frame at or after it; each end is the frame that keeps the output's running length within half a
 * frame of the requested one (so the rounding never adds up over many stretches), not past the next
 * start. Without a frame rate, unchanged.
 */
export function snapToFrames(segments: readonly Segment[], fps: number | undefined): Segment[] {
  if (!fps || !(fps > 0) || !Number.isFinite(fps)) return segments.map((s) => ({ start: s.start, end: s.end }));
  const r6 = (t: number) => Math.round(t * 1e6) / 1e6;
  const frameAtOrAfter = (t: number) => Math.ceil(t * fps - 1e-6);
  const out: Segment[] = [];
  let wanted = 0; // requested output length so far, seconds
  let frames = 0; // output length so far, frames
  segments.forEach((s, i) => {
    const first = frameAtOrAfter(s.start);
    wanted += s.end - s.start;
    let count = Math.max(1, Math.round(wanted * fps - frames));
    const next = segments[i + 1];
    if (next) count = Math.max(1, Math.min(count, frameAtOrAfter(next.start) - first));
    frames += count;
    out.push({ start: r6(first / fps), end: r6((first + count) / fps) });
  });
  return out;
}

/**
 * Output time of source time `t`, or null when `t` lies outside every kept stretch. A stretch's end
 * belongs to it (the end of the last stretch maps to the output's end); at a joint the later
 * stretch's start wins.
 */
export function sourceToOutput(segments: readonly Segment[], t: number): number | null {
  const offsets = segmentOffsets(segments);
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i];
    if (t >= s.start && t <= s.end) return offsets[i] + (t - s.start);
  }
  return null;
}

/**
 * Words on the output timeline. A word is given to the stretch that holds most of it (the earlier
 * one on a tie), clipped to that stretch and shifted; a word no stretch holds any of is dropped.
 * Order is kept; other members of a word are kept as they are.
 */
export function keptWords<W extends { start: number; end: number }>(words: readonly W[], segments: readonly Segment[]): W[] {
  const offsets = segmentOffsets(segments);
  const out: W[] = [];
  for (const w of words) {
    let best = -1;
    let bestOverlap = 0;
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i];
      const overlap = Math.min(w.end, s.end) - Math.max(w.start, s.start);
      // A zero-length word counts when it sits inside a stretch.
      const holds = overlap > bestOverlap || (best < 0 && overlap === 0 && w.start === w.end && w.start >= s.start && w.start < s.end);
      if (holds) {
        best = i;
        bestOverlap = overlap;
      }
    }
    if (best < 0) continue;
    const s = segments[best];
    const r3 = (v: number) => Math.round(v * 1000) / 1000;
    out.push({
      ...w,
      start: r3(offsets[best] + Math.max(w.start, s.start) - s.start),
      end: r3(offsets[best] + Math.min(w.end, s.end) - s.start),
    });
  }
  return out;
}

/**
 * A source-time crop path on the output timeline: each stretch's part of the path (sliceKeyframes),
 * shifted to where the stretch plays. At a joint the last keyframe of one stretch and the first of
 * the next share a time, which `cropFilter` treats as a jump.
 */
export function cutKeyframes(path: readonly Keyframe[], segments: readonly Segment[]): Keyframe[] {
  const offsets = segmentOffsets(segments);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const out: Keyframe[] = [];
  segments.forEach((s, i) => {
    for (const k of sliceKeyframes(path, s.start, s.end)) out.push({ ...k, t: r3(k.t + offsets[i]) });
  });
  return out;
}
