import type {
  HighlightClip,
  HighlightInput,
  HighlightScoreContext,
  HighlightScorer,
  HighlightStrategy,
  RankedHighlight,
  TimedWord,
} from '../../ports/highlights.js';
import { buildCandidates, type CandidateWindow } from './candidates.js';
import { buildQuery, matchTokens, stemWord, termWeights, type PickQuery } from './matching.js';
import { HIGHLIGHT_SCORING, combineSignals, roundRating, suppressOverlaps } from './scoring.js';
import { cleanWords, isPunctuated, splitSentences, SENTENCE_DEFAULTS, type Sentence } from './sentences.js';
import { clipReason, distinctTitles, keyPhrases, scoreDetails, stemStats, type StemStats } from './explain.js';
import {
  analyzeSentence,
  cohesionSignal,
  completeThoughtSignal,
  emotionSignal,
  energySignal,
  hookSignal,
  loudnessStats,
  numbersSignal,
  questionSignal,
  sceneCutSignal,
  speechDensitySignal,
  type SentenceFeatures,
} from './signals.js';
import { innerShift, pausesBefore, shiftFactor, spacedBoundaries, topicShifts, type TopicShifts } from './topics.js';

/**
 * The embedded highlight engine (deterministic, no I/O): sentences → candidate windows → signals →
 * rating → non-overlapping picks with titles. docs/highlights.md explains every step.
 */

/** Built-in strategies (every workspace has them). */
export const HIGHLIGHT_STRATEGIES: Readonly<Record<'short' | 'default' | 'long', HighlightStrategy>> = {
  short: { min_seconds: 15, max_seconds: 30, max_clips: 12 },
  default: { min_seconds: 20, max_seconds: 60, max_clips: 10 },
  long: { min_seconds: 60, max_seconds: 90, max_clips: 6 },
};

/** Fills missing fields from the default strategy and repairs nonsense (min ≥ 1 s, max ≥ min, ≥ 1 clip). */
export function resolveStrategy(s: Partial<HighlightStrategy> = {}): HighlightStrategy {
  const d = HIGHLIGHT_STRATEGIES.default;
  const pick = (v: number | undefined, fallback: number) => (v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback);
  const min = Math.max(1, pick(s.min_seconds, d.min_seconds));
  const max = Math.max(min, pick(s.max_seconds, Math.max(min, d.max_seconds)));
  return { min_seconds: min, max_seconds: max, max_clips: Math.max(1, Math.floor(pick(s.max_clips, d.max_clips))) };
}

/** A scored candidate: the public clip plus the unrounded score used for ranking. */
export type RankedCandidate = RankedHighlight;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Sorts best first; ties go to the earlier, then the shorter clip (deterministic). */
function byScore(a: RankedCandidate, b: RankedCandidate): number {
  return b.score - a.score || a.clip.start - b.clip.start || a.clip.end - b.clip.end;
}

interface Analysis {
  /** All words, in sentence order; sentence i holds words[wordOffsets[i]..wordOffsets[i+1]]. */
  words: TimedWord[];
  wordOffsets: number[];
  sentences: Sentence[];
  features: SentenceFeatures[];
  /** Prefix offsets into `stems` per sentence (stems of sentence i are stems[offsets[i]..offsets[i+1]]). */
  stems: string[];
  offsets: number[];
  /** Sentence-level document frequency of content stems (key phrases). */
  stemStats: StemStats;
  loudness: ReturnType<typeof loudnessStats>;
  cuts: number[];
  duration: number;
  /** What the picks look for (prompt, keywords), with each prompt word's weight and every sentence's Porter2 stems; null: nothing. */
  query: PickQuery | null;
  weight: (word: string) => number;
  tokenStems: string[][];
  /** Topic shifts between sentences (topics.ts): no window spans a boundary, a weaker shift inside a window lowers its cohesion. */
  topics: TopicShifts;
  /** The speech's language (ISO 639-1), for the key phrases' stopwords and the reasons' words. */
  language?: string;
}

