/**
 * Readable cues from timed words (pure). Rules, in order (see docs/transcription.md):
 *
 * - A cue never mixes speakers, never runs across a sentence end (`.`, `?`, `!`, `…`) or a long
 *   pause (`pauseSeconds`), holds at most `maxLines` lines of `maxLineChars` characters and lasts at
 *   most `maxSeconds` (a single word longer than a line or that long still gets a cue of its own).
 * - Within those limits a stretch of words is cut into the fewest cues, of balanced lengths,
 *   preferably after a comma, colon, semicolon or a short pause.
 * - Lines: one when the text fits, else two, broken where the lines are most even.
 * - Cues never overlap; a cue shorter than `minSeconds` is lengthened into the silence after it
 *   (then before it) when there is room.
 */

export interface TimedWord {
  start: number;
  end: number;
  text: string;
  speaker?: string;
  /** 0..1 when the recogniser reports one. */
  confidence?: number;
}

/** A word of the API's transcript: punctuation glued to the word before, as the cues show it. */
export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
  /** The recogniser's confidence, 0..1; null when it reports none. */
  confidence: number | null;
  speaker?: string;
}

export interface Cue {
  start: number;
  end: number;
  /** Lines joined with `\n`. */
  text: string;
  speaker?: string;
}

/** The API's transcript object (spec: Transcript object). */
export interface Transcript {
  language: string;
  speaker_labels: boolean;
  cues: Cue[];
  /** Every word with its times (inside its cue), confidence and speaker (with labels); [] for transcriptions made before words were kept. */
  words: TranscriptWord[];
  /** The whole text: the cues' lines joined with spaces. */
  text: string;
}

export interface CueOptions {
  /** Default 42. */
  maxLineChars?: number;
  /** Default 2. */
  maxLines?: number;
  /** Default 7 s. */
  maxSeconds?: number;
  /** Default 0.8 s. */
  minSeconds?: number;
  /** A silence this long between words always ends a cue. Default 0.8 s. */
  pauseSeconds?: number;
  /** A silence this long is a good place to cut inside a sentence. Default 0.3 s. */
  shortPauseSeconds?: number;
}

const SENTENCE_END = /[.?!…]["'”’)\]]*$/;
const CLAUSE_END = /[,;:–—]["'”’)\]]*$/;
const PUNCT_ONLY = /^[,.!?;:%…)\]}”’"']+$/;
const ABBREVIATION = /^(mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|a\.m|p\.m)\.$/i;
const round3 = (t: number) => Math.round(t * 1000) / 1000;
const endsSentence = (text: string) => SENTENCE_END.test(text) && !ABBREVIATION.test(text);

interface Word {
  start: number;
  end: number;
  text: string;
  speaker?: string;
  confidence?: number;
}

/** Trims, drops empty words, glues punctuation-only tokens to the word before, sorts by time. */
function normalise(words: TimedWord[]): Word[] {
  const out: Word[] = [];
  const sorted = words
    .filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && typeof w.text === 'string')
    .map((w) => ({ ...w, text: w.text.replace(/\s+/g, ' ').trim() }))
    .filter((w) => w.text !== '')
    .sort((a, b) => a.start - b.start || a.end - b.end);
  for (const w of sorted) {
    const prev = out[out.length - 1];
    const start = Math.max(0, w.start);
    const end = Math.max(start, w.end);
    if (prev && PUNCT_ONLY.test(w.text) && prev.speaker === w.speaker) {
      prev.text += w.text;
      prev.end = Math.max(prev.end, end);
      continue;
    }
    out.push({
      start,
      end,
      text: w.text,
      ...(w.speaker !== undefined ? { speaker: w.speaker } : {}),
      ...(w.confidence !== undefined ? { confidence: w.confidence } : {}),
    });
  }
  return out;
}

