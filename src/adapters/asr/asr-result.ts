import type { AsrResult, AsrSegment, AsrWord } from '../../ports/asr.js';

/** Helpers shared by the ASR engines (pure). */

const round = (t: number) => Math.round(t * 1000) / 1000;

export function joinWords(words: AsrWord[]): string {
  return words
    .map((w) => w.text)
    .join(' ')
    .replace(/\s+([,.!?;:%])/g, '$1')
    .trim();
}

/** A segment spanning `words` (which must not be empty). */
export function segmentOf(words: AsrWord[], speaker?: string): AsrSegment {
  return {
    start: words[0].start,
    end: words[words.length - 1].end,
    text: joinWords(words),
    words,
    ...(speaker !== undefined ? { speaker } : {}),
  };
}

/**
 * Groups words into segments: a new segment starts after a pause of at least `gapSeconds`, after a
 * word ending a sentence (`.`, `?`, `!`) once the segment holds `minWords`, or when the segment
 * would exceed `maxSeconds`.
 */
export function groupWords(words: AsrWord[], opts: { gapSeconds?: number; maxSeconds?: number; minWords?: number } = {}): AsrSegment[] {
  const gap = opts.gapSeconds ?? 0.8;
  const maxLen = opts.maxSeconds ?? 30;
  const minWords = opts.minWords ?? 3;
  const out: AsrSegment[] = [];
  let cur: AsrWord[] = [];
  for (const w of words) {
    const prev = cur[cur.length - 1];
    if (prev && (w.start - prev.end >= gap || w.end - cur[0].start > maxLen || (/[.?!]["')\]]?$/.test(prev.text) && cur.length >= minWords))) {
      out.push(segmentOf(cur));
      cur = [];
    }
    cur.push(w);
  }
  if (cur.length) out.push(segmentOf(cur));
  return out;
}

/**
 * Splits a segment's text into words and spreads the segment's time over them in proportion to
 * their length (for servers that give no word timestamps).
 */
export function spreadWords(text: string, start: number, end: number): AsrWord[] {
  const tokens = text.split(/\s+/).filter((t) => t !== '');
  if (!tokens.length) return [];
  const span = Math.max(0, end - start);
  const weights = tokens.map((t) => t.length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const words: AsrWord[] = [];
  let t = start;
  tokens.forEach((tok, i) => {
    const d = (span * weights[i]) / total;
    words.push({ start: round(t), end: round(i === tokens.length - 1 ? end : t + d), text: tok });
    t += d;
  });
  return words;
}

/** A result with every time moved by `offset` seconds (for a chunk cut out of a longer file). */
export function shiftResult(r: AsrResult, offset: number): AsrResult {
  const shiftWord = (w: AsrWord): AsrWord => ({ ...w, start: round(w.start + offset), end: round(w.end + offset) });
  const segments = r.segments.map((s) => ({ ...s, start: round(s.start + offset), end: round(s.end + offset), words: s.words.map(shiftWord) }));
  return { language: r.language, segments, words: segments.flatMap((s) => s.words) };
}

/** Orders words by start and clamps every time into [0, duration] when the duration is known. */
export function tidyWords(words: AsrWord[], duration?: number): AsrWord[] {
  const clamp = (t: number) => (duration !== undefined ? Math.min(Math.max(0, t), duration) : Math.max(0, t));
  return words
    .map((w) => ({ ...w, start: round(clamp(w.start)), end: round(clamp(Math.max(w.end, w.start))) }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
}
