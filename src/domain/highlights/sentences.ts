import type { TimedWord } from '../../ports/highlights.js';
import { DANGLING_OPENERS } from './lexicon.js';

/**
 * Timed words -> sentences. A sentence ends at sentence-final punctuation (when the ASR gives any),
 * at a pause between words, or is cut at its weakest point when it runs longer than
 * `maxSentenceSeconds` (unpunctuated continuous speech). Pure functions.
 */

/** How a sentence ends: `.?!`, a pause, a forced split of an over-long stretch, or the end of the speech. */
export type BoundaryKind = 'punctuation' | 'pause' | 'forced' | 'end';

export interface Sentence {
  index: number;
  start: number;
  end: number;
  text: string;
  words: TimedWord[];
  boundary: BoundaryKind;
}

export interface SentenceOptions {
  /** Pause (s) that ends a sentence in unpunctuated text (pocketsphinx). Default 0.6. */
  pauseSeconds?: number;
  /** Pause (s) that ends a sentence when the transcript is punctuated (a pause is then weaker evidence). Default 1.2. */
  punctuatedPauseSeconds?: number;
  /** Longer stretches are split at their longest pause / comma. Default 15. */
  maxSentenceSeconds?: number;
}

export const SENTENCE_DEFAULTS: Required<SentenceOptions> = { pauseSeconds: 0.6, punctuatedPauseSeconds: 1.2, maxSentenceSeconds: 15 };

/** `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++` and similar ASR markers. */
const ASR_MARKER = /^(<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$/;
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'e.g', 'i.e', 'approx', 'fig', 'no']);

/**
 * Drops ASR markers, `(2)` alternate-pronunciation suffixes, empty and non-finite words; clamps to
 * [0, duration]; sorts by time; glues punctuation-only tokens to the previous word. Keeps confidences.
 */
export function cleanWords(words: readonly TimedWord[], duration = Infinity): TimedWord[] {
  const kept: TimedWord[] = [];
  for (const w of words) {
    if (!w || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const text = String(w.text ?? '')
      .trim()
      .replace(/\(\d+\)$/, '');
    if (!text || ASR_MARKER.test(text)) continue;
    const start = Math.max(0, Math.min(w.start, w.end));
    if (start >= duration) continue;
    const word: TimedWord = { start, end: Math.min(Math.max(w.start, w.end), duration), text };
    if (w.confidence !== undefined && Number.isFinite(w.confidence)) word.confidence = w.confidence;
    kept.push(word);
  }
  kept.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TimedWord[] = [];
  for (const w of kept) {
    const prev = out[out.length - 1];
    if (!/[\p{L}\p{N}]/u.test(w.text)) {
      if (prev) out[out.length - 1] = { ...prev, text: prev.text + w.text, end: Math.max(prev.end, w.end) };
      continue;
    }
    out.push(w);
  }
  return out;
}

/** True when the word ends a sentence by its punctuation (abbreviations and initials excluded). */
export function endsWithTerminal(text: string, nextText?: string): boolean {
  const t = text.replace(/["'”’)\]]+$/, '');
  if (/[?!]$/.test(t)) return true;
  if (/(\.\.\.|…)$/.test(t)) return nextText !== undefined && /^[\p{Lu}]/u.test(nextText);
  if (!t.endsWith('.')) return false;
  const base = t.slice(0, -1).toLowerCase();
  return !ABBREVIATIONS.has(base) && !/^\p{L}$/u.test(base);
}

/** A transcript counts as punctuated when it has at least one sentence-final mark per 60 words. */
export function isPunctuated(words: readonly TimedWord[]): boolean {
  let marks = 0;
  for (let i = 0; i < words.length; i++) if (endsWithTerminal(words[i].text, words[i + 1]?.text)) marks++;
  return marks > 0 && marks * 60 >= words.length;
}

/** Joins word texts with single spaces. */
export function joinWords(words: readonly TimedWord[]): string {
  return words
    .map((w) => w.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function makeSentence(words: TimedWord[], boundary: BoundaryKind): Omit<Sentence, 'index'> {
  return { start: words[0].start, end: words[words.length - 1].end, text: joinWords(words), words, boundary };
}

/** Where to cut an over-long stretch: the longest pause, helped by a comma or a clause-opening conjunction. */
function splitPoint(words: TimedWord[]): number {
  const total = words[words.length - 1].end - words[0].start;
  const minPart = Math.min(2, total / 4);
  const mid = words[0].start + total / 2;
  let best = -1;
  let bestScore = -Infinity;
  let bestDist = Infinity;
  for (let pass = 0; pass < 2 && best < 0; pass++) {
    for (let k = 1; k < words.length; k++) {
      const left = words[k - 1].end - words[0].start;
      const right = words[words.length - 1].end - words[k].start;
      if (pass === 0 && (left < minPart || right < minPart)) continue;
      const gap = Math.max(0, words[k].start - words[k - 1].end);
      const comma = /[,;:–—-]$/.test(words[k - 1].text) ? 0.3 : 0;
      const clause = DANGLING_OPENERS.has(words[k].text.toLowerCase().replace(/[^\p{L}']/gu, '')) ? 0.1 : 0;
      const score = gap + comma + clause;
      const dist = Math.abs(words[k].start - mid);
      if (score > bestScore + 1e-9 || (Math.abs(score - bestScore) <= 1e-9 && dist < bestDist)) {
        best = k;
        bestScore = score;
        bestDist = dist;
      }
    }
  }
  return best;
}

function splitLong(words: TimedWord[], boundary: BoundaryKind, maxSeconds: number, out: Array<Omit<Sentence, 'index'>>): void {
  const duration = words[words.length - 1].end - words[0].start;
  if (words.length < 2 || duration <= maxSeconds) {
    out.push(makeSentence(words, boundary));
    return;
  }
  const k = splitPoint(words);
  splitLong(words.slice(0, k), 'forced', maxSeconds, out);
  splitLong(words.slice(k), boundary, maxSeconds, out);
}

/** Splits timed words into sentences (input is cleaned first; see `cleanWords`). */
export function splitSentences(input: readonly TimedWord[], opts: SentenceOptions = {}): Sentence[] {
  const words = cleanWords(input);
  if (words.length === 0) return [];
  const o = { ...SENTENCE_DEFAULTS, ...opts };
  const pause = isPunctuated(words) ? o.punctuatedPauseSeconds : o.pauseSeconds;
  const maxSeconds = Math.max(1, o.maxSentenceSeconds);
  const raw: Array<Omit<Sentence, 'index'>> = [];
  let current: TimedWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    current.push(w);
    let boundary: BoundaryKind | null = null;
    if (!next) boundary = 'end';
    else if (endsWithTerminal(w.text, next.text)) boundary = 'punctuation';
    else if (next.start - w.end >= pause) boundary = 'pause';
    if (boundary) {
      splitLong(current, boundary, maxSeconds, raw);
      current = [];
    }
  }
  return raw.map((s, index) => ({ index, ...s }));
}
