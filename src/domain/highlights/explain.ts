import type { ScoreDetails, TimedWord } from '../../ports/highlights.js';
import { HIGHLIGHT_WEIGHTS, capitalise, isUnsureWord } from './scoring.js';
import { EMOTION_WORDS, FILLERS, isNumberToken, stem, tokenize } from './lexicon.js';
import { REASON_FRAMES, reasonLanguage, stopwordsOf } from './languages.js';

/**
 * What a clip is about and why it scored as it did (docs/highlights.md, "Sub-scores, reasons and
 * titles"): the four sub-scores from the signals, the clip's key phrases (its most distinctive runs of
 * content words, the stopwords of the clip's language left out), a title from them that no other clip
 * of the submission has, and a one-sentence reason in the clip's language (languages.ts). Pure functions.
 */

/** Which signals make each sub-score (their weights are HIGHLIGHT_WEIGHTS'). */
export const SUB_SCORE_SIGNALS: Readonly<Record<keyof ScoreDetails, readonly string[]>> = {
  hook: ['hook'],
  coherence: ['complete', 'cohesion'],
  value: ['question', 'numbers', 'emotion'],
  delivery: ['energy', 'density'],
};

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * The sub-scores (0..10, one decimal): each the weighted mean of its signals (weights of
 * HIGHLIGHT_WEIGHTS; a missing signal, e.g. energy without a loudness track, is left out). The
 * embedded rating is exactly `10·min(1, Σ W_g·sub_g/10 / Σ W_g + 0.03·scene)` with W_g each sub-score's
 * summed weight (hook 0.22, coherence 0.27, value 0.33, delivery 0.18, or 0.08 without loudness).
 */
export function scoreDetails(signals: Readonly<Record<string, number>>): ScoreDetails {
  const out = {} as ScoreDetails;
  for (const [name, keys] of Object.entries(SUB_SCORE_SIGNALS) as Array<[keyof ScoreDetails, readonly string[]]>) {
    let sum = 0;
    let w = 0;
    for (const k of keys) {
      const v = signals[k];
      if (v === undefined || !Number.isFinite(v)) continue;
      const weight = HIGHLIGHT_WEIGHTS[k as keyof typeof HIGHLIGHT_WEIGHTS].weight;
      sum += weight * Math.min(1, Math.max(0, v));
      w += weight;
    }
    out[name] = w > 0 ? round1((10 * sum) / w) : 0;
  }
  return out;
}

/** The summed signal weight of each sub-score given which signals are present (what `scoreDetails` combines with). */
export function subScoreWeights(signals: Readonly<Record<string, number>>): Record<keyof ScoreDetails, number> {
  const out = {} as Record<keyof ScoreDetails, number>;
  for (const [name, keys] of Object.entries(SUB_SCORE_SIGNALS) as Array<[keyof ScoreDetails, readonly string[]]>) {
    out[name] = keys.filter((k) => signals[k] !== undefined).reduce((s, k) => s + HIGHLIGHT_WEIGHTS[k as keyof typeof HIGHLIGHT_WEIGHTS].weight, 0);
  }
  return out;
}

/** Words that end a key phrase badly (verbs, adverbs said as content words); a phrase ending on one scores less. */
const WEAK_END = new Set(
  'make made makes making take took takes taking come came comes coming give gave gives put puts keep kept keeps want wanted wants think thought thinks feel felt tell told try tried let sat walked went looked saw asked used need needs seem seemed start started turn turned'.split(
    ' ',
  ),
);

/** Adverbs of time and degree that are not stopwords but never start or end a key phrase well. */
const PHRASE_BREAKERS = new Set(
  `never always ever often sometimes usually again today now instead ago everyone everybody nobody people near across along behind beside
   toward towards around inside outside upon within without onto next among via per`
    .trim()
    .split(/\s+/),
);

/** The bare word of an ASR token: lowercase (unless `keepCase`), punctuation around it removed (apostrophes inside kept). */
function bare(text: string, keepCase = false): string {
  return (keepCase ? text : text.toLowerCase()).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/’/g, "'");
}

/** A candidate key phrase: its words as said (punctuation removed) and their stems. */
interface Phrase {
  text: string;
  stems: string[];
}

/**
 * Runs of content words of one sentence: broken at stopwords (of the language: `stopwordsOf`), fillers,
 * punctuation inside the sentence, and content words the recogniser was unsure of (never title words);
 * each run gives its sub-runs of 1–3 words.
 */
