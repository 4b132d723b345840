/**
 * Highlight picking: the "analyzing" stage turns what is said (timed words) plus the video analysis
 * (loudness, scene cuts) into rated, titled, non-overlapping clips. The embedded engine lives in
 * src/domain/highlights; an optional scorer (an LLM over an OpenAI-compatible API) can re-rate and
 * re-title the engine's shortlist. How clips are chosen: docs/highlights.md.
 */

/** One recognised word, times in seconds from the start of the video. `text` may lack punctuation and case. */
export interface TimedWord {
  start: number;
  end: number;
  text: string;
  /** 0..1 when the recogniser reports one; a content word under 0.5 is never a title word (docs/highlights.md). */
  confidence?: number;
}

/** Clip length range (seconds) and how many clips at most. */
export interface HighlightStrategy {
  min_seconds: number;
  max_seconds: number;
  max_clips: number;
}

export interface HighlightInput {
  /** The transcript, in any order (sorted by the engine). */
  words: TimedWord[];
  /** Loudness per second (LUFS or dB; index = second). May be empty: the energy signal is then left out. */
  loudness?: number[];
  /** Scene cut times in seconds. May be empty: the scene-cut bonus is then 0 for every clip. */
  scene_cuts?: number[];
  /** Video duration in seconds; no clip ever leaves [0, duration]. */
  duration: number;
  /** Missing fields take the `default` strategy's values (20–60 s). */
  strategy?: Partial<HighlightStrategy>;
  /** ISO 639-1 language code of the speech (e.g. "en"); the built-in lexicons are English. */
  language?: string;
  /** What to look for: clips matching it (its words, their stems, synonyms) rank above all others (docs/highlights.md). */
  prompt?: string;
  /** Words or phrases a clip must say; clips saying none only make up a minimum of three. */
  keywords?: string[];
  /** Synonyms of the prompt's content words (from the lexicon, looked up before the engine runs: it does no I/O). */
  synonyms?: Record<string, string[]>;
}

/** A clip's sub-scores, each 0..10 (docs/highlights.md): what its rating is made of. */
export interface ScoreDetails {
  /** The first seconds make a viewer stay. */
  hook: number;
  /** It stands alone: starts and ends on a complete thought, holds together. */
  coherence: number;
  /** Information, emotion or humour density. */
  value: number;
  /** Pace and energy of the speech. */
  delivery: number;
}

export interface HighlightClip {
  /** Seconds from the start of the video (millisecond precision). */
  start: number;
  end: number;
  /** 0..10, one decimal. */
  rating: number;
  /** Short title (≤ 60 characters). */
  title: string;
  /** What is said in the clip. */
  text: string;
  /** Each signal's value in 0..1 (see docs/highlights.md); `llm` when an LLM scorer rated the clip. */
  signals: Record<string, number>;
  /** The keywords said, then the words said that matched the prompt (its words or their synonyms); empty without a prompt or keywords. */
  matched?: string[];
  /** The sub-scores the rating is made of. */
  score_details?: ScoreDetails;
  /** One sentence: what the clip is about (its key phrases) and why it scored as it did. */
  reason?: string;
}

export interface HighlightScoreContext {
  language: string;
  duration: number;
  strategy: HighlightStrategy;
  /** What the caller asked to look for, when anything (a scorer rates how well each clip fits it). */
  prompt?: string;
  keywords?: string[];
}

/** A candidate clip with the engine's unrounded score (what ranks it). */
export interface RankedHighlight {
  clip: HighlightClip;
  score: number;
  /** With a prompt or keywords: whether the clip matches them, how well (0..1), and its rating without them (0..10, unrounded). */
  match?: { matches: boolean; relevance: number; base?: number };
}

/**
 * Re-rates and re-titles candidates (already non-overlapping, best first). Returns the same clips
 * (same start/end/text) with new `rating`/`title`/`signals` and, when it has them, `score_details`,
 * `reason` and `matched`, in any order. Implementations must not
 * reject: on any failure they return the candidates unchanged (and log why).
 *
 * A scorer may also (or only) take over where the engine's own CPU work runs: with `shortlist`, the
 * engine's best `count` non-overlapping candidates are computed there (the compute pool's threads:
 * src/adapters/highlights/worker.highlight-scorer.ts) instead of on the event loop; without
 * `rescore`, the engine's ratings and titles stand.
 */
export interface HighlightScorer {
  readonly name: string;
  /** How many candidates the scorer wants to see (the engine's shortlist size is at least this). */
  readonly maxCandidates: number;
  rescore?(candidates: HighlightClip[], ctx: HighlightScoreContext): Promise<HighlightClip[]>;
  /**
   * Exactly what the embedded engine computes in place (`shortlistHighlights` in
   * src/domain/highlights/highlight-engine.ts): every candidate window scored, then the best `count`
   * non-overlapping ones, best first.
   */
  shortlist?(input: HighlightInput, count: number): Promise<RankedHighlight[]>;
}
