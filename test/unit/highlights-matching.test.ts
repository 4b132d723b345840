import { describe, expect, it } from 'vitest';
import { buildQuery, matchTokens, promptWords, termWeights } from '../../src/domain/highlights/matching.js';
import { pickHighlights, pickHighlightsWithScorer } from '../../src/domain/highlights/highlight-engine.js';
import { tokenize } from '../../src/domain/highlights/lexicon.js';
import type { HighlightClip, HighlightScorer } from '../../src/ports/highlights.js';
import { FILLER, STRONG, speak } from './highlights-fixture.js';

const SEA = [
  'The sea was grey and the waves were higher than the fishing boat.',
  'Our captain had sailed that sea for thirty years and never lost a sailor.',
  'That night the storm pushed the boat towards the rocks near the harbour.',
  'We tied ourselves to the mast and watched the waves break over the deck.',
  'The sea calmed at dawn and the harbour lights appeared through the fog.',
  'Every sailor on board went straight to the harbour church to give thanks.',
  'The captain said the sea never forgives a crew that stops paying attention.',
  'I still dream about those waves, and I have not been on a boat since.',
];

/** Filler (~1 min), the sea story (~35 s), filler, the restaurant story (the strongest, ~45 s), filler. */
function talk() {
  const a = speak(FILLER);
  const b = speak(SEA, { start: a.end + 0.5 });
  const c = speak(FILLER.slice(0, 10), { start: b.end + 0.5 });
  const d = speak(STRONG, { start: c.end + 0.5 });
  const e = speak(FILLER, { start: d.end + 0.5 });
  const span = (w: typeof a) => ({ start: w.words[0].start, end: w.words[w.words.length - 1].end });
  return { words: [...a.words, ...b.words, ...c.words, ...d.words, ...e.words], sea: span(b), restaurant: span(d), duration: e.end + 1 };
}

describe('prompt words and matching', () => {
  it('keeps the prompt’s content words, without stopwords and words that only say how to look', () => {
    expect(promptWords('Find the moments about pricing and the FREE trial, please!')).toEqual(['pricing', 'free', 'trial']);
    expect(promptWords('   ')).toEqual([]);
  });

  it('matches a prompt word by its stem and by its synonyms (one word or several), never by an unrelated word', () => {
    const q = buildQuery({ prompt: 'pricing', synonyms: { pricing: ['cost', 'monetary value'] } })!;
    expect(matchTokens(q, tokenize('Our prices went up twice last year.'))).toMatchObject({ matches: true, matched: ['prices'] });
    expect(matchTokens(q, tokenize('The costs were brutal.'))).toMatchObject({ matches: true, matched: ['costs'] });
    expect(matchTokens(q, tokenize('Its monetary value doubled.'))).toMatchObject({ matches: true, matched: ['monetary value'] });
    expect(matchTokens(q, tokenize('We walked to the shop near the station.'))).toEqual({ matches: false, relevance: 0, matched: [] });
    // Without the lexicon's synonyms, a synonym does not match.
    const bare = buildQuery({ prompt: 'pricing' })!;
    expect(matchTokens(bare, tokenize('The costs were brutal.')).matches).toBe(false);
  });

  it('rates covering more of the prompt, more often, and its words said together higher', () => {
    const q = buildQuery({ prompt: 'restaurant rent' })!;
    const one = matchTokens(q, tokenize('The restaurant was small.'));
    const both = matchTokens(q, tokenize('The restaurant rent was brutal.'));
    const apart = matchTokens(q, tokenize('The restaurant was small and the street was very long and loud and the rent was high.'));
    expect(one.relevance).toBeGreaterThan(0);
    expect(both.relevance).toBeGreaterThan(one.relevance);
    expect(both.relevance).toBeGreaterThan(apart.relevance);
  });

  it('weighs a rare prompt word above one said in every sentence', () => {
    const q = buildQuery({ prompt: 'garden rent' })!;
    const sentences = [...FILLER, ...FILLER, 'The rent is high.'].map(tokenize);
    const w = termWeights(q, sentences);
    expect(w('rent')).toBeGreaterThan(w('garden'));
    expect(matchTokens(q, tokenize('The rent was high.'), w).relevance).toBeGreaterThan(matchTokens(q, tokenize('The garden was nice.'), w).relevance);
  });

  it('matches a keyword only when all its words are said in a row (stemmed), and names it as given', () => {
    const q = buildQuery({ keywords: ['free trial', 'Lease'] })!;
    expect(matchTokens(q, tokenize('We offer free trials to everyone.'))).toMatchObject({ matches: true, matched: ['free trial'] });
    expect(matchTokens(q, tokenize('They signed two leases.'))).toMatchObject({ matches: true, matched: ['Lease'] });
    expect(matchTokens(q, tokenize('The trial was not free.')).matches).toBe(false);
  });

  it('with keywords, a clip that says only prompt words does not match (the words it said are still named)', () => {
    const q = buildQuery({ prompt: 'sea', keywords: ['harbour'] })!;
    expect(matchTokens(q, tokenize('The sea was grey.'))).toEqual({ matches: false, relevance: 0, matched: ['sea'] });
    expect(matchTokens(q, tokenize('The sea near the harbour was grey.'))).toMatchObject({ matches: true, matched: ['harbour', 'sea'] });
  });

  it('builds no query without a prompt word or a keyword', () => {
    expect(buildQuery({})).toBeNull();
    expect(buildQuery({ prompt: 'find the best moments' })).toBeNull();
  });
});

