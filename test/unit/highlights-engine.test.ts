import { describe, expect, it } from 'vitest';
import {
  HIGHLIGHT_STRATEGIES,
  pickHighlights,
  pickHighlightsWithScorer,
  rankCandidates,
  resolveStrategy,
} from '../../src/domain/highlights/highlight-engine.js';
import type { HighlightClip, HighlightInput, HighlightScorer, TimedWord } from '../../src/ports/highlights.js';
import { STOPWORDS, tokenize } from '../../src/domain/highlights/lexicon.js';
import { FILLER, STRONG, speak, unpunctuate } from './highlights-fixture.js';

/** Filler (~2 min), the strong stretch (~45 s), filler again (~3 min). */
function talk() {
  const a = speak([...FILLER, ...FILLER.slice(0, 8)]);
  const b = speak(STRONG, { start: a.end + 0.5 });
  const c = speak([...FILLER.slice(4), ...FILLER], { start: b.end + 0.5 });
  return { words: [...a.words, ...b.words, ...c.words], strong: { start: b.words[0].start, end: b.words[b.words.length - 1].end }, duration: c.end + 1 };
}

function checkInvariants(clips: HighlightClip[], input: HighlightInput, words: TimedWord[]) {
  const s = resolveStrategy(input.strategy);
  expect(clips.length).toBeLessThanOrEqual(s.max_clips);
  for (let i = 0; i < clips.length; i++) {
    const c = clips[i];
    if (i > 0) expect(c.rating).toBeLessThanOrEqual(clips[i - 1].rating);
    expect(c.start).toBeGreaterThanOrEqual(0);
    expect(c.end).toBeLessThanOrEqual(input.duration);
    if (input.duration >= s.min_seconds) {
      expect(c.end - c.start).toBeGreaterThanOrEqual(s.min_seconds - 1e-6);
      expect(c.end - c.start).toBeLessThanOrEqual(s.max_seconds + 1e-6);
    }
    expect(c.rating).toBeGreaterThanOrEqual(0);
    expect(c.rating).toBeLessThanOrEqual(10);
    expect(Math.round(c.rating * 10) / 10).toBe(c.rating);
    expect(c.title.length).toBeGreaterThan(0);
    expect(c.title.length).toBeLessThanOrEqual(60);
    expect(c.text.length).toBeGreaterThan(0);
    for (const v of Object.values(c.signals)) expect(v >= 0 && v <= 1).toBe(true);
    // no word is cut by a clip edge
    const cut = words.filter((w) => (w.start < c.start - 1e-9 && w.end > c.start + 1e-9) || (w.start < c.end - 1e-9 && w.end > c.end + 1e-9));
    expect(cut).toEqual([]);
    for (let j = 0; j < i; j++) {
      const o = clips[j];
      expect(Math.min(c.end, o.end) - Math.max(c.start, o.start)).toBeLessThanOrEqual(1e-3);
    }
  }
}

