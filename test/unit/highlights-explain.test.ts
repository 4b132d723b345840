import { describe, expect, it } from 'vitest';
import { clipReason, distinctTitles, isOpeningWords, keyPhrases, scoreDetails, stemStats, subScoreWeights } from '../../src/domain/highlights/explain.js';
import { pickHighlights } from '../../src/domain/highlights/highlight-engine.js';
import { contentStems, tokenize } from '../../src/domain/highlights/lexicon.js';
import { FILLER, STRONG, speak, unpunctuate } from './highlights-fixture.js';

function talk() {
  const a = speak([...FILLER, ...FILLER.slice(0, 8)]);
  const b = speak(STRONG, { start: a.end + 0.5 });
  const c = speak([...FILLER.slice(4), ...FILLER], { start: b.end + 0.5 });
  return { words: [...a.words, ...b.words, ...c.words], duration: c.end + 1 };
}

describe('sub-scores', () => {
  it('are the weighted means of their signals, 0..10', () => {
    const d = scoreDetails({ hook: 0.8, complete: 1, cohesion: 0, question: 0, numbers: 1, emotion: 0, density: 0.5, energy: 1, scene: 1 });
    expect(d.hook).toBe(8);
    expect(d.coherence).toBe(Math.round(((10 * 0.14) / 0.27) * 10) / 10);
    expect(d.value).toBe(Math.round(((10 * 0.1) / 0.33) * 10) / 10);
    expect(d.delivery).toBe(Math.round(((10 * (0.1 + 0.04)) / 0.18) * 10) / 10);
    // Without loudness, delivery is speech density alone.
    expect(scoreDetails({ hook: 0, complete: 0, cohesion: 0, question: 0, numbers: 0, emotion: 0, density: 0.5 }).delivery).toBe(5);
  });

  it('combine into the embedded rating (the documented formula), for every clip of a talk', () => {
    const t = talk();
    for (const loudness of [undefined, t.words.map((_, i) => -20 - (i % 7))]) {
      const clips = pickHighlights({ words: t.words, duration: t.duration, loudness });
      expect(clips.length).toBeGreaterThan(3);
      for (const c of clips) {
        const d = c.score_details!;
        for (const v of Object.values(d)) expect(v >= 0 && v <= 10).toBe(true);
        const w = subScoreWeights(c.signals);
        const total = w.hook + w.coherence + w.value + w.delivery;
        const combined =
          10 * Math.min(1, (w.hook * d.hook + w.coherence * d.coherence + w.value * d.value + w.delivery * d.delivery) / 10 / total + 0.03 * c.signals.scene);
        expect(Math.abs(combined - c.rating)).toBeLessThanOrEqual(0.15);
      }
    }
  });
});

describe('key phrases, titles and reasons', () => {
  const sentences = [
    'Owners sign a ten year lease and pay forty percent of their revenue to the landlord.',
    'The landlord raised the rent again.',
    'We walked along the road to the shop.',
  ].map((s) => speak([s]).words);
  const stats = stemStats([...sentences, ...FILLER.map((s) => speak([s]).words)].map((ws) => contentStems(tokenize(ws.map((w) => w.text).join(' ')))));

  it('ranks the clip’s distinctive runs of content words first, never a word the recogniser was unsure of', () => {
    const phrases = keyPhrases(sentences.slice(0, 2), stats);
    expect(phrases[0]).toMatch(/landlord|lease/);
    expect(phrases).not.toContain('the');
    const unsure = sentences.slice(0, 2).map((s) => s.map((w) => (/landlord|lease/i.test(w.text) ? { ...w, confidence: 0.2 } : w)));
    for (const p of keyPhrases(unsure, stats)) expect(p).not.toMatch(/landlord|lease/);
  });

  it('gives every clip a different title, never its opening words, and a time when nothing is left', () => {
    const titles = distinctTitles([
      { phrases: ['landlord', 'rent'], text: 'The landlord raised the rent.', start: 0 },
      { phrases: ['landlord', 'rent'], text: 'A landlord and the rent.', start: 30 },
      { phrases: ['landlord', 'rent'], text: 'Landlord rent.', start: 60 },
      { phrases: ['landlord'], text: 'Something else.', start: 95 },
      { phrases: ['opening words'], text: 'Opening words are not a title.', start: 125 },
    ]);
    expect(titles).toEqual(['Landlord', 'Rent', 'Landlord and rent', 'Clip at 1:35', 'Clip at 2:05']);
    expect(isOpeningWords('Opening words', 'Opening words are not a title.')).toBe(true);
    expect(isOpeningWords('Words', 'Opening words.')).toBe(false);
  });

  it('on a talk: no two clips share a title, no title is the clip’s first words, each reason names the clip’s own phrases', () => {
    const t = talk();
    for (const words of [t.words, unpunctuate(t.words)]) {
      const clips = pickHighlights({ words, duration: t.duration });
      expect(new Set(clips.map((c) => c.title.toLowerCase())).size).toBe(clips.length);
      for (const c of clips) {
        expect(isOpeningWords(c.title, c.text), c.title).toBe(false);
        expect(c.reason).toMatch(/^About .+: .+\.$/);
        const about = c.reason!.slice(6, c.reason!.indexOf(':'));
        for (const w of tokenize(about).filter((x) => x !== 'and')) expect(tokenize(c.text), `${w} in ${c.reason}`).toContain(w);
      }
      expect(clips[0].reason).toMatch(/figures \(“ninety percent”\)/);
      expect(new Set(clips.map((c) => c.reason)).size).toBeGreaterThan(1);
    }
  });

  it('a reason says what the clip matched, and its weak points', () => {
    const reason = clipReason({
      phrases: ['harbour lights'],
      text: 'and the harbour lights appeared',
      details: { hook: 1, coherence: 2, value: 0, delivery: 2 },
      signals: { numbers: 0, emotion: 0, question: 0 },
      matched: ['harbour'],
    });
    expect(reason).toBe('About harbour lights: it says “harbour”, though it starts or ends mid-thought.');
    expect(clipReason({ phrases: [], text: 'Quiet words here', details: { hook: 1, coherence: 2, value: 0, delivery: 2 }, signals: {} })).toBe(
      'About quiet words: it starts or ends mid-thought and the delivery is slow.',
    );
  });
});