function analyze(input: HighlightInput, strategy: HighlightStrategy): Analysis {
  const duration = Math.max(0, input.duration);
  const cleaned = cleanWords(input.words ?? [], duration);
  const sentences = splitSentences(cleaned, { maxSentenceSeconds: Math.min(SENTENCE_DEFAULTS.maxSentenceSeconds, strategy.max_seconds) });
  const punctuated = isPunctuated(cleaned);
  const words = sentences.flatMap((s) => s.words);
  const wordOffsets = [0];
  for (const s of sentences) wordOffsets.push(wordOffsets[wordOffsets.length - 1] + s.words.length);
  const features = sentences.map((s) => analyzeSentence(s, punctuated));
  const stems: string[] = [];
  const offsets = [0];
  for (const f of features) {
    stems.push(...f.stems);
    offsets.push(stems.length);
  }
  const cuts = (input.scene_cuts ?? []).filter((c) => Number.isFinite(c)).sort((a, b) => a - b);
  const query = buildQuery(input);
  const weight = query
    ? termWeights(
        query,
        features.map((f) => f.tokens),
      )
    : () => 1;
  const tokenStems = query ? features.map((f) => f.tokens.map(stemWord)) : [];
  const loudness = loudnessStats(input.loudness ?? []);
  const stats = stemStats(features.map((f) => f.stems));
  const shifts = topicShifts(
    features.map((f) => f.stems),
    {},
    pausesBefore(sentences),
  );
  // A topic shorter than the shortest clip is no topic of its own: the weaker boundary around it goes.
  const spaced = spacedBoundaries(
    shifts.boundaries,
    shifts.strength,
    sentences.map((s) => s.start),
    sentences.length ? sentences[sentences.length - 1].end : 0,
    strategy.min_seconds,
  );
  const topics = { ...shifts, boundaries: spaced };
  return {
    words,
    wordOffsets,
    sentences,
    features,
    stems,
    offsets,
    stemStats: stats,
    loudness,
    cuts,
    duration,
    query,
    weight,
    tokenStems,
    topics,
    language: input.language,
  };
}

/** Every signal of one window. Energy is left out when there is no loudness track. */
function windowSignals(a: Analysis, w: CandidateWindow): Record<string, number> {
  const feats = a.features.slice(w.first, w.last + 1);
  const inside = a.stems.slice(a.offsets[w.first], a.offsets[w.last + 1]);
  const before = a.stems.slice(Math.max(0, a.offsets[w.first] - 40), a.offsets[w.first]);
  const after = a.stems.slice(a.offsets[w.last + 1], a.offsets[w.last + 1] + 40);
  const signals: Record<string, number> = {
    hook: hookSignal(feats[0], feats[1]),
    question: questionSignal(feats),
    numbers: numbersSignal(feats),
    emotion: emotionSignal(feats),
    complete: completeThoughtSignal(w.first > 0 ? a.sentences[w.first - 1].boundary : null, feats[0], feats[feats.length - 1]),
    cohesion: cohesionSignal(before, inside, after) * shiftFactor(innerShift(a.topics, w.first, w.last)),
    density: speechDensitySignal(a.words.slice(a.wordOffsets[w.first], a.wordOffsets[w.last + 1]), w.start, w.end),
    scene: sceneCutSignal(a.cuts, w.start, w.end),
  };
  if (a.loudness) signals.energy = energySignal(a.loudness, w.start, w.end);
  for (const k of Object.keys(signals)) signals[k] = Math.round(signals[k] * 1000) / 1000;
  return signals;
}

/** A candidate with the sentences it spans (for its key phrases, once picked). */
type WindowCandidate = RankedCandidate & { first: number; last: number };

function toCandidate(a: Analysis, w: CandidateWindow, strategy: HighlightStrategy): WindowCandidate {
  const signals = windowSignals(a, w);
  const score = combineSignals(signals);
  // Millisecond precision, without the rounding pushing the length out of [min, max].
  let start = Math.max(0, round3(w.start));
  let end = Math.min(a.duration, round3(w.end));
  if (a.duration >= strategy.min_seconds) {
    if (end - start > strategy.max_seconds + 1e-6) end = round3(end - 0.001);
    if (end - start < strategy.min_seconds - 1e-6) {
      if (round3(end + 0.001) <= a.duration) end = round3(end + 0.001);
      else start = Math.max(0, round3(start - 0.001));
    }
  }
  const sentences = a.sentences.slice(w.first, w.last + 1);
  // The title and the reason are written once the clips are picked (`describePicks`).
  const title = '';
  const text = sentences.map((s) => s.text).join(' ');
  const score_details = scoreDetails(signals);
  const at = { first: w.first, last: w.last };
  if (!a.query) return { clip: { start, end, rating: roundRating(score), title, text, signals, score_details }, score, ...at };
  const feats = a.features.slice(w.first, w.last + 1);
  const m = matchTokens(
    a.query,
    feats.flatMap((f) => f.tokens),
    a.weight,
    a.tokenStems.slice(w.first, w.last + 1).flat(),
  );
  // A matching clip ranks above every clip that does not (its key starts at 10, above any rating).
  const steered = m.matches ? steeredRating(score, m.relevance) : score;
  return {
    clip: { start, end, rating: roundRating(steered), title, text, signals, matched: m.matched, score_details },
    score: m.matches ? 10 + steered : score,
    match: { matches: m.matches, relevance: m.relevance, base: score },
    ...at,
  };
}

/** A matching clip's 0..10 rating: half its own rating, half its relevance to the prompt and keywords (at least 0.1). */
export function steeredRating(score: number, relevance: number): number {
  return Math.max(0.1, 0.5 * score + 5 * relevance);
}

