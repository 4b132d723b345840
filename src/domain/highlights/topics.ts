/**
 * Topic shifts in a transcript (docs/highlights.md, "Topic boundaries"), TextTiling-style: at every
 * gap between two sentences, the content stems of the sentences just before it are compared with those
 * just after it (cosine similarity of the two bags). A gap where that similarity falls deep below the
 * peaks on both sides (its depth) is where the talk changes subject. Pure functions.
 */

export interface TopicOptions {
  /** Sentences on each side of a gap at most (a block). Default 8. */
  blockSentences?: number;
  /** A block stops growing once it holds this many content stems. Default 30. */
  blockStems?: number;
  /** Sentences a topic needs on each side of its boundary, at least. Default 4. */
  minSentences?: number;
  /** Strength (0..1) from which a gap is a topic boundary. Default 0.6. */
  threshold?: number;
  /** Peak similarity (on the weaker side) at which a shift counts fully; lower peaks weaken it. Default 0.2. */
  fullPeak?: number;
  /** Similarities averaged over this many gaps on each side before the depths are taken. Default 1. */
  smoothing?: number;
  /** Weigh stems by how bunched together they are (`burstWeights`). Default true. */
  bursty?: boolean;
  /** A boundary's similarity is at most this share of the median similarity of all gaps. Default 0.5. */
  medianShare?: number;
  /** Gaps on each side searched for the similarity peaks. Default 6. */
  peakRange?: number;
  /** A boundary moves to a gap up to two sentences away whose pause is clearly longer (×1.5 and `longerPause` s more) when that gap is at most this much weaker. Default 0.3. */
  pauseMargin?: number;
  /** Seconds a pause must exceed the boundary's own to move it. Default 1. */
  longerPause?: number;
}

export const TOPIC_DEFAULTS: Required<TopicOptions> = {
  blockSentences: 8,
  blockStems: 30,
  minSentences: 4,
  threshold: 0.6,
  fullPeak: 0.2,
  smoothing: 1,
  bursty: true,
  peakRange: 6,
  medianShare: 0.5,
  pauseMargin: 0.3,
  longerPause: 1,
};

/** What the transcript says about topic shifts: one entry per gap (gap g lies between sentence g−1 and g; gap 0 is unused). */
export interface TopicShifts {
  /** Cosine similarity of the blocks on each side of the gap (0 at gap 0). */
  similarity: number[];
  /** 0..1: how sure the gap is a change of subject (0 at gap 0). */
  strength: number[];
  /** The gaps that are topic boundaries (sentence indexes: a boundary g starts a new topic at sentence g), ascending. */
  boundaries: number[];
}

/** Cosine similarity of two bags of stems, each stem's count times its weight. */
export function weightedCosine(a: readonly string[], b: readonly string[], weight: (stem: string) => number = () => 1): number {
  if (a.length === 0 || b.length === 0) return 0;
  const bag = (x: readonly string[]) => {
    const m = new Map<string, number>();
    for (const s of x) m.set(s, (m.get(s) ?? 0) + weight(s));
    return m;
  };
  const ca = bag(a);
  const cb = bag(b);
  let dot = 0;
  for (const [k, v] of ca) dot += v * (cb.get(k) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, v) => s + v * v, 0));
  const d = norm(ca) * norm(cb);
  return d > 0 ? dot / d : 0;
}

/**
 * How much each stem says about the topic where it is said: topic words come in bursts (said again and
 * again in one stretch), words of no topic (and a weak recogniser's stock mistakes, "day", "every") are
 * strewn over the whole talk. A stem said in k sentences from sentence a to sentence b weighs k / (b − a + 1);
 * a stem said in one sentence only weighs 0 (it cannot tie two blocks together, only dilute them).
 */
export function burstWeights(sentenceStems: ReadonlyArray<readonly string[]>): (stem: string) => number {
  const seen = new Map<string, { first: number; last: number; k: number }>();
  sentenceStems.forEach((stems, i) => {
    for (const st of new Set(stems)) {
      const e = seen.get(st);
      if (e) {
        e.last = i;
        e.k++;
      } else seen.set(st, { first: i, last: i, k: 1 });
    }
  });
  return (st) => {
    const e = seen.get(st);
    return e && e.k > 1 ? e.k / (e.last - e.first + 1) : 0;
  };
}

/** The stems of the sentences from `from` going in `step` direction until `blockStems` or `blockSentences` is reached. */
function block(sentenceStems: ReadonlyArray<readonly string[]>, from: number, step: 1 | -1, o: Required<TopicOptions>): string[] {
  const out: string[] = [];
  for (let i = from, k = 0; i >= 0 && i < sentenceStems.length && k < o.blockSentences && out.length < o.blockStems; i += step, k++)
    out.push(...sentenceStems[i]);
  return out;
}

/**
 * The topic shifts of a transcript given each sentence's content stems.
 *
 * - similarity(g) = cosine(block before g, block after g), each block the sentences next to the gap
 *   until it holds `blockStems` stems (at most `blockSentences` sentences);
 * - depth(g) = (hl − s) + (hr − s), with hl and hr the highest similarity reached climbing from g to the
 *   left and to the right while it keeps rising (TextTiling's depth score);
 * - strength(g) = depth / (hl + hr) (1 when nothing is shared across the gap) × min(1, min(hl, hr) / fullPeak):
 *   a dip between two stretches that share few words anyway (varied vocabulary, a weak recogniser) is no evidence;
 * - a boundary: a gap whose strength reaches `threshold`, with at least `minSentences` sentences on each side,
 *   the strongest one kept when two are closer than `minSentences` sentences.
 */
