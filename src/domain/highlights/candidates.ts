import type { Sentence } from './sentences.js';

/**
 * Candidate windows: every run of consecutive sentences whose span fits the strategy's length range,
 * sliding over the whole transcript. A window starts at its first sentence's first word and ends at its
 * last sentence's last word, with a little lead-in/tail taken from the surrounding silence; a run that is
 * a bit short may grow into the silence around it (never into a neighbouring sentence) to reach the minimum.
 * A window never spans a topic boundary (`boundaries`, from topics.ts).
 */

export interface CandidateWindow {
  /** Index of the first and last sentence of the window. */
  first: number;
  last: number;
  start: number;
  end: number;
}

export interface CandidateOptions {
  minSeconds: number;
  maxSeconds: number;
  duration: number;
  /** Silence kept before the first word, at most (s). Default 0.2. */
  leadIn?: number;
  /** Silence kept after the last word, at most (s). Default 0.4. */
  tail?: number;
  /** Distance kept from a neighbouring sentence's words when growing into silence (s). Default 0.1. */
  margin?: number;
  /** Topic boundaries (sentence indexes: a new topic starts at that sentence): no window spans one (topics.ts). */
  boundaries?: readonly number[];
}

const EPS = 1e-9;

/** Places one run of sentences [first..last] inside the video, or null when it cannot fit [min, max]. */
export function placeWindow(sentences: readonly Sentence[], first: number, last: number, opts: CandidateOptions): CandidateWindow | null {
  const { minSeconds: min, maxSeconds: max, duration } = opts;
  const leadIn = opts.leadIn ?? 0.2;
  const tail = opts.tail ?? 0.4;
  const margin = opts.margin ?? 0.1;
  const a = sentences[first];
  const b = sentences[last];
  const start = Math.max(0, a.start);
  const end = Math.min(duration, b.end);
  const span = end - start;
  if (span > max + EPS || span <= 0) return null;

  // Silence available on each side: up to the neighbour's words (minus a margin) or the video's edge.
  const prev = sentences[first - 1];
  const next = sentences[last + 1];
  const roomBefore = Math.max(0, prev ? start - prev.end - margin : start);
  const roomAfter = Math.max(0, next ? next.start - end - margin : duration - end);

  // Cosmetic lead-in and tail (at most half the gap to a neighbour), shrunk to respect the maximum.
  let pre = Math.min(leadIn, prev ? roomBefore / 2 : roomBefore);
  let post = Math.min(tail, next ? roomAfter / 2 : roomAfter);
  const over = span + pre + post - max;
  if (over > 0) {
    const cutPost = Math.min(post, over);
    post -= cutPost;
    pre -= Math.min(pre, over - cutPost);
  }

  // Too short: grow into the silence around the run, half on each side, the rest where there is room.
  const need = min - (span + pre + post);
  if (need > EPS) {
    const freeBefore = roomBefore - pre;
    const freeAfter = roomAfter - post;
    if (freeBefore + freeAfter + EPS < need) return null;
    let addBefore = Math.min(freeBefore, need / 2);
    const addAfter = Math.min(freeAfter, need - addBefore);
    addBefore = Math.min(freeBefore, need - addAfter);
    pre += addBefore;
    post += addAfter;
  }
  const s = Math.max(0, start - pre);
  const e = Math.min(duration, end + post);
  return { first, last, start: s, end: e };
}

/** All candidate windows, in order of first sentence then length; none spans a topic boundary. */
export function buildCandidates(sentences: readonly Sentence[], opts: CandidateOptions): CandidateWindow[] {
  const out: CandidateWindow[] = [];
  const boundaries = new Set(opts.boundaries ?? []);
  for (let i = 0; i < sentences.length; i++) {
    for (let j = i; j < sentences.length; j++) {
      if (sentences[j].end - sentences[i].start > opts.maxSeconds + EPS) break;
      if (j > i && boundaries.has(j)) break;
      const w = placeWindow(sentences, i, j, opts);
      if (w) out.push(w);
    }
  }
  return out;
}