/** Stretches of words that no cue may cross: speaker changes, sentence ends, long pauses. */
function stretches(words: Word[], pause: number): Word[][] {
  const out: Word[][] = [];
  let cur: Word[] = [];
  for (const w of words) {
    const prev = cur[cur.length - 1];
    if (prev && (prev.speaker !== w.speaker || endsSentence(prev.text) || w.start - prev.end >= pause)) {
      out.push(cur);
      cur = [];
    }
    cur.push(w);
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * Splits words into at most `maxLines` lines of `maxChars`, as even as possible (pure). Returns
 * undefined when they do not fit (a lone over-long word always "fits" on its own line).
 */
export function breakLines(texts: string[], maxChars = 42, maxLines = 2): string[] | undefined {
  const joined = texts.join(' ');
  if (joined.length <= maxChars || texts.length === 1) return [joined];
  if (maxLines < 2) return undefined;
  let best: { lines: string[]; score: number } | undefined;
  for (let i = 1; i < texts.length; i++) {
    const first = texts.slice(0, i).join(' ');
    if (first.length > maxChars) break;
    const rest = breakLines(texts.slice(i), maxChars, maxLines - 1);
    if (!rest) continue;
    const lens = [first.length, ...rest.map((l) => l.length)];
    // Evenness first; a break after punctuation is worth a few characters of unevenness.
    const score = Math.max(...lens) - Math.min(...lens) - (CLAUSE_END.test(texts[i - 1]) || endsSentence(texts[i - 1]) ? 6 : 0);
    if (!best || score < best.score) best = { lines: [first, ...rest], score };
  }
  return best?.lines;
}

/** Whether words of these lengths fill at most `maxLines` lines of `maxChars` (greedy filling is optimal). */
function fitsLines(words: Word[], from: number, to: number, maxChars: number, maxLines: number): boolean {
  let lines = 1;
  let len = -1;
  for (let k = from; k < to; k++) {
    const w = words[k].text.length;
    if (len + 1 + w <= maxChars) len += 1 + w;
    else {
      lines++;
      len = w;
      if (lines > maxLines || w > maxChars) return false;
    }
  }
  return lines <= maxLines;
}

/** Cuts one stretch into cues with the fewest cues, then the most even fill and the best cut points. */
function splitStretch(words: Word[], o: Required<CueOptions>): Word[][] {
  const n = words.length;
  const capacity = o.maxLineChars * o.maxLines;
  const best = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 1; i <= n; i++) {
    let chars = -1;
    for (let j = i - 1; j >= 0; j--) {
      chars += words[j].text.length + 1;
      const single = i - j === 1;
      if (!single && (chars > capacity || words[i - 1].end - words[j].start > o.maxSeconds)) break;
      if (!Number.isFinite(best[j])) continue;
      if (!single && !fitsLines(words, j, i, o.maxLineChars, o.maxLines)) continue;
      const slack = Math.max(0, capacity - chars);
      const last = words[i - 1];
      const next = words[i];
      const goodCut = !next || CLAUSE_END.test(last.text) || next.start - last.end >= o.shortPauseSeconds;
      const cost = best[j] + 400 + (slack * slack) / 4 + (goodCut ? 0 : 150);
      if (cost < best[i]) {
        best[i] = cost;
        from[i] = j;
      }
    }
  }
  const parts: Word[][] = [];
  for (let i = n; i > 0; i = from[i]) parts.unshift(words.slice(from[i], i));
  return parts;
}

/** Builds readable cues from timed words (pure). `speaker` is kept when the words carry one. */
export function buildCues(words: TimedWord[], opts: CueOptions = {}): Cue[] {
  const o: Required<CueOptions> = {
    maxLineChars: opts.maxLineChars ?? 42,
    maxLines: opts.maxLines ?? 2,
    maxSeconds: opts.maxSeconds ?? 7,
    minSeconds: opts.minSeconds ?? 0.8,
    pauseSeconds: opts.pauseSeconds ?? 0.8,
    shortPauseSeconds: opts.shortPauseSeconds ?? 0.3,
  };
  const groups = stretches(normalise(words), o.pauseSeconds).flatMap((s) => splitStretch(s, o));
  const cues: Cue[] = groups.map((g) => {
    const lines = breakLines(
      g.map((w) => w.text),
      o.maxLineChars,
      o.maxLines,
    ) ?? [g.map((w) => w.text).join(' ')];
    const start = g[0].start;
    const end = Math.min(Math.max(...g.map((w) => w.end)), start + o.maxSeconds);
    return { start, end, text: lines.join('\n'), ...(g[0].speaker !== undefined ? { speaker: g[0].speaker } : {}) };
  });
  // No overlaps (words from some engines overlap a little), then the minimum duration.
  for (let i = 1; i < cues.length; i++) {
    if (cues[i].start < cues[i - 1].end) {
      const cut = Math.max(cues[i - 1].start, Math.min(cues[i - 1].end, cues[i].start));
      cues[i - 1].end = cut;
      cues[i].start = Math.max(cues[i].start, cut);
      cues[i].end = Math.max(cues[i].end, cues[i].start);
    }
  }
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i];
    const missing = o.minSeconds - (c.end - c.start);
    if (missing <= 0) continue;
    const after = (i + 1 < cues.length ? cues[i + 1].start : Infinity) - c.end;
    c.end += Math.max(0, Math.min(missing, after));
    const still = o.minSeconds - (c.end - c.start);
    if (still > 0) {
      const before = c.start - (i > 0 ? cues[i - 1].end : 0);
      c.start -= Math.max(0, Math.min(still, before));
    }
  }
  const out = cues.map((c) => ({ ...c, start: round3(c.start), end: round3(c.end) }));
  for (let i = 1; i < out.length; i++) if (out[i].start < out[i - 1].end) out[i].start = out[i - 1].end;
  for (const c of out) if (c.end < c.start) c.end = c.start;
  return out;
}

/**
 * The words a transcript shows (pure): trimmed, punctuation glued to the word before and in time
 * order exactly as the cues are built from them (so each lies inside its cue), times to milliseconds,
 * confidence to hundredths (null when the recogniser gives none).
 */
export function transcriptWords(words: TimedWord[]): TranscriptWord[] {
  return normalise(words).map((w) => ({
    text: w.text,
    start: round3(w.start),
    end: round3(w.end),
    confidence: w.confidence !== undefined && Number.isFinite(w.confidence) ? Math.round(Math.min(1, Math.max(0, w.confidence)) * 100) / 100 : null,
    ...(w.speaker !== undefined ? { speaker: w.speaker } : {}),
  }));
}

/** The transcript object of the API: `speaker` only when labels were asked for (pure). */
export function toTranscript(language: string, speakerLabels: boolean, cues: Cue[], words: readonly TranscriptWord[] = []): Transcript {
  const speaker = (s: string | undefined) => (speakerLabels && s !== undefined ? { speaker: s } : {});
  return {
    language,
    speaker_labels: speakerLabels,
    cues: cues.map((c) => ({ start: c.start, end: c.end, text: c.text, ...speaker(c.speaker) })),
    words: words.map((w) => ({ text: w.text, start: w.start, end: w.end, confidence: w.confidence, ...speaker(w.speaker) })),
    text: cues.map((c) => c.text.replace(/\n/g, ' ')).join(' '),
  };
}