describe('steered picks', () => {
  const t = talk();
  const inside = (c: HighlightClip, s: { start: number; end: number }) => c.start >= s.start - 1 && c.end <= s.end + 1;

  it('without a prompt the restaurant story wins; with a prompt in other words (a synonym) the sea story does', () => {
    expect(inside(pickHighlights({ words: t.words, duration: t.duration })[0], t.restaurant)).toBe(true);
    const clips = pickHighlights({ words: t.words, duration: t.duration, prompt: 'the moments about the ocean', synonyms: { ocean: ['sea'] } });
    expect(inside(clips[0], t.sea)).toBe(true);
    expect(clips[0].matched).toContain('sea');
  });

  it('rates every matching clip above every clip that matches nothing; those only make up three clips', () => {
    const clips = pickHighlights({ words: t.words, duration: t.duration, prompt: 'ocean storms', synonyms: { ocean: ['sea'] } });
    const matching = clips.filter((c) => c.matched!.length > 0);
    const others = clips.filter((c) => c.matched!.length === 0);
    expect(matching.length).toBeGreaterThan(0);
    expect(clips.length).toBe(Math.max(3, matching.length));
    expect(Math.min(...matching.map((c) => c.rating))).toBeGreaterThan(Math.max(-1, ...others.map((c) => c.rating)));
    for (let i = 1; i < clips.length; i++) expect(clips[i].rating).toBeLessThanOrEqual(clips[i - 1].rating);
  });

  it('with keywords every clip says one, except those making up three; clip lengths stay in the asked range', () => {
    const strategy = { min_seconds: 12, max_seconds: 25, max_clips: 10 };
    const clips = pickHighlights({ words: t.words, duration: t.duration, keywords: ['harbour', 'landlord'], strategy });
    const saying = clips.filter((c) => /harbour|landlord/i.test(c.text));
    expect(saying.length).toBeGreaterThanOrEqual(2);
    expect(clips.length).toBe(Math.max(3, saying.length));
    for (const c of clips) {
      expect(c.end - c.start).toBeGreaterThanOrEqual(12 - 1e-6);
      expect(c.end - c.start).toBeLessThanOrEqual(25 + 1e-6);
      expect(c.matched).toEqual(/harbour|landlord/i.test(c.text) ? [/harbour/i.test(c.text) ? 'harbour' : 'landlord'] : []);
    }
  });

  it('keeps matching clips above the others when a scorer re-rates them', async () => {
    const input = { words: t.words, duration: t.duration, keywords: ['harbour'] };
    // A scorer that loves everything the keyword is not in.
    const scorer: HighlightScorer = {
      name: 'contrary',
      maxCandidates: 6,
      rescore: async (cands) => cands.map((c) => ({ ...c, rating: /harbour/i.test(c.text) ? 0 : 9.5 })),
    };
    const clips = await pickHighlightsWithScorer(input, scorer);
    expect(clips.length).toBeGreaterThanOrEqual(3);
    expect(/harbour/i.test(clips[0].text)).toBe(true);
    const saying = clips.filter((c) => /harbour/i.test(c.text));
    const others = clips.filter((c) => !/harbour/i.test(c.text));
    expect(Math.min(...saying.map((c) => c.rating))).toBeGreaterThan(Math.max(...others.map((c) => c.rating)));
  });

  it('with a prompt, a scorer rates each clip’s own potential and the prompt’s relevance still counts; a scorer that throws changes nothing', async () => {
    const input = { words: t.words, duration: t.duration, prompt: 'ocean storms', synonyms: { ocean: ['sea'] } };
    const seen: number[] = [];
    const flat: HighlightScorer = {
      name: 'flat',
      maxCandidates: 6,
      rescore: async (cands) => {
        seen.push(...cands.map((c) => c.rating));
        return cands.map((c) => ({ ...c, rating: 0 }));
      },
    };
    const embedded = pickHighlights(input);
    const clips = await pickHighlightsWithScorer(input, flat);
    // The scorer was shown the ratings without the prompt (the restaurant story's is the highest), not the steered ones.
    expect(Math.max(...seen)).toBeGreaterThan(embedded[0].rating);
    // All rated 0 by the scorer: the most relevant clip (the sea story) stays first, rated by its relevance alone.
    expect(inside(clips[0], t.sea)).toBe(true);
    expect(clips[0].rating).toBeGreaterThan(0.1);
    const throwing: HighlightScorer = {
      name: 'throws',
      maxCandidates: 6,
      rescore: async () => {
        throw new Error('down');
      },
    };
    expect(await pickHighlightsWithScorer(input, throwing)).toEqual(embedded);
  });
});
