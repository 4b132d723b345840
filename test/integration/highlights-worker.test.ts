import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerHighlightScorer } from '../../src/adapters/highlights/worker.highlight-scorer.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import type { WorkerPool } from '../../src/adapters/workers/worker-pool.js';
import { pickHighlights, pickHighlightsWithScorer, shortlistHighlights } from '../../src/domain/highlights/highlight-engine.js';
import { createCompute } from '../../src/main/compute.wiring.js';
import type { HighlightClip, HighlightInput, HighlightScorer } from '../../src/ports/highlights.js';
import { FILLER, STRONG, speak, unpunctuate } from '../unit/highlights-fixture.js';

/**
 * Highlight scoring in the compute pool (src/adapters/highlights/worker.highlight-scorer.ts) answers
 * exactly what the engine computes on the event loop, on a fixture talk of about ten minutes, with and
 * without punctuation, loudness, scene cuts and an LLM-like scorer re-rating the shortlist.
 */

/** About ten minutes: filler sentences with the strong story told three times, a loud stretch, scene cuts every 37 s. */
function talk(): { punctuated: HighlightInput; plain: HighlightInput } {
  const sentences: string[] = [];
  for (let round = 0; round < 14; round++) {
    sentences.push(...FILLER.slice(round % 5, (round % 5) + 8));
    if (round % 5 === 2) sentences.push(...STRONG);
  }
  const { words, end } = speak(sentences);
  const duration = Math.ceil(end);
  const loudness = Array.from({ length: duration }, (_, s) => (s > 200 && s < 260 ? -14 : -26 + Math.sin(s / 7) * 3));
  const sceneCuts = Array.from({ length: Math.floor(duration / 37) }, (_, i) => (i + 1) * 37);
  const base = { loudness, scene_cuts: sceneCuts, duration, language: 'en' };
  return { punctuated: { ...base, words }, plain: { ...base, words: unpunctuate(words), strategy: { min_seconds: 15, max_seconds: 30, max_clips: 12 } } };
}

/** A scorer like the LLM's: re-rates by the clip's start and renames, so its order differs from the engine's. */
const rescoring: HighlightScorer = {
  name: 'fake-llm',
  maxCandidates: 15,
  async rescore(candidates: HighlightClip[]) {
    return candidates.map((c) => ({ ...c, rating: (c.start % 10) as number, title: `re ${c.title}`, signals: { ...c.signals, llm: 0.5 } }));
  },
};

describe('WorkerHighlightScorer', () => {
  let pool: WorkerPool;
  const inputs = talk();

  beforeAll(() => {
    pool = createComputePool(1);
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('is a talk long enough to score', () => {
    expect(inputs.punctuated.duration).toBeGreaterThan(540);
    expect(inputs.punctuated.words.length).toBeGreaterThan(1200);
  });

  for (const kind of ['punctuated', 'plain'] as const) {
    it(`computes in a thread exactly the engine's shortlist and picks (${kind} transcript)`, async () => {
      const input = inputs[kind];
      const threaded = new WorkerHighlightScorer(pool);
      for (const count of [10, 40]) {
        const inLoop = shortlistHighlights(input, count);
        expect(inLoop.length).toBeGreaterThan(5);
        expect(await threaded.shortlist(input, count)).toEqual(inLoop);
      }
      const picks = pickHighlights(input);
      expect(picks.length).toBeGreaterThan(3);
      expect(await pickHighlightsWithScorer(input, threaded)).toEqual(picks);
      expect(pool.threadCount).toBe(1);
    });
  }

  it('keeps a re-rating scorer working on the shortlist the thread computed', async () => {
    const input = inputs.punctuated;
    const threaded = new WorkerHighlightScorer(pool, rescoring);
    expect(threaded.maxCandidates).toBe(15);
    const expected = await pickHighlightsWithScorer(input, rescoring);
    expect(expected.every((c) => c.title.startsWith('re '))).toBe(true);
    expect(await pickHighlightsWithScorer(input, threaded)).toEqual(expected);
  });

  it('is what the compute wiring picks with threads; with 0 threads the scorer stays as given (the event loop)', async () => {
    expect(createCompute(0).highlights(rescoring)).toBe(rescoring);
    expect(createCompute(0).highlights(undefined)).toBeUndefined();
    const compute = createCompute(1);
    try {
      expect(compute.highlights(undefined)).toBeInstanceOf(WorkerHighlightScorer);
      expect(compute.highlights(rescoring)?.rescore).toBeDefined();
    } finally {
      await compute.close();
    }
  });
});