describe('highlight engine', () => {
  const t = talk();

  it('rates the strong stretch highest (punctuated transcript)', () => {
    const input = { words: t.words, duration: t.duration };
    const clips = pickHighlights(input);
    expect(clips.length).toBeGreaterThan(3);
    const top = clips[0];
    expect(top.start).toBeGreaterThanOrEqual(t.strong.start - 1);
    expect(top.end).toBeLessThanOrEqual(t.strong.end + 1);
    expect(top.text.startsWith('Why do ninety percent')).toBe(true);
    expect(top.title).toBe('Ten year lease');
    expect(top.rating).toBeGreaterThanOrEqual(7);
    expect(clips[1].rating).toBeLessThan(top.rating - 2);
    expect(Object.keys(top.signals).sort()).toEqual(['cohesion', 'complete', 'density', 'emotion', 'hook', 'numbers', 'question', 'scene']);
    checkInvariants(clips, input, t.words);
  });

  it('works on pocketsphinx-style text (lowercase, no punctuation): sentence-bounded clips, same winner', () => {
    const words = unpunctuate(t.words);
    const input = { words, duration: t.duration };
    const clips = pickHighlights(input);
    expect(clips[0].text.startsWith('why do ninety percent')).toBe(true);
    expect(clips[0].end).toBeLessThanOrEqual(t.strong.end + 1);
    expect(clips[0].title).toBe('Ten year lease');
    checkInvariants(clips, input, words);
  });

  it('never takes a title word the recogniser was unsure of (low-confidence content words)', () => {
    const words = unpunctuate(t.words).map((w) => ({ ...w, confidence: 0.9 }));
    // "ninety", "restaurants" and "lease" heard with a low confidence: never in a title
    const unsure = words.map((w) => (w.text === 'ninety' || w.text === 'restaurants' || w.text === 'lease' ? { ...w, confidence: 0.2 } : w));
    const sure = pickHighlights({ words, duration: t.duration });
    expect(sure[0].title).toBe('Ten year lease');
    const clips = pickHighlights({ words: unsure, duration: t.duration });
    expect(clips[0].start).toBe(sure[0].start); // the rating does not change, only the title
    expect(clips[0].rating).toBe(sure[0].rating);
    for (const c of clips) expect(c.title.toLowerCase()).not.toMatch(/\b(ninety|restaurants|lease)\b/);
    expect(clips[0].title.length).toBeGreaterThan(0);
    // unsure stopwords do not count: a title may still hold them
    const unsureStop = words.map((w) => (w.text === 'do' || w.text === 'of' ? { ...w, confidence: 0.1 } : w));
    expect(pickHighlights({ words: unsureStop, duration: t.duration })[0].title).toBe('Ten year lease');
    // no content word sure anywhere: titles quote only function words, or the clip is titled by its time
    const allUnsure = words.map((w) => ({ ...w, confidence: 0.1 }));
    for (const c of pickHighlights({ words: allUnsure, duration: t.duration })) {
      expect(/^Clip at \d+:\d\d$/.test(c.title) || tokenize(c.title).every((x) => STOPWORDS.has(x)), c.title).toBe(true);
    }
  });

  it('respects every built-in strategy', () => {
    for (const strategy of Object.values(HIGHLIGHT_STRATEGIES)) {
      const input = { words: t.words, duration: t.duration, strategy };
      const clips = pickHighlights(input);
      expect(clips.length).toBeGreaterThan(0);
      checkInvariants(clips, input, t.words);
    }
    expect(pickHighlights({ words: t.words, duration: t.duration, strategy: { max_clips: 2 } }).length).toBe(2);
  });

  it('repairs a nonsensical strategy', () => {
    expect(resolveStrategy()).toEqual(HIGHLIGHT_STRATEGIES.default);
    expect(resolveStrategy({ min_seconds: 50, max_seconds: 10, max_clips: 0 })).toEqual({ min_seconds: 50, max_seconds: 50, max_clips: 10 });
    expect(resolveStrategy({ min_seconds: -5, max_seconds: Number.NaN, max_clips: 2.7 })).toEqual({ min_seconds: 20, max_seconds: 60, max_clips: 2 });
  });

  it('is deterministic, whatever the order of the words', () => {
    const input = { words: t.words, duration: t.duration, loudness: [-20, -18, -25], scene_cuts: [12, 50] };
    const a = pickHighlights(input);
    const b = pickHighlights(structuredClone(input));
    const reversed = pickHighlights({ ...input, words: [...t.words].reverse() });
    expect(b).toEqual(a);
    expect(reversed).toEqual(a);
  });

  it('makes one clip of the whole video when it is shorter than the minimum, none when nothing is said', () => {
    const short = speak(['Why do most people never save money?', 'Because nobody shows them how.'], { start: 0.4 });
    const clips = pickHighlights({ words: short.words, duration: 8 });
    expect(clips).toHaveLength(1);
    expect(clips[0]).toMatchObject({ start: 0, end: 8 });
    expect(clips[0].title).toBe('Save money');
    expect(pickHighlights({ words: [], duration: 8 })).toEqual([]);
    expect(pickHighlights({ words: [], duration: 300 })).toEqual([]);
    expect(pickHighlights({ words: short.words, duration: 0 })).toEqual([]);
    expect(pickHighlights({ words: [{ start: 0, end: 0.2, text: '<sil>' }], duration: 8 })).toEqual([]);
  });

  it('grows a lone sentence in a quiet video into a minimum-length clip', () => {
    const lone = speak(['This is the only thing said in this quiet video.'], { start: 50 });
    const input = { words: lone.words, duration: 100 };
    const clips = pickHighlights(input);
    expect(clips).toHaveLength(1);
    expect(clips[0].end - clips[0].start).toBeCloseTo(20, 2);
    expect(clips[0].start).toBeLessThan(50);
    checkInvariants(clips, input, lone.words);
    expect(clips[0].signals.density).toBeLessThan(0.3);
  });

  it('never leaves the video when the transcript runs past its end', () => {
    const input = { words: t.words, duration: 200 };
    const clips = pickHighlights(input);
    checkInvariants(
      clips,
      input,
      t.words.filter((w) => w.start < 200),
    );
    expect(Math.max(...clips.map((c) => c.end))).toBeLessThanOrEqual(200);
  });

  it('lets loudness break a tie between two identical stretches', () => {
    const para = FILLER.slice(0, 6);
    const a = speak(para);
    const b = speak(para, { start: a.end + 10 });
    const duration = Math.ceil(b.end + 1);
    const loudness = Array.from({ length: duration }, (_, i) => (i >= b.words[0].start && i <= b.end ? -14 : -26));
    const clips = pickHighlights({ words: [...a.words, ...b.words], duration, loudness, strategy: { min_seconds: 15, max_seconds: 30 } });
    expect(clips[0].start).toBeGreaterThanOrEqual(b.words[0].start - 1);
    expect(clips[0].signals.energy).toBeGreaterThan(0.6);
    const without = pickHighlights({ words: [...a.words, ...b.words], duration, strategy: { min_seconds: 15, max_seconds: 30 } });
    expect(without[0].signals.energy).toBeUndefined();
  });

  it('gives the scene-cut bonus to clips whose edges sit on cuts', () => {
    const ranked = rankCandidates({ words: t.words, duration: t.duration });
    const target = ranked[5].clip;
    const withCuts = rankCandidates({ words: t.words, duration: t.duration, scene_cuts: [target.start, target.end] });
    const same = withCuts.find((r) => r.clip.start === target.start && r.clip.end === target.end)!;
    expect(same.clip.signals.scene).toBe(1);
    expect(same.score).toBeGreaterThan(ranked[5].score);
  });
});

