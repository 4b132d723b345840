import type { TimedWord } from '../../src/ports/highlights.js';

/** Synthetic speech: each word 0.32 s, 0.06 s between words, `sentenceGap` between sentences. */
export function speak(
  sentences: string[],
  opts: { start?: number; wordSeconds?: number; wordGap?: number; sentenceGap?: number } = {},
): { words: TimedWord[]; end: number } {
  const wordSeconds = opts.wordSeconds ?? 0.32;
  const wordGap = opts.wordGap ?? 0.06;
  const sentenceGap = opts.sentenceGap ?? 0.8;
  let t = opts.start ?? 0;
  const words: TimedWord[] = [];
  for (const s of sentences) {
    const parts = s.split(/\s+/).filter(Boolean);
    parts.forEach((text, i) => {
      words.push({ start: round(t), end: round(t + wordSeconds), text });
      t += wordSeconds + (i < parts.length - 1 ? wordGap : 0);
    });
    t += sentenceGap;
  }
  return { words, end: round(t) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** pocketsphinx style: lowercase, no punctuation. */
export function unpunctuate(words: TimedWord[]): TimedWord[] {
  return words.map((w) => ({ ...w, text: w.text.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '') })).filter((w) => w.text);
}

export const FILLER = [
  'We walked along the road to the shop near the old station.',
  'The shop had some bread and a few boxes of tea on the shelf.',
  'After that we went back home and sat in the kitchen for a while.',
  'The afternoon was quiet and the street outside was empty.',
  'Later my neighbour came over to borrow a ladder for the garden.',
  'We talked about the fence and the colour of the paint for the gate.',
  'He said the weather would stay mild until the end of the week.',
  'Then he took the ladder and went back to his own garden.',
  'In the evening we cooked rice with some vegetables from the market.',
  'The kitchen window was open and a cat sat on the wall outside.',
  'After dinner we washed the plates and put them on the rack.',
  'The radio played quiet music while we tidied the room.',
  'My sister phoned to ask about the train times for the weekend.',
  'We looked at the timetable together and chose a morning train.',
  'Then we packed a small bag with clothes and a book for the journey.',
  'The bag went next to the door so we would not forget it.',
];

export const STRONG = [
  'Why do ninety percent of new restaurants fail in their first year?',
  'The secret nobody tells you is that it is never the food.',
  'It is the rent, and it is absolutely brutal.',
  'Owners sign a ten year lease and pay forty percent of their revenue to the landlord.',
  'That is a terrible mistake, and it destroyed my first restaurant.',
  'I lost two hundred thousand dollars and I was devastated.',
  'Here is what you should do instead.',
  'Negotiate a short restaurant lease with an option to renew, and keep the rent under ten percent of sales.',
  'That rule saved my second restaurant.',
];
