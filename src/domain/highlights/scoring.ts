import type { TimedWord } from '../../ports/highlights.js';
import { HOOK_WORDS, STOPWORDS, isNumberToken, tokenize } from './lexicon.js';
import { clamp01, hookSignal, type SentenceFeatures } from './signals.js';

/**
 * Rating, overlap removal and titles. Pure functions; the weights live in ONE table below
 * (documented in docs/highlights.md — keep both in step).
 */

export type SignalName = 'hook' | 'question' | 'numbers' | 'emotion' | 'complete' | 'cohesion' | 'energy' | 'density' | 'scene';

/**
 * `core` signals form a weighted mean (weights of the core signals present sum to 1 after
 * normalisation, so a missing signal — no loudness track — neither helps nor hurts); `bonus` signals are
 * added on top (weight × value), then the sum is clamped to 1 and scaled to 0..10.
 */
export const HIGHLIGHT_WEIGHTS: Readonly<Record<SignalName, { weight: number; kind: 'core' | 'bonus' }>> = {
  hook: { weight: 0.22, kind: 'core' },
  complete: { weight: 0.14, kind: 'core' },
  emotion: { weight: 0.13, kind: 'core' },
  cohesion: { weight: 0.13, kind: 'core' },
  question: { weight: 0.1, kind: 'core' },
  numbers: { weight: 0.1, kind: 'core' },
  energy: { weight: 0.1, kind: 'core' },
  density: { weight: 0.08, kind: 'core' },
  scene: { weight: 0.03, kind: 'bonus' },
};

/**
 * Overlap allowed between two kept clips (IoU; 0 = none), the title length cap, and the title's word
 * rule for weak recognisers: a content word heard with a confidence under `titleMinConfidence` is never
 * in a title, and a piece of sentence left between such words is a title source only when it holds at
 * least `titleMinWords` words.
 */
export const HIGHLIGHT_SCORING = { maxIou: 0, titleMaxChars: 60, titleMinConfidence: 0.5, titleMinWords: 3 } as const;

/** The unrounded 0..10 rating of a set of signal values (unknown keys are ignored). */
export function combineSignals(signals: Readonly<Record<string, number>>, weights = HIGHLIGHT_WEIGHTS): number {
  let core = 0;
  let coreWeight = 0;
  let bonus = 0;
  for (const [name, { weight, kind }] of Object.entries(weights)) {
    const v = signals[name];
    if (v === undefined || !Number.isFinite(v)) continue;
    if (kind === 'core') {
      core += weight * clamp01(v);
      coreWeight += weight;
    } else bonus += weight * clamp01(v);
  }
  const mean = coreWeight > 0 ? core / coreWeight : 0;
  return 10 * clamp01(mean + bonus);
}

/** 0..10 with one decimal. */
export function roundRating(rating: number): number {
  return Math.round(Math.min(10, Math.max(0, rating)) * 10) / 10;
}

export interface Span {
  start: number;
  end: number;
}

