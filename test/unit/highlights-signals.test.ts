import { describe, expect, it } from 'vitest';
import { contentStems, stem, tokenize } from '../../src/domain/highlights/lexicon.js';
import {
  analyzeSentence,
  cohesionSignal,
  completeThoughtSignal,
  cosine,
  emotionSignal,
  energySignal,
  hookSignal,
  looksLikeQuestion,
  loudnessStats,
  numbersSignal,
  questionSignal,
  sceneCutSignal,
  speechDensitySignal,
  type SentenceFeatures,
} from '../../src/domain/highlights/signals.js';
import type { BoundaryKind } from '../../src/domain/highlights/sentences.js';
import { speak } from './highlights-fixture.js';

const f = (text: string, boundary: BoundaryKind = 'punctuation', punctuated = true): SentenceFeatures => analyzeSentence({ text, boundary }, punctuated);
const bare = (text: string, boundary: BoundaryKind = 'pause') => f(text, boundary, false);
const inRange = (x: number) => x >= 0 && x <= 1;

describe('highlights: text helpers', () => {
  it('tokenizes and stems', () => {
    expect(tokenize("Don't pay 40% — it's $1,000.50 now!")).toEqual(["don't", 'pay', '40', '%', "it's", '$', '1,000.50', 'now']);
    expect(['running', 'stopped', 'stories', 'classes', 'quickly', 'restaurants', 'lease'].map(stem)).toEqual([
      'run',
      'stop',
      'story',
      'class',
      'quick',
      'restaurant',
      'lease',
    ]);
    expect(contentStems(tokenize('The restaurants and the restaurant owners'))).toEqual(['restaurant', 'restaurant', 'owner']);
  });
});

describe('highlights: hook signal', () => {
  it('scores a question with numbers and "you" above a plain statement', () => {
    const strong = hookSignal(f('Why do 90 percent of you fail at this?'));
    const contrarian = hookSignal(f('The secret nobody tells you is that it is never the food.'));
    const imperative = hookSignal(f('Imagine losing everything in one night.'));
    const howTo = hookSignal(f('Here is how to fix your sleep in a week.'));
    const bland = hookSignal(f('We walked along the road to the shop near the old station.'));
    expect(strong).toBeGreaterThan(0.6);
    expect(contrarian).toBeGreaterThan(0.4);
    expect(imperative).toBeGreaterThan(0.2);
    expect(howTo).toBeGreaterThan(0.3);
    expect(bland).toBe(0);
    for (const x of [strong, contrarian, imperative, howTo, bland]) expect(inRange(x)).toBe(true);
  });

  it('penalises a dangling conjunction and fillers at the start', () => {
    expect(hookSignal(f('And why do 90 percent of you fail?'))).toBeLessThan(hookSignal(f('Why do 90 percent of you fail?')));
    expect(hookSignal(f('Um why do 90 percent of you fail?'))).toBeLessThan(hookSignal(f('Why do 90 percent of you fail?')));
  });

  it('reads on into the next sentence when the opener is very short', () => {
    expect(hookSignal(f('Okay.'), f('Why do most startups fail?'))).toBeGreaterThan(0.3);
    expect(hookSignal(f(''))).toBe(0);
  });
});

describe('highlights: question signal', () => {
  it('counts questions, saturating, and likes an answered one', () => {
    expect(questionSignal([f('We went home.')])).toBe(0);
    const one = questionSignal([f('Why?'), f('Because it rained.')]);
    const two = questionSignal([f('Why?'), f('What next?'), f('We left.')]);
    const unanswered = questionSignal([f('We left.'), f('Why?')]);
    expect(one).toBeCloseTo(1 - Math.exp(-1), 5);
    expect(two).toBeGreaterThan(one);
    expect(unanswered).toBeLessThan(one);
    expect(inRange(two)).toBe(true);
  });

  it('detects question shapes without punctuation', () => {
    expect(looksLikeQuestion(tokenize('why do startups fail'))).toBe(true);
    expect(looksLikeQuestion(tokenize('do you know what happened'))).toBe(true);
    expect(looksLikeQuestion(tokenize('how many people came'))).toBe(true);
    expect(looksLikeQuestion(tokenize("what's the point"))).toBe(true);
    expect(looksLikeQuestion(tokenize('so what is the answer'))).toBe(true);
    expect(looksLikeQuestion(tokenize('how to cook rice'))).toBe(false);
    expect(looksLikeQuestion(tokenize('when i was young we moved'))).toBe(false);
    expect(looksLikeQuestion(tokenize('we went home'))).toBe(false);
    expect(bare('why do startups fail').question).toBe(true);
    expect(f('why do startups fail.').question).toBe(false); // punctuated transcript: trust the marks
  });
});

describe('highlights: numbers signal', () => {
  it('rewards numbers and statistics per 100 words', () => {
    const stats = numbersSignal([f('Ninety percent of them lost 200 thousand dollars in 3 years.')]);
    const one = numbersSignal([f('One of them went home and sat down for a while with the others.')]);
    const none = numbersSignal([f('We walked along the road to the shop near the old station.')]);
    expect(stats).toBeGreaterThan(0.9);
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThan(0.2);
    expect(none).toBe(0);
    expect(f('It costs 40 %').numbers).toBeGreaterThan(f('It costs 40').numbers);
    expect(f('many times over').numbers).toBe(0);
  });
});

