import { describe, expect, it } from 'vitest';
import { buildCandidates } from '../../src/domain/highlights/candidates.js';
import { pickHighlights } from '../../src/domain/highlights/highlight-engine.js';
import { contentStems, tokenize } from '../../src/domain/highlights/lexicon.js';
import { splitSentences } from '../../src/domain/highlights/sentences.js';
import { innerShift, pausesBefore, shiftFactor, spacedBoundaries, topicShifts, weightedCosine } from '../../src/domain/highlights/topics.js';
import { speak } from './highlights-fixture.js';

const GARDEN = [
  'In spring I plant tomatoes in the garden behind the house.',
  'The garden soil must be dark and rich before the tomatoes go in.',
  'I water the young tomato plants every evening.',
  'Slugs love the garden, so I check the leaves for them.',
  'My neighbour gave me seeds for beans and peas.',
  'The beans climb up wooden sticks along the garden fence.',
  'By July the tomatoes turn red in the sun.',
  'I pick the ripe tomatoes and the beans in the morning.',
  'Weeds grow fast in the garden after the rain.',
  'Pulling weeds keeps the soil free for the plants.',
  'In autumn I dig the garden and add compost to the soil.',
  'A garden gives you fresh vegetables all summer long.',
];

const TRAINS = [
  'The train to the coast leaves the station at seven.',
  'I bought my ticket at the station the night before.',
  'The train was late because of a signal failure.',
  'The conductor checked every ticket on the train.',
  'From the window of the train I watched the fields pass.',
  'We changed trains at a small station near the river.',
  'The second train was old and very slow.',
  'A passenger next to me read a newspaper the whole journey.',
  'The railway line follows the river to the sea.',
  'At noon the train arrived at the last station.',
  'I will take the same train back on sunday.',
  'Travelling by train is calm and cheap.',
];

const STARS = [
  'On clear nights I look at the stars with my telescope.',
  'The telescope shows the rings of Saturn and the moons of Jupiter.',
  'Far from the city lights the sky is full of stars.',
  'The moon is bright, so the faint stars are hard to see.',
  'I wrote the names of the planets in a notebook.',
  'Mars looks like a small red star in the sky.',
  'A comet passed close to the sun last winter.',
  'Astronomers measure how far away the stars are.',
  'Some stars are so far that their light is very old.',
  'My telescope has a mirror the size of a plate.',
  'The best nights for the stars are cold and dry.',
  'I show the planets and the moon to my children.',
];

const stemsOf = (sentences: readonly string[]) => sentences.map((s) => contentStems(tokenize(s)));

describe('topic shifts', () => {
  it('finds the changes between three unrelated topics within a sentence or two, and nothing else', () => {
    const { boundaries } = topicShifts(stemsOf([...GARDEN, ...TRAINS, ...STARS]));
    expect(boundaries.length).toBe(2);
    expect(Math.abs(boundaries[0] - GARDEN.length)).toBeLessThanOrEqual(2);
    expect(Math.abs(boundaries[1] - (GARDEN.length + TRAINS.length))).toBeLessThanOrEqual(2);
  });

  it('finds nothing in a talk on one topic', () => {
    expect(topicShifts(stemsOf([...GARDEN, ...GARDEN.slice().reverse(), ...GARDEN.slice(3)])).boundaries).toEqual([]);
    expect(topicShifts(stemsOf(TRAINS)).boundaries).toEqual([]);
  });

  it('moves a boundary to a clearly longer pause next to it when that gap is nearly as strong (a speaker pauses between topics)', () => {
    const stems = stemsOf([...GARDEN, ...TRAINS]);
    const plain = topicShifts(stems).boundaries;
    expect(plain.length).toBe(1);
    expect(Math.abs(plain[0] - GARDEN.length)).toBeLessThanOrEqual(1);
    const pausedAt = (at: number, seconds = 3) => stems.map((_, g) => (g === at ? seconds : 0.8));
    // The talk's own pause between the topics puts the boundary exactly there.
    expect(topicShifts(stems, {}, pausedAt(GARDEN.length)).boundaries).toEqual([GARDEN.length]);
    // A pause inside a topic, where the words do not change, does not move it; nor does a pause only a little longer.
    expect(topicShifts(stems, {}, pausedAt(GARDEN.length - 3)).boundaries).toEqual(plain);
    expect(topicShifts(stems, {}, pausedAt(GARDEN.length + 3)).boundaries).toEqual(plain);
    expect(topicShifts(stems, {}, pausedAt(plain[0] === GARDEN.length ? plain[0] + 1 : GARDEN.length, 1.2)).boundaries).toEqual(plain);
  });

  it('needs a few sentences on each side and nothing at all for a short transcript', () => {
    expect(topicShifts([]).boundaries).toEqual([]);
    expect(topicShifts(stemsOf([GARDEN[0], TRAINS[0]])).boundaries).toEqual([]);
    expect(topicShifts(stemsOf([...GARDEN, ...TRAINS]), { minSentences: 13 }).boundaries).toEqual([]);
  });

  it('drops the weaker boundary around a topic too short for a clip', () => {
    const starts = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90];
    const strength = [0, 0, 0, 0.9, 0, 0.7, 0, 0, 0.8, 0];
    // Topics 0–30, 30–50, 50–80 and 80–100 s.
    expect(spacedBoundaries([3, 5, 8], strength, starts, 100, 20)).toEqual([3, 5, 8]);
    // 25 s at least: 30–50 goes with its weaker boundary (0.7), then 80–100 with its only one.
    expect(spacedBoundaries([3, 5, 8], strength, starts, 100, 25)).toEqual([3]);
    expect(spacedBoundaries([3, 5, 8], strength, starts, 100, 60)).toEqual([]);
    expect(spacedBoundaries([], strength, starts, 100, 25)).toEqual([]);
  });

  it('gives the pauses between sentences, the strongest shift inside a window and what is left of its cohesion', () => {
    expect(
      pausesBefore([
        { start: 0, end: 2 },
        { start: 2.5, end: 4 },
        { start: 3.9, end: 5 },
      ]),
    ).toEqual([0, 0.5, 0]);
    expect(innerShift({ strength: [0, 0.2, 0.9, 0.4], boundaries: [] }, 0, 1)).toBe(0.2);
    expect(innerShift({ strength: [0, 0.2, 0.9, 0.4], boundaries: [] }, 2, 3)).toBe(0.4);
    expect(innerShift({ strength: [0, 0.2, 0.9, 0.4], boundaries: [] }, 1, 1)).toBe(0);
    expect(innerShift({ strength: [0, 0.2, 0.5, 0.4], boundaries: [2] }, 1, 2)).toBe(1);
    expect(shiftFactor(0.2)).toBe(1);
    expect(shiftFactor(0.45)).toBeCloseTo(0.5, 6);
    expect(shiftFactor(0.6)).toBe(0);
    expect(shiftFactor(1)).toBe(0);
    expect(weightedCosine(['a', 'b'], ['a', 'b'])).toBeCloseTo(1, 9);
    expect(weightedCosine(['a'], ['b'])).toBe(0);
    expect(weightedCosine([], ['b'])).toBe(0);
    expect(weightedCosine(['a', 'b'], ['a', 'c'], (s) => (s === 'a' ? 0 : 1))).toBe(0);
  });
});