export function phraseCandidates(words: readonly TimedWord[], stopwords: ReadonlySet<string> = stopwordsOf('en'), keepCase = false): Phrase[] {
  const runs: TimedWord[][] = [];
  let run: TimedWord[] = [];
  const flush = () => {
    if (run.length > 0) runs.push(run);
    run = [];
  };
  for (const w of words) {
    const b = bare(w.text);
    if (!b || stopwords.has(b) || FILLERS.has(b) || PHRASE_BREAKERS.has(b) || b.length < 2 || isUnsureWord(w) || !/\p{L}/u.test(b)) {
      flush();
      continue;
    }
    run.push(w);
    if (/[,.;:!?…—–)"”]$/.test(w.text.trim())) flush();
  }
  flush();
  const out: Phrase[] = [];
  for (const r of runs) {
    for (let len = 1; len <= Math.min(3, r.length); len++) {
      for (let i = 0; i + len <= r.length; i++) {
        const part = r.slice(i, i + len);
        const said = part.map((w) => bare(w.text));
        const text = keepCase ? part.map((w) => bare(w.text, true)).join(' ') : said.join(' ');
        out.push({ text, stems: said.map(stem) });
      }
    }
  }
  return out;
}

/** Sentence-level document frequency of stems over the whole transcript, for `keyPhrases`. */
export interface StemStats {
  /** Sentences in the transcript. */
  n: number;
  df: ReadonlyMap<string, number>;
}

export function stemStats(sentenceStems: ReadonlyArray<readonly string[]>): StemStats {
  const df = new Map<string, number>();
  for (const s of sentenceStems) for (const st of new Set(s)) df.set(st, (df.get(st) ?? 0) + 1);
  return { n: sentenceStems.length, df };
}

/**
 * A clip's key phrases, most distinctive first (at most `max`, none contained in a better one): each
 * word scores tf·idf (its count in the clip times `ln(1 + N/df)` over the transcript's sentences), a
 * phrase the mean of its words, ×(1 + 0.25 per extra word), ×0.6 when it ends on a verb-like or -ly
 * word (English only), ×0.5 for a lone word under 4 letters. `language` (ISO 639-1) chooses the stopwords.
 */
export function keyPhrases(sentences: ReadonlyArray<readonly TimedWord[]>, stats: StemStats, max = 5, language?: string): string[] {
  const stopwords = stopwordsOf(language);
  const english = reasonLanguage(language) === 'en';
  // German writes its nouns with a capital: its phrases keep the case they were written in.
  const phrases = sentences.flatMap((s) => phraseCandidates(s, stopwords, reasonLanguage(language) === 'de'));
  const tf = new Map<string, number>();
  for (const s of sentences)
    for (const w of s) if (bare(w.text) && !stopwords.has(bare(w.text))) tf.set(stem(bare(w.text)), (tf.get(stem(bare(w.text))) ?? 0) + 1);
  const idf = (st: string) => Math.log(1 + stats.n / Math.max(1, stats.df.get(st) ?? 1));
  const scored = new Map<string, number>();
  for (const p of phrases) {
    if (scored.has(p.text)) continue;
    const mean = p.stems.reduce((s, st) => s + Math.min(3, tf.get(st) ?? 1) * idf(st), 0) / p.stems.length;
    const said = p.text.toLowerCase().split(' ');
    const last = said[said.length - 1];
    let score = mean * (1 + 0.25 * (p.stems.length - 1));
    if (english && (WEAK_END.has(last) || /(ly|ed)$/.test(last))) score *= 0.6;
    if (english && said.length > 1 && (WEAK_END.has(said[0]) || /(ly|ed)$/.test(said[0]))) score *= 0.7;
    if (p.stems.length === 1 && last.length < 4) score *= 0.5;
    if (isNumberToken(last)) score *= 0.5;
    scored.set(p.text, score);
  }
  const ranked = [...scored.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const out: string[] = [];
  for (const [text] of ranked) {
    if (out.length >= max) break;
    if (out.some((o) => ` ${o} `.includes(` ${text} `) || ` ${text} `.includes(` ${o} `))) continue;
    out.push(text);
  }
  return out;
}

/** True when `title` is the clip's opening words (what a truncated first sentence would be). */
export function isOpeningWords(title: string, clipText: string): boolean {
  const t = tokenize(title);
  const c = tokenize(clipText);
  return t.length > 0 && t.every((w, i) => c[i] === w);
}

/**
 * Titles for a submission's clips, best clip first: each clip takes its best key phrase that no
 * earlier clip took and that is not its opening words; else its two best phrases joined ("A and B", the
 * "and" of the clip's language), else `Clip at m:ss`. Capitalised, at most 60 characters.
 */
export function distinctTitles(clips: ReadonlyArray<{ phrases: readonly string[]; text: string; start: number }>, maxChars = 60, language?: string): string[] {
  const used = new Set<string>();
  const and = REASON_FRAMES[reasonLanguage(language)].and;
  return clips.map((c) => {
    const options = [...c.phrases];
    for (let i = 0; i < c.phrases.length; i++) for (let j = i + 1; j < c.phrases.length; j++) options.push(`${c.phrases[i]} ${and} ${c.phrases[j]}`);
    for (const o of options) {
      const title = capitalise(o);
      if (title.length > maxChars || used.has(title.toLowerCase()) || isOpeningWords(title, c.text)) continue;
      used.add(title.toLowerCase());
      return title;
    }
    const title = `Clip at ${Math.floor(c.start / 60)}:${String(Math.floor(c.start % 60)).padStart(2, '0')}`;
    used.add(title.toLowerCase());
    return title;
  });
}

/** The first word of `tokens` that `test` accepts, with the word after it when that is a content word ("ninety percent"). */
function evidence(tokens: readonly string[], test: (t: string) => boolean, stopwords: ReadonlySet<string>): string | null {
  const i = tokens.findIndex(test);
  if (i < 0) return null;
  const next = tokens[i + 1];
  return next && !stopwords.has(next) ? `${tokens[i]} ${next}` : tokens[i];
}

/**
 * One sentence on what the clip is about (its two best key phrases) and why it scored as it did: its
 * strong sub-scores with what in the transcript made them (the opening words, a figure, a feeling
 * word, a question), a weak point when there is one, and what it matched of the prompt or keywords.
 * Written in the clip's `language` (ISO 639-1; the frames of languages.ts, English for others); the
 * phrases and quotes are the transcript's words.
 */
export function clipReason(c: {
  phrases: readonly string[];
  text: string;
  details: ScoreDetails;
  signals: Readonly<Record<string, number>>;
  matched?: readonly string[];
  language?: string;
}): string {
  const f = REASON_FRAMES[reasonLanguage(c.language)];
  const stopwords = stopwordsOf(c.language);
  const tokens = tokenize(c.text);
  const about =
    c.phrases.slice(0, 2).join(` ${f.and} `) ||
    tokens
      .filter((t) => !stopwords.has(t))
      .slice(0, 3)
      .join(' ') ||
    f.thisStretch;
  const strong: string[] = [];
  const weak: string[] = [];
  if (c.matched && c.matched.length > 0) strong.push(f.says(c.matched.slice(0, 3).map(f.quote).join(', ')));
  if (c.details.hook >= 6)
    strong.push(
      f.opens(
        f.quote(
          c.text
            .split(/\s+/)
            .slice(0, 6)
            .join(' ')
            .replace(/[,.;:!?]+$/, '') + '…',
        ),
      ),
    );
  // The number and feeling word lists are English: in another language only digits are quoted as figures.
  const english = reasonLanguage(c.language) === 'en';
  const figure = (c.signals.numbers ?? 0) >= 0.3 ? evidence(tokens, english ? isNumberToken : (t) => /\d/.test(t), stopwords) : null;
  if (figure) strong.push(f.figures(f.quote(figure)));
  const feeling = english && (c.signals.emotion ?? 0) >= 0.3 ? evidence(tokens, (t) => EMOTION_WORDS.has(t), stopwords) : null;
  if (feeling) strong.push(f.feeling(f.quote(feeling.split(' ')[0])));
  if ((c.signals.question ?? 0) >= 0.6) strong.push(f.question);
  if (c.details.coherence >= 7) strong.push(f.complete);
  else if (c.details.coherence < 4) weak.push(f.midThought);
  if (c.details.delivery >= 7) strong.push(f.lively);
  else if (c.details.delivery < 3) weak.push(f.slow);
  if (c.details.hook < 3) weak.push(f.weakOpening);
  const why =
    strong.length > 0
      ? strong.slice(0, 3).join(', ') + (weak.length > 0 ? `, ${f.though} ${weak[0]}` : '')
      : weak.length > 0
        ? weak.slice(0, 2).join(` ${f.and} `)
        : f.nothing;
  return f.sentence(about, why);
}
