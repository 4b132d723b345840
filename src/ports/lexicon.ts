/**
 * A lexical database (the embedded one: WordNet 3.1, src/adapters/lexicon/wordnet.lexicon.ts): what a
 * prompt's words may also be said as, so that a prompt matches speech in other words (docs/highlights.md).
 */
export interface Lexicon {
  /**
   * Words and phrases (lowercase, words separated by one space) sharing one of the common senses of
   * `word` (in any inflection: "prices" is looked up as "price"), the word itself left out; [] for a
   * word the database does not know. Never rejects.
   */
  synonyms(word: string): Promise<string[]>;
}
