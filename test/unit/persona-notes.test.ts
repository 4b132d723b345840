import { describe, expect, it } from 'vitest';
import { defaultChips, type Chips } from '../../src/domain/personas/persona-catalog.js';
import { NOTE_EXAMPLES, noteClauses, normaliseNote, noteExamples, readNote } from '../../src/domain/personas/persona-notes.js';

/**
 * Notes as people write them, read by the embedded engines: each row is a note, the persona it is
 * applied to, and exactly the traits it must change (every other trait must stay as it was).
 */

const woman: Chips = defaultChips(); // friendly, female, adult, europe, medium_light, brown eyes, long dark-brown hair, no facial hair, oval, average, blue top, no accessory, no mark
const man: Chips = {
  ...defaultChips(),
  gender: 'male',
  hair_style: 'combover',
  hair_color: 'black',
  facial_hair: 'full_beard',
  accessory: 'glasses',
  mark: 'scar',
};
const curlyTeen: Chips = { ...defaultChips(), age: 'young_adult', hair_style: 'curly_bun', hair_color: 'blonde', skin: 'light', vibe: 'serious' };

const TABLE: Array<[note: string, base: Chips, changes: Partial<Chips>]> = [
  // The issue's own examples.
  ['Short hair', woman, { hair_style: 'bob' }],
  ['shorter hair please', woman, { hair_style: 'bob' }],
  ['make her older', woman, { age: 'middle_aged' }],
  ['add glasses', woman, { accessory: 'glasses' }],
  ['no beard', man, { facial_hair: 'none' }],
  ['smiling', curlyTeen, { vibe: 'friendly' }],
  ['darker skin', woman, { skin: 'medium' }],
  ['curly red hair', woman, { hair_style: 'curly_bun', hair_color: 'red' }],
  // Age.
  ['make him younger', man, { age: 'young_adult' }],
  ['a bit older, maybe in her fifties', woman, { age: 'middle_aged' }],
  ['elderly', woman, { age: 'senior' }],
  ['she should look like a grandma', woman, { age: 'senior' }],
  ['less old', { ...woman, age: 'senior' }, { age: 'middle_aged' }],
  ['in his thirties', { ...man, age: 'senior' }, { age: 'adult' }],
  // Hair.
  ['much shorter hair', curlyTeen, { hair_style: 'curly' }],
  ['longer hair', { ...woman, hair_style: 'bob' }, { hair_style: 'long' }],
  ['very long hair', woman, { hair_style: 'extra_long' }],
  ['shave his head', man, { hair_style: 'bald' }],
  ['give her bangs', woman, { hair_style: 'bob_bangs' }],
  ['put the hair in a ponytail', woman, { hair_style: 'bun' }],
  ['braids', woman, { hair_style: 'pigtails' }],
  ['straight hair', curlyTeen, { hair_style: 'bun' }],
  ['an undercut', man, { hair_style: 'side_shave' }],
  ['blonde', woman, { hair_color: 'blonde' }],
  ['make her a redhead', woman, { hair_color: 'red' }],
  ['grey hair', man, { hair_color: 'grey' }],
  ['silver hair and a mustache', man, { hair_color: 'grey', facial_hair: 'mustache' }],
  ['darker hair', curlyTeen, { hair_color: 'grey' }],
  ['platinum blonde bob', woman, { hair_color: 'blonde', hair_style: 'bob' }],
  // Faces, marks, accessories.
  ['take off the glasses', man, { accessory: 'none' }],
  ['sunglasses', woman, { accessory: 'sunglasses' }],
  ['add earrings', woman, { accessory: 'earrings' }],
  ['clean shaven', man, { facial_hair: 'none' }],
  ['shave the beard', man, { facial_hair: 'none' }],
  ['just some stubble', man, { facial_hair: 'stubble' }],
  ['a short beard', woman, { facial_hair: 'short_beard' }],
  ['give him a goatee', man, { facial_hair: 'goatee' }],
  ['freckles', woman, { mark: 'freckles' }],
  ['remove the scar', man, { mark: 'none' }],
  ['rosy cheeks', woman, { mark: 'blush' }],
  // Vibe and expression.
  ['not smiling', woman, { vibe: 'serious' }],
  ['stop frowning', curlyTeen, { vibe: 'friendly' }],
  ['laughing', woman, { vibe: 'playful' }],
  ['look shocked', woman, { vibe: 'surprised' }],
  ['more relaxed', curlyTeen, { vibe: 'calm' }],
  // Colours that name other things.
  ['blue eyes', woman, { eyes: 'blue' }],
  ['green eyes and a red shirt', woman, { eyes: 'green', outfit: 'red_top' }],
  ['wearing a yellow hoodie', woman, { outfit: 'yellow_top' }],
  ['grey eyes', woman, { eyes: 'grey' }],
  // Skin, build, face, origin, gender.
  ['paler skin', woman, { skin: 'light' }],
  ['tanned', woman, { skin: 'medium' }],
  ['muscular', man, { body: 'broad' }],
  ['slimmer', woman, { body: 'slim' }],
  ['a rounder face', woman, { face: 'round' }],
  ['south asian', woman, { origin: 'south_asia' }],
  ['make it a man with a beard', woman, { gender: 'male', facial_hair: 'full_beard' }],
  // Several changes, negations and the old labels.
  ['older, no glasses, and smiling', { ...man, vibe: 'serious' }, { age: 'middle_aged', accessory: 'none', vibe: 'friendly' }],
  ['no beard but keep the glasses', man, { facial_hair: 'none', accessory: 'glasses' }],
  ['Short combover', woman, { hair_style: 'combover' }],
  ['Dark brown hair please', curlyTeen, { hair_color: 'dark_brown' }],
  ['red hair, glasses and a mole', woman, { hair_color: 'red', accessory: 'glasses', mark: 'mole' }],
];