/** Seconds shared by two spans. */
export function intersection(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

/** Intersection over union of two spans. */
export function iou(a: Span, b: Span): number {
  const inter = intersection(a, b);
  const union = a.end - a.start + (b.end - b.start) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Greedy non-maximum suppression: walks `ranked` (best first) and keeps a span unless it overlaps an
 * already kept one by more than `maxIou` (0 = any shared millisecond suppresses). Stops at `limit`.
 */
export function suppressOverlaps<T extends Span>(ranked: readonly T[], maxIou: number = HIGHLIGHT_SCORING.maxIou, limit = Infinity): T[] {
  const kept: T[] = [];
  for (const c of ranked) {
    if (kept.length >= limit) break;
    const clash = kept.some((k) => intersection(c, k) > 1e-3 && iou(c, k) > maxIou);
    if (!clash) kept.push(c);
  }
  return kept;
}

/** How strong a sentence is as a title source: hook-like, a question, numbers, emotion, a sensible length. */
export function sentenceStrength(f: SentenceFeatures): number {
  const n = f.tokens.length;
  const lengthFit = n >= 4 && n <= 16 ? 1 : n >= 2 && n <= 30 ? 0.5 : 0;
  return 0.5 * hookSignal(f) + (f.question ? 0.15 : 0) + 0.15 * Math.min(1, f.numbers) + 0.1 * Math.min(1, f.emotion) + 0.1 * lengthFit;
}

const TITLE_FILLERS = /\b(um+|uh+|uhm|erm|er|hmm+|mm+|you know|i mean)\b[,.]?\s*/gi;
const LEADING_JUNK = /^(?:(?:so|and|but|or|okay|ok|well|yeah|now|right|like|basically|anyway|alright|oh)\b[,.!]?\s+)+/i;

/** Removes fillers, leading conjunctions, repeated words and trailing punctuation (keeps ? and !). */
export function cleanTitleText(text: string): string {
  let t = text.replace(/\s+/g, ' ').trim();
  t = t.replace(TITLE_FILLERS, '').replace(/\s+/g, ' ').trim();
  t = t.replace(LEADING_JUNK, '');
  t = t.replace(/\b(\w+)(\s+\1\b)+/gi, '$1');
  t = t.replace(/^[^\p{L}\p{N}"'“(]+/u, '').replace(/[\s,;:.\-–—…]+$/u, '');
  return t.trim();
}

/** Upper-cases the first letter and the pronoun "I". */
export function capitalise(text: string): string {
  const t = text.replace(/\bi\b(?=$|[\s,.!?']|'[a-z])/g, 'I');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function phraseScore(phrase: string): number {
  let score = 0;
  for (const t of tokenize(phrase)) {
    if (HOOK_WORDS.has(t) || isNumberToken(t)) score += 2;
    else if (!STOPWORDS.has(t)) score += 1;
  }
  return score;
}

/** Cuts text to at most `max` characters at a word boundary, with an ellipsis. */
export function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max / 3 ? cut.slice(0, space) : cut).replace(/[\s,;:.\-–—]+$/, '') + '…';
}

const PREPOSITIONS = new Set([
  'in',
  'on',
  'at',
  'for',
  'to',
  'with',
  'from',
  'of',
  'during',
  'after',
  'before',
  'by',
  'about',
  'into',
  'over',
  'under',
  'than',
  'like',
  'when',
  'while',
  'if',
]);

/** Shortens a phrase by dropping trailing prepositional phrases ("... fail in their first year" -> "... fail"). */
export function dropTrailingPhrases(phrase: string, maxChars: number): string {
  const words = phrase.split(' ');
  while (words.join(' ').length > maxChars) {
    let cut = -1;
    for (let i = words.length - 1; i >= 3; i--) {
      if (PREPOSITIONS.has(words[i].toLowerCase())) {
        cut = i;
        break;
      }
    }
    if (cut < 0) break;
    words.length = cut;
  }
  return words.join(' ').replace(/[\s,;:.\-–—]+$/u, '');
}

/** The key phrase of a sentence: the whole cleaned sentence when short enough, else its strongest clause. */
export function keyPhrase(text: string, question: boolean, maxChars: number = HIGHLIGHT_SCORING.titleMaxChars): string {
  const cleaned = cleanTitleText(text);
  let phrase = cleaned;
  let first = true;
  if (cleaned.length > maxChars) {
    const clauses = cleaned
      .split(/\s*[,;:—–]\s*|\s+-\s+|\s+(?=(?:and|but|because|so|which|while|although|though|then)\b)/i)
      .map((c) => cleanTitleText(c))
      .filter((c) => c.split(' ').length >= 3);
    if (clauses.length > 0) {
      let best = 0;
      for (let i = 1; i < clauses.length; i++) if (phraseScore(clauses[i]) > phraseScore(clauses[best])) best = i;
      phrase = clauses[best];
      first = best === 0;
    }
  }
  const mark = question && first ? '?' : '';
  phrase =
    dropTrailingPhrases(
      phrase.replace(/[?!]$/, (m) => (mark ? '' : m)),
      maxChars - mark.length,
    ) + mark;
  return capitalise(truncateWords(phrase, maxChars));
}

/** True when the recogniser was unsure of a content word (a stopword, or a word without a confidence, never is). */
export function isUnsureWord(w: TimedWord, minConfidence: number = HIGHLIGHT_SCORING.titleMinConfidence): boolean {
  if (w.confidence === undefined || w.confidence >= minConfidence) return false;
  return tokenize(w.text).some((t) => !STOPWORDS.has(t));
}

/**
 * The pieces of a sentence a title may quote: the runs of words between unsure content words
 * (`isUnsureWord`). A sentence without unsure words is one run, whatever its length; a piece cut out of
 * a sentence counts only with at least `minWords` words.
 */
export function titleRuns(words: readonly TimedWord[], minWords: number = HIGHLIGHT_SCORING.titleMinWords): TimedWord[][] {
  const runs: TimedWord[][] = [[]];
  for (const w of words) {
    if (isUnsureWord(w)) runs.push([]);
    else runs[runs.length - 1].push(w);
  }
  if (runs.length === 1) return runs[0].length ? runs : [];
  return runs.filter((r) => r.length >= minWords);
}

/** An extractive title: the key phrase of the window's strongest sentence (earliest on ties). */
export function makeTitle(sentences: readonly SentenceFeatures[], maxChars: number = HIGHLIGHT_SCORING.titleMaxChars): string {
  let best = -1;
  let bestScore = -Infinity;
  sentences.forEach((s, i) => {
    if (cleanTitleText(s.text).length === 0) return;
    const score = sentenceStrength(s);
    if (score > bestScore + 1e-9) {
      best = i;
      bestScore = score;
    }
  });
  return best < 0 ? '' : keyPhrase(sentences[best].text, sentences[best].question, maxChars);
}