/**
 * With a prompt or keywords: a clip that matches nothing is rated below every clip that matches (its
 * rating capped 0.1 under the lowest matching one, which rates at least 0.1), so the order by rating
 * puts matching clips first.
 */
export function capUnmatched<T extends { clip: HighlightClip; match?: { matches: boolean } }>(picks: T[]): T[] {
  // A matching clip rates at least 0.1, so that a clip matching nothing (at least 0) stays below it.
  const lifted = picks.map((p) => (p.match?.matches && p.clip.rating < 0.1 ? { ...p, clip: { ...p.clip, rating: 0.1 } } : p));
  const matching = lifted.filter((p) => p.match?.matches).map((p) => p.clip.rating);
  if (matching.length === 0) return lifted;
  const cap = Math.round((Math.min(...matching) - 0.1) * 10) / 10;
  return lifted.map((p) => (p.match && !p.match.matches && p.clip.rating > cap ? { ...p, clip: { ...p.clip, rating: Math.max(0, cap) } } : p));
}

/** Clips that match nothing make up a minimum of this many clips (when the strategy allows as many). */
export const STEERED_MIN_CLIPS = 3;

/**
 * Every candidate window scored, best first (overlapping). A video shorter than the strategy's minimum
 * yields one candidate covering the whole video (when anything is said in it); nothing said → none.
 */
export function rankCandidates(input: HighlightInput): RankedCandidate[] {
  return rankWindows(input).ranked.map(({ clip, score, match }) => (match ? { clip, score, match } : { clip, score }));
}

function rankWindows(input: HighlightInput): { a: Analysis; ranked: WindowCandidate[] } {
  const strategy = resolveStrategy(input.strategy);
  const a = analyze(input, strategy);
  if (a.sentences.length === 0 || a.duration <= 0) return { a, ranked: [] };
  let windows: CandidateWindow[];
  if (a.duration < strategy.min_seconds) {
    windows = [{ first: 0, last: a.sentences.length - 1, start: 0, end: a.duration }];
  } else {
    const opts = { minSeconds: strategy.min_seconds, maxSeconds: strategy.max_seconds, duration: a.duration };
    windows = buildCandidates(a.sentences, { ...opts, boundaries: a.topics.boundaries });
    // Topics too short for any clip: windows may then span them (their cohesion says so).
    if (windows.length === 0) windows = buildCandidates(a.sentences, opts);
  }
  return { a, ranked: windows.map((w) => toCandidate(a, w, strategy)).sort(byScore) };
}

/**
 * The picked clips (best first) with their key phrases turned into titles (different for every clip)
 * and reasons (explain.ts).
 */
function describePicks(a: Analysis, picks: readonly WindowCandidate[]): RankedCandidate[] {
  const phrases = picks.map((p) =>
    keyPhrases(
      a.sentences.slice(p.first, p.last + 1).map((s) => s.words),
      a.stemStats,
      5,
      a.language,
    ),
  );
  const titles = distinctTitles(
    picks.map((p, i) => ({ phrases: phrases[i], text: p.clip.text, start: p.clip.start })),
    undefined,
    a.language,
  );
  return picks.map((p, i) => {
    const reason = clipReason({
      phrases: phrases[i],
      text: p.clip.text,
      details: p.clip.score_details!,
      signals: p.clip.signals,
      matched: p.clip.matched,
      language: a.language,
    });
    const clip = { ...p.clip, title: titles[i], reason };
    return p.match ? { clip, score: p.score, match: p.match } : { clip, score: p.score };
  });
}

/** Non-overlapping picks from ranked candidates (greedy NMS), at most `limit`. */
export function selectHighlights<T extends RankedCandidate>(ranked: readonly T[], limit: number): T[] {
  const spans = (list: readonly T[]) => list.map((r) => ({ r, start: r.clip.start, end: r.clip.end }));
  const strip = (s: { r: T }): T => s.r;
  if (!ranked.some((r) => r.match)) return suppressOverlaps(spans(ranked), HIGHLIGHT_SCORING.maxIou, limit).map(strip);
  // Steered: the matching clips first; clips matching nothing only make up a minimum of three.
  const kept = suppressOverlaps(spans(ranked.filter((r) => r.match?.matches)), HIGHLIGHT_SCORING.maxIou, limit);
  const fill = Math.min(STEERED_MIN_CLIPS, limit);
  const all = kept.length >= fill ? kept : suppressOverlaps([...kept, ...spans(ranked.filter((r) => !r.match?.matches))], HIGHLIGHT_SCORING.maxIou, fill);
  return capUnmatched(all.map(strip));
}

/**
 * The engine's CPU work in one pure step: every candidate scored, then the best `count`
 * non-overlapping ones (what a scorer's `shortlist` computes elsewhere, e.g. in the compute pool).
 */