/** Notes that name no trait: refused, never guessed at. */
const UNREAD = ['more mysterious please', 'something else', 'better lighting', 'make it pop', 'brown', 'grey', 'again'];

describe('readNote: notes as people write them', () => {
  const results = TABLE.map(([note, base, changes]) => {
    const r = readNote(base, note);
    const expected = { ...base, ...changes };
    return { note, ok: JSON.stringify(r.chips) === JSON.stringify(expected) && r.named.length > 0, got: r.chips, expected };
  });

  it('has at least 40 notes, the issue’s five among them', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    for (const n of ['Short hair', 'make her older', 'add glasses', 'no beard', 'smiling']) expect(TABLE.map((r) => r[0])).toContain(n);
  });

  it('changes the traits a note names and nothing else, for at least 90 % of the notes', () => {
    const wrong = results.filter((r) => !r.ok);
    expect(results.filter((r) => r.ok).length / results.length, JSON.stringify(wrong, null, 1)).toBeGreaterThanOrEqual(0.9);
  });

  it.each(TABLE.map((r) => [r[0], r] as const))('%s', (_, [note, base, changes]) => {
    const r = readNote(base, note);
    expect(r.chips).toEqual({ ...base, ...changes });
  });

  it('names nothing in notes without a trait word', () => {
    for (const note of UNREAD) expect(readNote(woman, note), note).toMatchObject({ named: [], changed: [], chips: woman });
  });

  it('names a trait that already has the asked option without changing it', () => {
    expect(readNote(woman, 'long hair')).toEqual({ chips: woman, changed: [], named: ['hair_style'] });
  });

  it('reads only the traits an engine changes', () => {
    expect(readNote(woman, 'blonde and calm', ['vibe'])).toEqual({ chips: { ...woman, vibe: 'calm' }, changed: ['vibe'], named: ['vibe'] });
    expect(readNote(woman, 'blonde hair', ['vibe']).named).toEqual([]);
  });

  it('splits clauses at punctuation and joining words; apostrophes go', () => {
    expect(noteClauses(normaliseNote("Don't smile, and add glasses; also older"))).toEqual([['dont', 'smile'], ['add', 'glasses'], ['older']]);
  });

  it('offers examples that work, those an engine reads when it reads few traits', () => {
    for (const e of NOTE_EXAMPLES) expect(readNote(woman, e).named.length, e).toBeGreaterThan(0);
    expect(noteExamples(['vibe'])).toEqual(expect.arrayContaining(['smiling', 'more serious']));
    expect(noteExamples(['vibe'])).not.toContain('add glasses');
  });
});