describe('highlight engine with a scorer', () => {
  const t = talk();
  const input: HighlightInput = { words: t.words, duration: t.duration, strategy: { max_clips: 3 } };

  it('lets the scorer re-rank and re-title the shortlist', async () => {
    let seen = 0;
    const scorer: HighlightScorer = {
      name: 'fake',
      maxCandidates: 6,
      async rescore(candidates, ctx) {
        seen = candidates.length;
        expect(ctx).toMatchObject({ language: 'en', strategy: { min_seconds: 20, max_seconds: 60, max_clips: 3 } });
        return candidates.map((c, i) => ({ ...c, rating: i === candidates.length - 1 ? 9.9 : 1, title: `T${i}`, signals: { ...c.signals, llm: 0.5 } }));
      },
    };
    const clips = await pickHighlightsWithScorer(input, scorer);
    expect(seen).toBe(6);
    expect(clips).toHaveLength(3);
    expect(clips[0]).toMatchObject({ rating: 9.9, title: 'T5' });
    expect(clips[0].signals.llm).toBe(0.5);
  });

  it('keeps the embedded result when the scorer throws, and ignores clips it invents', async () => {
    const embedded = pickHighlights(input);
    const errors: unknown[] = [];
    const throwing: HighlightScorer = {
      name: 'bad',
      maxCandidates: 5,
      rescore: async () => {
        throw new Error('boom');
      },
    };
    expect(await pickHighlightsWithScorer(input, throwing, { onScorerError: (e) => errors.push(e) })).toEqual(embedded);
    expect(errors).toHaveLength(1);
    const inventing: HighlightScorer = {
      name: 'liar',
      maxCandidates: 3,
      rescore: async () => [{ start: 0, end: 5, rating: 10, title: 'Invented', text: 'x', signals: {} }],
    };
    expect(await pickHighlightsWithScorer(input, inventing)).toEqual(embedded);
    expect(await pickHighlightsWithScorer(input)).toEqual(embedded);
    expect(await pickHighlightsWithScorer({ words: [], duration: 10 }, inventing)).toEqual([]);
  });
});