describe('highlights: emotion signal', () => {
  it('rewards emotional and intensity words and exclamations', () => {
    const hot = emotionSignal([f('I was absolutely devastated, it was a terrible, painful disaster!')]);
    const mild = emotionSignal([f('It was a really nice day and we liked the walk by the river a lot.')]);
    const flat = emotionSignal([f('We walked along the road to the shop near the old station.')]);
    expect(hot).toBeGreaterThan(0.9);
    expect(mild).toBeGreaterThan(0);
    expect(mild).toBeLessThan(hot);
    expect(flat).toBe(0);
  });
});

describe('highlights: complete thought signal', () => {
  it('is full on clean sentence boundaries and drops on weak ones', () => {
    expect(completeThoughtSignal(null, f('We won.'), f('It was great.'))).toBe(1);
    expect(completeThoughtSignal('punctuation', f('We won.'), f('It was great.', 'end'))).toBe(1);
    expect(completeThoughtSignal('pause', bare('we won'), bare('it was great'))).toBeCloseTo(0.8, 5);
    expect(completeThoughtSignal('forced', bare('we won'), bare('it was great', 'forced'))).toBeCloseTo(0.35, 5);
  });

  it('penalises a dangling start and a trailing conjunction', () => {
    expect(completeThoughtSignal('punctuation', f('And then we won.'), f('It was great.'))).toBeCloseTo(0.65, 5);
    expect(completeThoughtSignal('punctuation', f('So we won.'), f('It was great.'))).toBeLessThan(1);
    expect(completeThoughtSignal('punctuation', f('We won.'), bare('it was great and', 'forced'))).toBeCloseTo((1 + 0.35) / 2 - 0.2, 5);
  });
});

describe('highlights: topic cohesion signal', () => {
  const stems = (t: string) => contentStems(tokenize(t));
  const garden = stems(
    'The garden needs water. Garden plants grow when the soil holds water. Water the garden plants early, the soil stays cool and the plants grow.',
  );
  const taxes = stems('Taxes are due in April. File your taxes early, tax forms change and the tax office gets busy with late taxes.');
  const cars = stems('Cars need oil. Change the engine oil of your car, car engines wear out when the oil is old.');

  it('is high for a window on one topic between other topics, low across a topic change', () => {
    const onTopic = cohesionSignal(taxes, garden, cars);
    const straddling = cohesionSignal(garden.slice(0, 10), [...garden.slice(10), ...taxes.slice(0, 10)], taxes.slice(10));
    expect(onTopic).toBeGreaterThan(0.7);
    expect(straddling).toBeLessThan(onTopic - 0.3);
    expect(inRange(straddling)).toBe(true);
  });

  it('is neutral when there are too few content words, and cosine is symmetric', () => {
    expect(cohesionSignal([], ['a', 'b'], [])).toBe(0.5);
    expect(cosine(garden, taxes)).toBeCloseTo(cosine(taxes, garden), 9);
    expect(cosine(garden, garden)).toBeCloseTo(1, 9);
    expect(cosine([], garden)).toBe(0);
  });
});

describe('highlights: energy signal', () => {
  const track = Array.from({ length: 120 }, (_, i) => (i >= 60 && i < 80 ? -12 : -30 + (i % 3)));

  it('is high on a loud stretch and low on a quiet one, relative to the whole video', () => {
    const stats = loudnessStats(track);
    const loud = energySignal(stats, 60, 80);
    const quiet = energySignal(stats, 10, 30);
    expect(loud).toBeGreaterThan(0.8);
    expect(quiet).toBeLessThan(0.35);
    expect(inRange(loud) && inRange(quiet)).toBe(true);
  });

  it('is neutral without data or on a flat track; digital silence counts as the quietest second', () => {
    expect(energySignal(loudnessStats([]), 0, 10)).toBe(0.5);
    expect(energySignal(loudnessStats(Array(50).fill(-20)), 0, 10)).toBe(0.5);
    expect(energySignal(loudnessStats([-20, -20]), 30, 40)).toBe(0.5);
    const withSilence = loudnessStats([-Infinity, -Infinity, -20, -15, -20, Number.NaN]);
    expect(withSilence!.values).toEqual([-20, -20, -20, -15, -20, -20]);
  });
});

describe('highlights: speech density signal', () => {
  it('rewards steady speech and penalises long silences', () => {
    const dense = speak(['one two three four five six seven eight nine ten eleven twelve'], { sentenceGap: 0 });
    expect(speechDensitySignal(dense.words, 0, dense.end)).toBe(1);
    const sparse = speak(['one two three'], { start: 1 });
    const s = speechDensitySignal(sparse.words, 0, 10);
    expect(s).toBe(0);
    const gappy = [...speak(['a b c d e f g h i j'], { sentenceGap: 0 }).words, ...speak(['k l m n o p q r s t'], { start: 9, sentenceGap: 0 }).words];
    const gappyScore = speechDensitySignal(gappy, 0, 12.8);
    expect(gappyScore).toBeLessThan(0.7);
    expect(gappyScore).toBeGreaterThan(0);
    expect(speechDensitySignal([], 0, 10)).toBe(0);
  });
});

describe('highlights: scene-cut signal', () => {
  it('gives a bonus when edges sit on cuts', () => {
    expect(sceneCutSignal([10, 40], 10.1, 39.9)).toBe(1);
    expect(sceneCutSignal([10], 10, 30)).toBe(0.5);
    expect(sceneCutSignal([10], 10.75, 30)).toBeCloseTo(0.25, 5);
    expect(sceneCutSignal([], 10, 30)).toBe(0);
  });
});
