import { describe, expect, it } from 'vitest';
import { cleanWords, endsWithTerminal, isPunctuated, splitSentences } from '../../src/domain/highlights/sentences.js';
import type { TimedWord } from '../../src/ports/highlights.js';
import { speak, unpunctuate } from './highlights-fixture.js';

/** Words with explicit gaps: [text, gapBefore] pairs, each word 0.3 s. */
function timed(spec: Array<[string, number]>): TimedWord[] {
  let t = 0;
  return spec.map(([text, gap]) => {
    t += gap;
    const w = { start: t, end: t + 0.3, text };
    t += 0.3;
    return w;
  });
}

describe('highlights: sentences', () => {
  it('splits punctuated text at . ? ! but not at abbreviations, initials or decimals', () => {
    const { words } = speak(['Dr. Smith paid 3.5 dollars.', 'Was it worth it?', 'Yes! J. Doe agreed.'], { sentenceGap: 0.1 });
    const s = splitSentences(words);
    expect(s.map((x) => x.text)).toEqual(['Dr. Smith paid 3.5 dollars.', 'Was it worth it?', 'Yes!', 'J. Doe agreed.']);
    expect(s.every((x) => x.boundary === 'punctuation' || x.boundary === 'end')).toBe(true);
    expect(s[s.length - 1].boundary).toBe('end');
    expect(s.map((x) => x.index)).toEqual([0, 1, 2, 3]);
  });

  it('uses pauses as boundaries in unpunctuated (pocketsphinx) text', () => {
    const words = timed([
      ['so', 0],
      ['we', 0.05],
      ['started', 0.1],
      ['then', 0.65],
      ['it', 0.05],
      ['grew', 0.3],
      ['fast', 0.1],
    ]);
    const s = splitSentences(words);
    expect(s.map((x) => x.text)).toEqual(['so we started', 'then it grew fast']);
    expect(s[0].boundary).toBe('pause');
    expect(s[0].start).toBe(0);
    expect(s[1].end).toBeCloseTo(words[6].end);
  });

  it('needs a longer pause when the transcript is punctuated', () => {
    const words = timed([
      ['We', 0],
      ['went', 0.05],
      ['home', 0.8],
      ['early.', 0.05],
      ['Then', 1.5],
      ['slept.', 0.05],
    ]);
    expect(isPunctuated(words)).toBe(true);
    expect(splitSentences(words).map((x) => x.text)).toEqual(['We went home early.', 'Then slept.']);
    expect(splitSentences(words, { punctuatedPauseSeconds: 0.7 }).map((x) => x.text)).toEqual(['We went', 'home early.', 'Then slept.']);
  });

  it('cuts an over-long stretch at its longest pause, each piece within the limit', () => {
    // 60 words, 0.1 s apart, one 0.45 s pause after word 30: ~24 s of continuous speech
    const spec: Array<[string, number]> = Array.from({ length: 60 }, (_, i) => [`w${i}`, i === 30 ? 0.45 : i === 0 ? 0 : 0.1]);
    const s = splitSentences(timed(spec), { maxSentenceSeconds: 15 });
    expect(s.length).toBe(2);
    expect(s[0].words.length).toBe(30);
    expect(s[0].boundary).toBe('forced');
    expect(s[1].boundary).toBe('end');
    const s2 = splitSentences(timed(spec), { maxSentenceSeconds: 5 });
    for (const x of s2) expect(x.end - x.start).toBeLessThanOrEqual(5);
    expect(s2.flatMap((x) => x.words).length).toBe(60);
  });

  it('prefers a comma when there is no pause', () => {
    const spec: Array<[string, number]> = Array.from({ length: 40 }, (_, i) => [i === 12 ? `w${i},` : `w${i}`, i === 0 ? 0 : 0.1]);
    const s = splitSentences(timed(spec), { maxSentenceSeconds: 10 });
    expect(s[0].text.endsWith('w12,')).toBe(true);
  });

  it('cleans ASR output: markers, (2) suffixes, punctuation tokens, order, video bounds', () => {
    const words: TimedWord[] = [
      { start: 1.0, end: 1.3, text: 'world' },
      { start: 0, end: 0.2, text: '<s>' },
      { start: 0.5, end: 0.8, text: 'hello(2)' },
      { start: 0.8, end: 0.9, text: '<sil>' },
      { start: 1.3, end: 1.35, text: '.' },
      { start: 1.4, end: 1.5, text: '[NOISE]' },
      { start: 1.6, end: 1.7, text: '++BREATH++' },
      { start: 2, end: Number.NaN, text: 'bad' },
      { start: 2.2, end: 2.6, text: ' ' },
      { start: 9, end: 9.5, text: 'late' },
      { start: 4.8, end: 5.4, text: 'edge' },
    ];
    expect(cleanWords(words, 5)).toEqual([
      { start: 0.5, end: 0.8, text: 'hello' },
      { start: 1.0, end: 1.35, text: 'world.' },
      { start: 4.8, end: 5, text: 'edge' },
    ]);
  });

  it('recognises sentence-final punctuation', () => {
    expect(endsWithTerminal('done.')).toBe(true);
    expect(endsWithTerminal('really?"')).toBe(true);
    expect(endsWithTerminal('Mr.')).toBe(false);
    expect(endsWithTerminal('e.g.')).toBe(false);
    expect(endsWithTerminal('well...', 'and')).toBe(false);
    expect(endsWithTerminal('well...', 'Then')).toBe(true);
    expect(endsWithTerminal('3.5')).toBe(false);
  });

  it('handles empty input and unpunctuated fixtures', () => {
    expect(splitSentences([])).toEqual([]);
    const { words } = speak(['We went to the shop.', 'It was closed.']);
    const s = splitSentences(unpunctuate(words));
    expect(s.map((x) => x.text)).toEqual(['we went to the shop', 'it was closed']);
  });
});
