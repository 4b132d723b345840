import type { TimedWord } from '../../ports/highlights.js';
import {
  AUX_WORDS,
  DANGLING_OPENERS,
  EMOTION_WORDS,
  FILLERS,
  HOOK_WORDS,
  IMPERATIVES,
  INTENSIFIERS,
  QUESTION_SUBJECTS,
  STAT_WORDS,
  WH_WORDS,
  contentStems,
  isNumberToken,
  tokenize,
} from './lexicon.js';
import type { BoundaryKind, Sentence } from './sentences.js';

/**
 * The highlight signals. Each is a pure function returning a value in 0..1 (docs/highlights.md lists
 * them with their weights). Text signals work on per-sentence features computed once by `analyzeSentence`.
 */

export interface SentenceFeatures {
  text: string;
  /** Lowercase word tokens. */
  tokens: string[];
  /** Content stems (stopwords removed, stemmed) for topic cohesion. */
  stems: string[];
  question: boolean;
  /** Weighted count of numbers and statistics. */
  numbers: number;
  /** Weighted count of emotional words, intensifiers and exclamation marks. */
  emotion: number;
  /** Opens with "and", "but", "so", ... (after fillers). */
  danglingStart: boolean;
  boundary: BoundaryKind;
}

export const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const saturate = (x: number, scale: number): number => 1 - Math.exp(-Math.max(0, x) / scale);
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

/** Index of the first token that is not a filler ("um", "okay", ...). */
export function firstContentToken(tokens: readonly string[]): number {
  let k = 0;
  while (k < tokens.length && FILLERS.has(tokens[k])) k++;
  return k;
}

/** Question shape without a question mark: "why ...", "what is ...", "do you ...", "how many ...". */
export function looksLikeQuestion(tokens: readonly string[]): boolean {
  let k = firstContentToken(tokens);
  if (DANGLING_OPENERS.has(tokens[k]) && tokens.length > k + 2) k++;
  const [t0, t1] = [tokens[k], tokens[k + 1]];
  if (!t0 || !t1) return false;
  if (/^(what|how|where|who|why)'s$/.test(t0)) return true;
  if (t0 === 'why') return t1 !== 'i' || tokens.length - k < 4;
  if (WH_WORDS.has(t0)) return AUX_WORDS.has(t1) || (t0 === 'how' && /^(many|much|long|often|come|far)$/.test(t1)) || (t0 === 'what' && t1 === 'if');
  return AUX_WORDS.has(t0) && QUESTION_SUBJECTS.has(t1);
}

function numberWeight(tokens: readonly string[]): number {
  let total = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (/\d/.test(t)) total += 1;
    else if (t === 'one') total += 0.15;
    else if (isNumberToken(t)) total += 0.6;
    else if (t === '%' || t === '$' || t === '€' || t === '£') total += 0.6;
    else if (STAT_WORDS.has(t) && (isNumberToken(tokens[i - 1] ?? '') || isNumberToken(tokens[i - 2] ?? ''))) total += 0.6;
  }
  return total;
}

function emotionWeight(tokens: readonly string[], text: string): number {
  let total = 0;
  for (const t of tokens) {
    if (EMOTION_WORDS.has(t)) total += 1;
    else if (INTENSIFIERS.has(t)) total += 0.5;
  }
  return total + 0.5 * (text.match(/!/g)?.length ?? 0);
}

