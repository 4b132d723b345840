import { stem as porter2 } from 'porter2';
import type { Lexicon } from '../../ports/lexicon.js';
import { STOPWORDS, tokenize } from './lexicon.js';

/**
 * Prompt and keyword matching (docs/highlights.md, "Prompt and keywords"): pure rules over tokens.
 * A prompt's content words match a clip's words by their Porter2 stems and by their synonyms (from
 * the lexical database, looked up before the engine runs: `promptSynonyms`); consecutive prompt words
 * said close together (phrase proximity) count more. A keyword matches when all its words are said in
 * a row (stemmed). Nothing here reads files.
 */

/** Prompt words that say how to look, not what for ("find the moments about pricing" looks for pricing). */
export const PROMPT_FILLERS: ReadonlySet<string> = new Set(
  `find show give want look looking search pick choose moments moment parts part clips clip bits bit segments segment section sections
   talk talks talking discuss discusses discussed discussion mention mentions mentioned speaker video videos topic topics related
   regarding concerning please best good interesting where someone anything everything something`
    .trim()
    .split(/\s+/),
);

/** Tokens within this distance (in words) count as said together for phrase proximity. */
export const PROXIMITY_WINDOW = 6;

/** Porter2 stem of a lowercase token (possessive `'s` and apostrophes removed). */
export function stemWord(token: string): string {
  return porter2(token.toLowerCase().replace(/'s$/, '').replace(/'/g, ''));
}

/** The prompt's content words, in order, each once: stopwords, prompt fillers, numbers and one-letter tokens left out. */
export function promptWords(prompt: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(prompt)) {
    if (t.length < 2 || STOPWORDS.has(t) || PROMPT_FILLERS.has(t) || /^\d/.test(t) || /^[%$€£]$/.test(t)) continue;
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** Synonyms of every content word of the prompt, from the lexicon (done before the engine runs; the engine itself does no I/O). */
export async function promptSynonyms(prompt: string, lexicon: Lexicon): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const w of promptWords(prompt)) {
    const syn = (await lexicon.synonyms(w)).filter((s) => tokenize(s).some((t) => !STOPWORDS.has(t)));
    if (syn.length > 0) out[w] = syn;
  }
  return out;
}

/** One prompt word: the stems it is said as (its own and its one-word synonyms'), and its several-word synonyms as stem runs. */
export interface PromptTerm {
  word: string;
  forms: ReadonlySet<string>;
  phrases: string[][];
}

/** What a pick looks for, built once per run (`buildQuery`). */
export interface PickQuery {
  terms: PromptTerm[];
  /** Each keyword as given, and as a run of stems. */
  keywords: Array<{ text: string; stems: string[] }>;
}

/** The query of a prompt and keywords with the prompt words' synonyms; null when there is nothing to look for. */
export function buildQuery(input: { prompt?: string; keywords?: readonly string[]; synonyms?: Readonly<Record<string, readonly string[]>> }): PickQuery | null {
  const terms: PromptTerm[] = [];
  for (const word of input.prompt ? promptWords(input.prompt) : []) {
    const forms = new Set([stemWord(word)]);
    const phrases: string[][] = [];
    for (const s of input.synonyms?.[word] ?? []) {
      const toks = tokenize(s);
      if (toks.length === 1) {
        if (!STOPWORDS.has(toks[0]) && toks[0].length > 1) forms.add(stemWord(toks[0]));
      } else if (toks.length > 1) phrases.push(toks.map(stemWord));
    }
    terms.push({ word, forms, phrases });
  }
  const keywords = (input.keywords ?? []).map((text) => ({ text, stems: tokenize(text).map(stemWord) })).filter((k) => k.stems.length > 0);
  return terms.length > 0 || keywords.length > 0 ? { terms, keywords } : null;
}

/** Where a run of stems occurs in `stems` (start indexes). */
function runsAt(stems: readonly string[], run: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + run.length <= stems.length; i++) {
    let ok = true;
    for (let j = 0; j < run.length && ok; j++) ok = stems[i + j] === run[j];
    if (ok) out.push(i);
  }
  return out;
}

