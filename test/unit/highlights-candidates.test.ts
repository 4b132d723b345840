import { describe, expect, it } from 'vitest';
import { buildCandidates, placeWindow } from '../../src/domain/highlights/candidates.js';
import { splitSentences } from '../../src/domain/highlights/sentences.js';
import { FILLER, speak } from './highlights-fixture.js';

describe('highlights: candidate windows', () => {
  const { words, end } = speak([...FILLER, ...FILLER]);
  const sentences = splitSentences(words);
  const opts = { minSeconds: 20, maxSeconds: 60, duration: end + 2 };
  const windows = buildCandidates(sentences, opts);

  it('slides over the whole transcript within [min, max]', () => {
    expect(windows.length).toBeGreaterThan(sentences.length);
    for (const w of windows) {
      expect(w.end - w.start).toBeGreaterThanOrEqual(20 - 1e-9);
      expect(w.end - w.start).toBeLessThanOrEqual(60 + 1e-9);
      expect(w.start).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeLessThanOrEqual(opts.duration);
    }
    // every sentence that leaves room for a minimum-length window starts at least one window
    const starts = new Set(windows.map((w) => w.first));
    for (const s of sentences) if (sentences[sentences.length - 1].end - s.start >= 20) expect(starts.has(s.index)).toBe(true);
    // windows reach the last sentence
    expect(windows.some((w) => w.last === sentences.length - 1)).toBe(true);
  });

  it('starts and ends on sentence boundaries: no word is cut, neighbours stay outside', () => {
    for (const w of windows) {
      const first = sentences[w.first];
      const last = sentences[w.last];
      expect(w.start).toBeLessThanOrEqual(first.start);
      expect(w.end).toBeGreaterThanOrEqual(last.end);
      if (w.first > 0) expect(w.start).toBeGreaterThan(sentences[w.first - 1].end);
      if (w.last < sentences.length - 1) expect(w.end).toBeLessThan(sentences[w.last + 1].start);
      const cut = words.filter((word) => !(word.start >= w.start && word.end <= w.end) && !(word.end <= w.start || word.start >= w.end));
      expect(cut).toEqual([]);
    }
  });

  it('keeps a short lead-in and tail from the surrounding silence', () => {
    const w = windows.find((x) => x.first === 3)!;
    expect(sentences[3].start - w.start).toBeCloseTo(0.2, 5);
    expect(w.end - sentences[w.last].end).toBeCloseTo(0.35, 5); // half of (0.8 s gap − 0.1 s margin), under the 0.4 s cap
  });

  it('grows a short run into the silence around it to reach the minimum', () => {
    const a = speak(['This is the only thing said in a long quiet video.'], { start: 30 });
    const s = splitSentences(a.words);
    const w = placeWindow(s, 0, 0, { minSeconds: 20, maxSeconds: 60, duration: 90 })!;
    expect(w.end - w.start).toBeCloseTo(20, 6);
    expect(w.start).toBeLessThan(30);
    expect(w.end).toBeGreaterThan(s[0].end);
    // near the start of the video the growth goes where the room is
    const b = speak(['Short words at the very start.'], { start: 0.5 });
    const wb = placeWindow(splitSentences(b.words), 0, 0, { minSeconds: 20, maxSeconds: 60, duration: 90 })!;
    expect(wb.start).toBe(0);
    expect(wb.end - wb.start).toBeCloseTo(20, 6);
  });

  it('refuses runs that cannot fit', () => {
    const a = speak(['One sentence.', 'Another sentence right after.'], { sentenceGap: 0.3 });
    const s = splitSentences(a.words);
    expect(placeWindow(s, 0, 0, { minSeconds: 20, maxSeconds: 60, duration: 30 })).toBeNull(); // hemmed in by its neighbour
    expect(placeWindow(s, 0, 1, { minSeconds: 1, maxSeconds: 2, duration: 30 })).toBeNull(); // longer than max
    expect(buildCandidates([], opts)).toEqual([]);
  });

  it('shrinks the cosmetic padding rather than exceed the maximum', () => {
    const a = speak(['alpha beta gamma delta'], { start: 5, wordSeconds: 0.5, wordGap: 0 });
    const s = splitSentences(a.words);
    const span = s[0].end - s[0].start;
    const w = placeWindow(s, 0, 0, { minSeconds: 1, maxSeconds: span + 0.1, duration: 20 })!;
    expect(w.end - w.start).toBeCloseTo(span + 0.1, 9);
  });
});