/** Features of one sentence; `punctuated` says whether a missing `?` means "not a question". */
export function analyzeSentence(s: Pick<Sentence, 'text' | 'boundary'>, punctuated: boolean): SentenceFeatures {
  const tokens = tokenize(s.text);
  const k = firstContentToken(tokens);
  const markedQuestion = /\?["'”’)\]]*$/.test(s.text.trim());
  return {
    text: s.text,
    tokens,
    stems: contentStems(tokens),
    question: markedQuestion || (!punctuated && looksLikeQuestion(tokens)),
    numbers: numberWeight(tokens),
    emotion: emotionWeight(tokens, s.text),
    danglingStart: DANGLING_OPENERS.has(tokens[k]),
    boundary: s.boundary,
  };
}

const HOOK_PHRASES = /\b(how to|why|the reason|here's|here is|the truth|the secret|what if|did you know|the problem|the biggest|nobody tells|no one tells)\b/;
const YOU = new Set(['you', 'your', "you're", "you've", "you'll", "you'd", 'yourself']);

/**
 * Hook strength of the opening sentence (merged with the next one when it has fewer than 4 words):
 * question openers, "you", imperatives, surprising/contrarian words, numbers, "how to"/"why" phrases;
 * a dangling conjunction or a filler at the start costs.
 */
export function hookSignal(first: SentenceFeatures, second?: SentenceFeatures): number {
  let { tokens, question, numbers, emotion } = first;
  if (tokens.length < 4 && second) {
    tokens = [...tokens, ...second.tokens];
    question ||= second.question;
    numbers += second.numbers;
    emotion += second.emotion;
  }
  const k = firstContentToken(tokens);
  const t = tokens.slice(k);
  if (t.length === 0) return 0;
  let score = 0;
  if (question || WH_WORDS.has(t[0])) score += 0.3;
  if (t.some((w) => YOU.has(w))) score += 0.15;
  if (IMPERATIVES.has(t[0])) score += 0.2;
  score += Math.min(0.3, 0.15 * t.filter((w) => HOOK_WORDS.has(w)).length);
  if (numbers >= 0.5) score += 0.15;
  if (HOOK_PHRASES.test(t.join(' '))) score += 0.2;
  if (emotion >= 1) score += 0.05;
  if (DANGLING_OPENERS.has(t[0])) score -= 0.25;
  if (k > 0) score -= 0.05;
  if (t.length > 30) score *= 0.85;
  return clamp01(score);
}

/** Questions asked in the window (1 → 0.63, 2 → 0.86); an unanswered closing question counts a little less. */
export function questionSignal(sentences: readonly SentenceFeatures[]): number {
  const q = sentences.filter((s) => s.question).length;
  if (q === 0) return 0;
  const answered = sentences.slice(0, -1).some((s) => s.question);
  return clamp01(saturate(q, 1) * (answered ? 1 : 0.8));
}

function per100Words(sentences: readonly SentenceFeatures[], pick: (s: SentenceFeatures) => number): number {
  let total = 0;
  let words = 0;
  for (const s of sentences) {
    total += pick(s);
    words += s.tokens.length;
  }
  return (total / Math.max(words, 40)) * 100;
}

/** Numbers and statistics per 100 words (3 → 0.63). */
export function numbersSignal(sentences: readonly SentenceFeatures[]): number {
  return clamp01(
    saturate(
      per100Words(sentences, (s) => s.numbers),
      3,
    ),
  );
}

/** Emotional and intensity words per 100 words (5 → 0.63). */
export function emotionSignal(sentences: readonly SentenceFeatures[]): number {
  return clamp01(
    saturate(
      per100Words(sentences, (s) => s.emotion),
      5,
    ),
  );
}

const BOUNDARY_QUALITY: Record<BoundaryKind, number> = { punctuation: 1, end: 1, pause: 0.8, forced: 0.35 };
const TRAILING = new Set(['and', 'but', 'so', 'or', 'because', 'the', 'a', 'an', 'of', 'to', 'with', 'that', 'which', 'if']);

/**
 * A complete thought: the window starts after a real sentence end (`previous` = the boundary of the
 * sentence before it, null at the start of the speech) and ends on one; a dangling conjunction at the
 * start or a word that trails off at the end costs.
 */
export function completeThoughtSignal(previous: BoundaryKind | null, first: SentenceFeatures, last: SentenceFeatures): number {
  const startQ = previous === null ? 1 : BOUNDARY_QUALITY[previous];
  let score = (startQ + BOUNDARY_QUALITY[last.boundary]) / 2;
  if (first.danglingStart) score -= 0.35;
  if (TRAILING.has(last.tokens[last.tokens.length - 1])) score -= 0.2;
  return clamp01(score);
}

function counts(stems: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of stems) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
}

/** Cosine similarity of two bags of words. */
export function cosine(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const ca = counts(a);
  const cb = counts(b);
  let dot = 0;
  for (const [k, v] of ca) dot += v * (cb.get(k) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, v) => s + v * v, 0));
  return dot / (norm(ca) * norm(cb));
}

/**
 * Topic cohesion, TextTiling-style: the window's content stems are cut into blocks; `inside` is the mean
 * similarity of each block to the rest of the window, `across` the similarity of the window's edge blocks
 * to the blocks just before and after it (no neighbour = a natural boundary = 0). High when the window
 * holds together and differs from its surroundings. Too few content words → 0.5 (no evidence).
 */