/** How a clip's words meet the query. */
export interface ClipMatch {
  /** The clip counts as matching: it says a keyword (when keywords were given), else a prompt word or synonym. */
  matches: boolean;
  /** 0..1: how much of the prompt the clip covers (rarer words weigh more), how often, and prompt words said together. */
  relevance: number;
  /** The keywords said (as given), then the words said that matched the prompt (as said, lowercase), each once. */
  matched: string[];
}

export const NO_MATCH: ClipMatch = { matches: false, relevance: 0, matched: [] };

/**
 * Matches a clip's tokens (lowercase, `tokenize`) against the query. `weight` gives each prompt word's
 * weight (its rarity in the whole transcript; 1 when not given).
 *
 * relevance = 0.6·coverage + 0.25·min(1, occurrences / 6) + 0.15·proximity, where coverage is the
 * weighted share of prompt words said, occurrences counts every matching word, and proximity is the
 * share of consecutive prompt-word pairs said within `PROXIMITY_WINDOW` words of each other. With
 * keywords only: the share of keywords said (0.6), and how often (0.4).
 */
export function matchTokens(
  query: PickQuery,
  tokens: readonly string[],
  weight: (word: string) => number = () => 1,
  tokenStems?: readonly string[],
): ClipMatch {
  const stems = tokenStems ?? tokens.map(stemWord);
  const matched: string[] = [];
  const add = (w: string) => {
    if (!matched.includes(w)) matched.push(w);
  };
  let keywordHits = 0;
  let keywordOccurrences = 0;
  for (const k of query.keywords) {
    const at = runsAt(stems, k.stems);
    if (at.length > 0) {
      keywordHits++;
      keywordOccurrences += at.length;
      add(k.text);
    }
  }
  // Prompt words: where each is said (token indexes).
  const positions: number[][] = query.terms.map(() => []);
  let occurrences = 0;
  query.terms.forEach((term, ti) => {
    stems.forEach((s, i) => {
      if (term.forms.has(s) && !STOPWORDS.has(tokens[i])) {
        positions[ti].push(i);
        add(tokens[i]);
      }
    });
    for (const p of term.phrases) {
      for (const i of runsAt(stems, p)) {
        positions[ti].push(i);
        add(tokens.slice(i, i + p.length).join(' '));
      }
    }
    occurrences += positions[ti].length;
  });
  let relevance = 0;
  if (query.terms.length > 0) {
    const total = query.terms.reduce((s, t) => s + weight(t.word), 0);
    const covered = query.terms.reduce((s, t, i) => s + (positions[i].length > 0 ? weight(t.word) : 0), 0);
    let pairs = 0;
    let near = 0;
    for (let i = 0; i + 1 < query.terms.length; i++) {
      pairs++;
      if (positions[i].some((a) => positions[i + 1].some((b) => Math.abs(a - b) <= PROXIMITY_WINDOW))) near++;
    }
    relevance = 0.6 * (total > 0 ? covered / total : 0) + 0.25 * Math.min(1, occurrences / 6) + 0.15 * (pairs > 0 ? near / pairs : covered > 0 ? 1 : 0);
  }
  if (query.keywords.length > 0) {
    const kw = 0.6 * (keywordHits / query.keywords.length) + 0.4 * Math.min(1, keywordOccurrences / 3);
    relevance = query.terms.length > 0 ? 0.5 * relevance + 0.5 * kw : kw;
  }
  const matches = query.keywords.length > 0 ? keywordHits > 0 : occurrences > 0;
  return { matches, relevance: matches ? Math.round(relevance * 1000) / 1000 : 0, matched };
}

/**
 * Each prompt word's weight from how many of the transcript's sentences say it (inverse document
 * frequency, `ln(1 + N / (1 + df))`): a word said everywhere steers little.
 */
export function termWeights(query: PickQuery, sentenceTokens: ReadonlyArray<readonly string[]>): (word: string) => number {
  const n = sentenceTokens.length;
  const df = new Map<string, number>();
  const sets = sentenceTokens.map((toks) => new Set(toks.map(stemWord)));
  for (const t of query.terms) df.set(t.word, sets.filter((s) => [...t.forms].some((f) => s.has(f))).length);
  return (word) => Math.log(1 + n / (1 + (df.get(word) ?? 0)));
}