export function topicShifts(sentenceStems: ReadonlyArray<readonly string[]>, opts: TopicOptions = {}, pauses: readonly number[] = []): TopicShifts {
  const o = { ...TOPIC_DEFAULTS, ...opts };
  const n = sentenceStems.length;
  const similarity = new Array<number>(n).fill(0);
  const strength = new Array<number>(n).fill(0);
  const weight = o.bursty ? burstWeights(sentenceStems) : () => 1;
  const raw = new Array<number>(n).fill(0);
  for (let g = 1; g < n; g++) raw[g] = weightedCosine(block(sentenceStems, g - 1, -1, o), block(sentenceStems, g, 1, o), weight);
  for (let g = 1; g < n; g++) {
    let sum = 0;
    let k = 0;
    for (let i = Math.max(1, g - o.smoothing); i <= Math.min(n - 1, g + o.smoothing); i++) {
      sum += raw[i];
      k++;
    }
    similarity[g] = sum / k;
  }
  const sorted = similarity.slice(1).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
  for (let g = 1; g < n; g++) {
    const s = similarity[g];
    let hl = s;
    for (let i = Math.max(1, g - o.peakRange); i < g; i++) hl = Math.max(hl, similarity[i]);
    let hr = s;
    for (let i = g + 1; i <= Math.min(n - 1, g + o.peakRange); i++) hr = Math.max(hr, similarity[i]);
    const depth = hl - s + (hr - s);
    // A shift is a dip far below the transcript's usual similarity between neighbouring blocks, not just below the peaks next to it.
    const belowUsual = median > 0 ? Math.min(1, Math.max(0, (median - s) / ((1 - o.medianShare) * median))) : 0;
    strength[g] = hl + hr > 0 ? (depth / (hl + hr)) * Math.min(1, Math.min(hl, hr) / o.fullPeak) * belowUsual : 0;
  }
  const candidates: number[] = [];
  for (let g = o.minSentences; g <= n - o.minSentences; g++) if (strength[g] >= o.threshold) candidates.push(g);
  // Strongest first; a weaker candidate too close to a kept one is dropped.
  candidates.sort((a, b) => strength[b] - strength[a] || similarity[a] - similarity[b] || a - b);
  const boundaries: number[] = [];
  for (const c of candidates) {
    // Blocks of a few sentences place a shift within a sentence or two: a clearly longer pause next to it, at a gap nearly as strong, places it better.
    let g = c;
    for (let k = Math.max(o.minSentences, c - 2); k <= Math.min(n - o.minSentences, c + 2); k++) {
      const pause = pauses[k] ?? 0;
      const here = pauses[g] ?? 0;
      if (strength[k] >= strength[c] - o.pauseMargin && pause >= 1.5 * here && pause >= here + o.longerPause) g = k;
    }
    if (boundaries.every((b) => Math.abs(b - g) >= o.minSentences)) boundaries.push(g);
  }
  boundaries.sort((a, b) => a - b);
  return { similarity, strength, boundaries };
}

/** The pauses before each sentence (s): entry g is the silence between sentence g−1's last word and sentence g's first (0 for the first). */
export function pausesBefore(sentences: ReadonlyArray<{ start: number; end: number }>): number[] {
  return sentences.map((s, g) => (g === 0 ? 0 : Math.max(0, s.start - sentences[g - 1].end)));
}

/** The strongest topic shift inside the sentences first..last (the gaps between them): 1 across a boundary, 0 when none. */
export function innerShift(shifts: Pick<TopicShifts, 'strength' | 'boundaries'>, first: number, last: number): number {
  if (shifts.boundaries.some((b) => b > first && b <= last)) return 1;
  let max = 0;
  for (let g = first + 1; g <= last; g++) max = Math.max(max, shifts.strength[g] ?? 0);
  return max;
}

/**
 * How much of a window's topic cohesion survives the shifts inside it: 1 when the strongest is at most
 * `from` (0.3), falling linearly to 0 at the boundary threshold (a window across a topic boundary holds no topic together).
 */
export function shiftFactor(shift: number, threshold: number = TOPIC_DEFAULTS.threshold, from = 0.3): number {
  if (shift <= from) return 1;
  return Math.max(0, 1 - (shift - from) / Math.max(1e-9, threshold - from));
}

/**
 * The boundaries that leave every topic long enough for a clip: while a stretch between two
 * boundaries (or between a boundary and the start or end of the speech) lasts less than `minSeconds`,
 * the weaker boundary around the shortest such stretch is dropped. `starts[i]` is sentence i's start, `end` the end of the speech.
 */
export function spacedBoundaries(
  boundaries: readonly number[],
  strength: readonly number[],
  starts: readonly number[],
  end: number,
  minSeconds: number,
): number[] {
  const kept = [...boundaries].sort((a, b) => a - b);
  for (;;) {
    const edges = [starts[0] ?? 0, ...kept.map((b) => starts[b]), end];
    let shortest = -1;
    for (let i = 0; i + 1 < edges.length; i++)
      if (edges[i + 1] - edges[i] < minSeconds && (shortest < 0 || edges[i + 1] - edges[i] < edges[shortest + 1] - edges[shortest])) shortest = i;
    if (shortest < 0 || kept.length === 0) return kept;
    // Stretch `shortest` lies between kept[shortest − 1] (if any) and kept[shortest] (if any).
    const left = shortest - 1 >= 0 ? shortest - 1 : -1;
    const right = shortest < kept.length ? shortest : -1;
    const drop = left < 0 ? right : right < 0 ? left : strength[kept[left]] < strength[kept[right]] ? left : right;
    kept.splice(drop, 1);
  }
}