export function cohesionSignal(before: readonly string[], inside: readonly string[], after: readonly string[], blockSize = 10): number {
  if (inside.length < 6) return 0.5;
  const size = Math.max(3, Math.min(blockSize, Math.floor(inside.length / 2)));
  const blocks: string[][] = [];
  for (let i = 0; i < inside.length; i += size) blocks.push(inside.slice(i, i + size));
  if (blocks.length > 2 && blocks[blocks.length - 1].length < size / 2) blocks[blocks.length - 2].push(...blocks.pop()!);
  // each block against the rest of the window (rest = window bag minus block bag, no re-counting)
  const total = counts(inside);
  const totalNorm2 = [...total.values()].reduce((acc, v) => acc + v * v, 0);
  let insideSim = 0;
  for (const block of blocks) {
    const b = counts(block);
    let dot = 0;
    let blockNorm2 = 0;
    let restNorm2 = totalNorm2;
    for (const [k, v] of b) {
      const t = total.get(k)!;
      dot += v * (t - v);
      blockNorm2 += v * v;
      restNorm2 += (t - v) ** 2 - t * t;
    }
    insideSim += restNorm2 > 0 ? dot / Math.sqrt(blockNorm2 * restNorm2) : 0;
  }
  insideSim /= blocks.length;
  const sides: number[] = [];
  sides.push(before.length ? cosine(blocks[0], before.slice(-size)) : 0);
  sides.push(after.length ? cosine(blocks[blocks.length - 1], after.slice(0, size)) : 0);
  const across = (sides[0] + sides[1]) / 2;
  return clamp01(0.5 * clamp01(insideSim / 0.35) + 0.5 * clamp01(0.5 + (insideSim - across) / 0.4));
}

export interface LoudnessStats {
  values: number[];
  mean: number;
  std: number;
}

/** Whole-video loudness statistics; non-finite values (digital silence) count as the quietest second. */
export function loudnessStats(loudness: readonly number[]): LoudnessStats | null {
  const finite = loudness.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return null;
  const floor = Math.min(...finite);
  const values = loudness.map((v) => (Number.isFinite(v) ? v : floor));
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const std = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
  return { values, mean, std };
}

/**
 * Energy peaks: the window's mean loudness and its 90th-percentile second, as z-scores against the whole
 * video (0.6·σ(1.5·z_mean) + 0.4·σ(1.5·(z_peak − 1))). No data or a flat track → 0.5.
 */
export function energySignal(stats: LoudnessStats | null, start: number, end: number): number {
  if (!stats || stats.std < 0.5) return 0.5;
  const from = Math.max(0, Math.floor(start));
  const to = Math.min(stats.values.length, Math.max(from + 1, Math.ceil(end)));
  const win = stats.values.slice(from, to);
  if (win.length === 0) return 0.5;
  const mean = win.reduce((s, v) => s + v, 0) / win.length;
  const sorted = [...win].sort((a, b) => a - b);
  const peak = sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))];
  const zMean = (mean - stats.mean) / stats.std;
  const zPeak = (peak - stats.mean) / stats.std;
  return clamp01(0.6 * logistic(1.5 * zMean) + 0.4 * logistic(1.5 * (zPeak - 1)));
}

/**
 * Speech density: words per second (≤ 0.8 → 0, ≥ 2.2 → 1), times a penalty for the longest silence
 * inside the window (edges included) beyond 1.5 s (−0.2 per second, at most −0.6).
 */
export function speechDensitySignal(words: readonly TimedWord[], start: number, end: number): number {
  const length = end - start;
  if (length <= 0 || words.length === 0) return 0;
  const density = clamp01((words.length / length - 0.8) / 1.4);
  let longest = Math.max(0, words[0].start - start, end - words[words.length - 1].end);
  for (let i = 1; i < words.length; i++) longest = Math.max(longest, words[i].start - words[i - 1].end);
  const penalty = Math.min(0.6, Math.max(0, longest - 1.5) * 0.2);
  return clamp01(density * (1 - penalty));
}

/** Scene-cut alignment: each edge scores 1 within 0.25 s of a cut, fading to 0 at 1.25 s; the mean of both edges. */
export function sceneCutSignal(cuts: readonly number[], start: number, end: number): number {
  if (cuts.length === 0) return 0;
  const edge = (t: number) => {
    let d = Infinity;
    for (const c of cuts) d = Math.min(d, Math.abs(c - t));
    return clamp01(1 - Math.max(0, d - 0.25) / 1.0);
  };
  return (edge(start) + edge(end)) / 2;
}