export function shortlistHighlights(input: HighlightInput, count: number): RankedCandidate[] {
  const { a, ranked } = rankWindows(input);
  return describePicks(a, selectHighlights(ranked, count));
}

/** The embedded engine: rated, titled, non-overlapping clips, best first (rating desc). Deterministic. */
export function pickHighlights(input: HighlightInput): HighlightClip[] {
  const strategy = resolveStrategy(input.strategy);
  return shortlistHighlights(input, strategy.max_clips).map((r) => r.clip);
}

export interface ScorerRunOptions {
  /** Called when the scorer throws (scorers should not; they fall back by themselves). */
  onScorerError?: (err: unknown) => void;
}

/**
 * The engine with an optional scorer (an LLM): the engine's non-overlapping shortlist (at least the
 * scorer's `maxCandidates`) is re-rated by the scorer, then the best `max_clips` are kept. Any scorer
 * failure leaves the embedded ratings and titles. Never rejects because of the scorer. A scorer with
 * `shortlist` computes the engine's shortlist itself (off the event loop); one without `rescore`
 * leaves the engine's picks as they are.
 */
export async function pickHighlightsWithScorer(input: HighlightInput, scorer?: HighlightScorer, opts: ScorerRunOptions = {}): Promise<HighlightClip[]> {
  const strategy = resolveStrategy(input.strategy);
  const count = scorer?.rescore ? Math.max(strategy.max_clips, scorer.maxCandidates) : strategy.max_clips;
  const shortlist = scorer?.shortlist ? await scorer.shortlist(input, count) : shortlistHighlights(input, count);
  if (!scorer?.rescore) return shortlist.map((r) => r.clip);
  const embedded = shortlist.map((r) => r.clip);
  if (embedded.length === 0) return [];
  // With a prompt or keywords the scorer rates each clip's own potential (the rating without the prompt);
  // a matching clip's relevance is then applied to its blended rating as the engine applies it to its own.
  const base = (i: number) => shortlist[i].match?.base;
  const ctx: HighlightScoreContext = { language: input.language || 'en', duration: Math.max(0, input.duration), strategy };
  if (input.prompt) ctx.prompt = input.prompt;
  if (input.keywords?.length) ctx.keywords = input.keywords;
  let rescored: HighlightClip[];
  try {
    rescored = await scorer.rescore(
      embedded.map((c, i) => ({ ...c, signals: { ...c.signals }, ...(base(i) !== undefined ? { rating: roundRating(base(i)!) } : {}) })),
      ctx,
    );
  } catch (err) {
    opts.onScorerError?.(err);
    rescored = []; // nothing re-rated: the engine's clips as they are
  }
  // Keep only clips the engine proposed (a scorer may not invent or move clips).
  const known = new Map(embedded.map((c, i) => [`${c.start}:${c.end}`, i]));
  const merged = embedded.map((c) => ({ ...c }));
  for (const r of rescored ?? []) {
    const i = known.get(`${r.start}:${r.end}`);
    if (i === undefined || !Number.isFinite(r.rating)) continue;
    const m = shortlist[i].match;
    merged[i] = {
      ...embedded[i],
      rating: roundRating(m?.matches ? steeredRating(r.rating, m.relevance) : r.rating),
      title: r.title || embedded[i].title,
      signals: r.signals ?? embedded[i].signals,
      score_details: r.score_details ?? embedded[i].score_details,
      reason: r.reason || embedded[i].reason,
      // What the clip says is a fact of its text: the scorer may add words it found, never remove the engine's.
      matched: [...new Set([...(embedded[i].matched ?? []), ...(r.matched ?? [])])],
    };
    if (!embedded[i].matched && !r.matched) delete merged[i].matched;
  }
  // Titles stay different for every clip: a scorer's title another clip already has gives way to the engine's.
  const taken = new Set<string>();
  merged.forEach((c, i) => {
    const at = `${Math.floor(c.start / 60)}:${String(Math.floor(c.start % 60)).padStart(2, '0')}`;
    c.title = [c.title, embedded[i].title, `${embedded[i].title} (${at})`].find((t) => !taken.has(t.toLowerCase())) ?? `${c.title} (${at})`;
    taken.add(c.title.toLowerCase());
  });
  // With a prompt or keywords, matching clips stay above the others whatever the scorer said.
  const matches = (i: number) => (shortlist[i].match?.matches ? 1 : 0);
  const order = merged.map((clip, i) => ({ clip, i, match: shortlist[i].match }));
  order.sort((x, y) => matches(y.i) - matches(x.i) || y.clip.rating - x.clip.rating || shortlist[y.i].score - shortlist[x.i].score || x.i - y.i);
  return capUnmatched(order.slice(0, strategy.max_clips)).map((o) => o.clip);
}