/** The three topics spoken one after the other, a longer pause between topics. */
function threeTopics() {
  const a = speak(GARDEN, { sentenceGap: 1 });
  const b = speak(TRAINS, { start: a.end + 1.5, sentenceGap: 1 });
  const c = speak(STARS, { start: b.end + 1.5, sentenceGap: 1 });
  const stretch = (w: typeof a.words) => ({ start: w[0].start, end: w[w.length - 1].end });
  return { words: [...a.words, ...b.words, ...c.words], duration: c.end + 1, stretches: [stretch(a.words), stretch(b.words), stretch(c.words)] };
}

describe('clips and topic boundaries', () => {
  it('no candidate window spans a boundary', () => {
    const t = threeTopics();
    const sentences = splitSentences(t.words);
    const boundaries = topicShifts(
      sentences.map((s) => contentStems(tokenize(s.text))),
      {},
      pausesBefore(sentences),
    ).boundaries;
    expect(boundaries).toEqual([GARDEN.length, GARDEN.length + TRAINS.length]);
    const all = buildCandidates(sentences, { minSeconds: 10, maxSeconds: 40, duration: t.duration });
    const kept = buildCandidates(sentences, { minSeconds: 10, maxSeconds: 40, duration: t.duration, boundaries });
    expect(all.some((w) => boundaries.some((b) => w.first < b && w.last >= b))).toBe(true);
    expect(kept.length).toBeGreaterThan(10);
    for (const w of kept) for (const b of boundaries) expect(w.first >= b || w.last < b).toBe(true);
  });

  it('every clip stays inside one topic, with and without keywords', () => {
    const t = threeTopics();
    const inside = (c: { start: number; end: number }) => t.stretches.some((s) => c.start >= s.start - 1 && c.end <= s.end + 1);
    const strategy = { min_seconds: 15, max_seconds: 40, max_clips: 10 };
    for (const steer of [{}, { keywords: ['station', 'soil'] }, { keywords: ['ticket', 'moon'] }, { prompt: 'the railway journey' }]) {
      const clips = pickHighlights({ words: t.words, duration: t.duration, strategy, ...steer });
      expect(clips.length).toBeGreaterThanOrEqual(3);
      for (const c of clips) expect(inside(c), `${JSON.stringify(steer)} ${c.start}–${c.end}`).toBe(true);
    }
  });

  it('a window across a topic change loses its cohesion when the topics are too short for a clip of their own', () => {
    const t = threeTopics();
    // 70–90 s clips: no topic (under a minute each) holds one, so the windows span a change and their cohesion says so.
    const clips = pickHighlights({ words: t.words, duration: t.duration, strategy: { min_seconds: 70, max_seconds: 90, max_clips: 3 } });
    expect(clips.length).toBeGreaterThan(0);
    for (const c of clips) {
      expect(c.signals.cohesion).toBe(0);
      expect(c.score_details!.coherence).toBeLessThanOrEqual(6);
    }
    // The same windows inside one topic hold together.
    const oneTopic = speak([...GARDEN, ...GARDEN.slice().reverse()], { sentenceGap: 1 });
    const same = pickHighlights({ words: oneTopic.words, duration: oneTopic.end + 1, strategy: { min_seconds: 70, max_seconds: 90, max_clips: 3 } });
    expect(Math.min(...same.map((c) => c.signals.cohesion))).toBeGreaterThan(0.2);
  });
});
