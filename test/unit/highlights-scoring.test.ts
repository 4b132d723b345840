import { describe, expect, it } from 'vitest';
import {
  HIGHLIGHT_WEIGHTS,
  capitalise,
  cleanTitleText,
  combineSignals,
  dropTrailingPhrases,
  iou,
  keyPhrase,
  makeTitle,
  roundRating,
  isUnsureWord,
  suppressOverlaps,
  titleRuns,
  truncateWords,
} from '../../src/domain/highlights/scoring.js';
import { analyzeSentence } from '../../src/domain/highlights/signals.js';

const all = (v: number): Record<string, number> => Object.fromEntries(Object.keys(HIGHLIGHT_WEIGHTS).map((k) => [k, v]));

describe('highlights: rating', () => {
  it('has core weights summing to 1 and a small scene bonus', () => {
    const core = Object.values(HIGHLIGHT_WEIGHTS).filter((w) => w.kind === 'core');
    expect(core.reduce((s, w) => s + w.weight, 0)).toBeCloseTo(1, 9);
    expect(HIGHLIGHT_WEIGHTS.scene.kind).toBe('bonus');
    expect(HIGHLIGHT_WEIGHTS.hook.weight).toBeGreaterThan(HIGHLIGHT_WEIGHTS.density.weight);
  });

  it('combines signals to 0..10', () => {
    expect(combineSignals(all(1))).toBe(10);
    expect(combineSignals(all(0))).toBe(0);
    expect(combineSignals({ ...all(0.5), scene: 0 })).toBeCloseTo(5, 9);
    expect(combineSignals({ ...all(0.5), scene: 1 })).toBeCloseTo(5.3, 9);
    expect(combineSignals({})).toBe(0);
  });

  it('leaves a missing signal out of the mean instead of counting it as 0', () => {
    const noEnergy: Record<string, number> = { ...all(0.8), scene: 0 };
    delete noEnergy.energy;
    expect(combineSignals(noEnergy)).toBeCloseTo(8, 9);
    expect(combineSignals({ ...noEnergy, unknown: 1 })).toBeCloseTo(8, 9);
    expect(combineSignals({ ...noEnergy, hook: Number.NaN })).toBeCloseTo(8, 9);
  });

  it('rounds to one decimal within 0..10', () => {
    expect(roundRating(7.345)).toBe(7.3);
    expect(roundRating(7.35)).toBe(7.4);
    expect(roundRating(11)).toBe(10);
    expect(roundRating(-1)).toBe(0);
  });
});

describe('highlights: overlap removal', () => {
  const clips = [
    { id: 'a', start: 10, end: 40 },
    { id: 'b', start: 20, end: 50 },
    { id: 'c', start: 40, end: 70 },
    { id: 'd', start: 39.9995, end: 60 },
    { id: 'e', start: 100, end: 130 },
  ];

  it('computes IoU', () => {
    expect(iou({ start: 0, end: 10 }, { start: 5, end: 15 })).toBeCloseTo(5 / 15, 9);
    expect(iou({ start: 0, end: 10 }, { start: 10, end: 20 })).toBe(0);
    expect(iou({ start: 0, end: 10 }, { start: 0, end: 10 })).toBe(1);
  });

  it('keeps the best of overlapping clips (greedy NMS), touching edges allowed', () => {
    expect(suppressOverlaps(clips).map((c) => c.id)).toEqual(['a', 'c', 'e']); // d touches a within 1 ms but overlaps c
    expect(suppressOverlaps(clips, 0, 2).map((c) => c.id)).toEqual(['a', 'c']);
    expect(suppressOverlaps(clips, 0.5).map((c) => c.id)).toEqual(['a', 'b', 'c', 'e']);
    expect(suppressOverlaps([])).toEqual([]);
  });
});

describe('highlights: titles', () => {
  it('cleans fillers, leading conjunctions, repetitions and trailing punctuation', () => {
    expect(cleanTitleText('So, um, the the secret is  rent...')).toBe('the secret is rent');
    expect(cleanTitleText('And uh you know we won!')).toBe('we won!');
    expect(capitalise("i think i'm right")).toBe("I think I'm right");
  });

  it('shortens long sentences to a key phrase of at most 60 characters', () => {
    expect(keyPhrase('why do ninety percent of new restaurants fail in their first year', true)).toBe('Why do ninety percent of new restaurants fail?');
    const long = 'the weather was fine, but the secret nobody tells you about running a restaurant is the rent, which is brutal';
    const k = keyPhrase(long, false);
    expect(k.length).toBeLessThanOrEqual(60);
    expect(k).toMatch(/secret/i);
    expect(dropTrailingPhrases('we sat down in the garden for an hour', 20)).toBe('we sat down');
    expect(truncateWords('abcdefgh ijklmnop qrstuvwx yz', 20)).toBe('abcdefgh ijklmnop…');
    expect(keyPhrase('x'.repeat(100), false).length).toBeLessThanOrEqual(60);
  });

  it('takes the strongest sentence of the window', () => {
    const sentences = [
      analyzeSentence({ text: 'Well, we sat down for a bit.', boundary: 'punctuation' }, true),
      analyzeSentence({ text: 'Why do 90 percent of people never save money?', boundary: 'punctuation' }, true),
      analyzeSentence({ text: 'It was late.', boundary: 'end' }, true),
    ];
    expect(makeTitle(sentences)).toBe('Why do 90 percent of people never save money?');
    expect(makeTitle([analyzeSentence({ text: 'um uh', boundary: 'end' }, false)])).toBe('');
    expect(makeTitle([])).toBe('');
  });
});

describe('highlights: title words of a weak recogniser', () => {
  const w = (text: string, confidence?: number) => ({ start: 0, end: 0.3, text, ...(confidence !== undefined ? { confidence } : {}) });

  it('is unsure of a content word under 0.5, never of a stopword or a word without a confidence', () => {
    expect(isUnsureWord(w('restaurants', 0.49))).toBe(true);
    expect(isUnsureWord(w('restaurants', 0.5))).toBe(false);
    expect(isUnsureWord(w('restaurants'))).toBe(false);
    expect(isUnsureWord(w('the', 0.01))).toBe(false);
    expect(isUnsureWord(w("don't", 0.01))).toBe(false);
  });

  it('cuts a sentence at unsure words into pieces of at least three words', () => {
    const words = [
      w('why', 0.9),
      w('do', 0.9),
      w('most', 0.9),
      w('people', 0.2),
      w('never', 0.9),
      w('save', 0.8),
      w('money', 0.7),
      w('blows', 0.01),
      w('it', 0.9),
    ];
    expect(titleRuns(words).map((r) => r.map((x) => x.text).join(' '))).toEqual(['why do most', 'never save money']);
    // a sentence the recogniser was sure of is one piece, however short
    expect(titleRuns([w('hello', 0.9), w('there', 0.9)]).map((r) => r.length)).toEqual([2]);
    expect(titleRuns([])).toEqual([]);
  });
});
