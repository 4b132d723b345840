import { TRAITS, TRAIT_KEYS, defaultChips, type Chips, type TraitKey } from './persona-catalog.js';

/**
 * How the embedded persona engines read a regeneration note (pure): the way people phrase a change
 * ("shorter hair", "make her older", "add glasses", "no beard", "curly red hair", "smiling", "darker
 * skin"), not only the catalog's option labels. docs/personas.md lists what is read.
 *
 * The note is split into clauses (at commas, semicolons, full stops and the words and, but, also,
 * plus, then). In each clause:
 * - trait words with their common synonyms set a trait's option ("redhead" → hair colour red,
 *   "specs" → glasses, "grinning" → the playful vibe), longest phrases first, each word used once;
 * - comparatives move a trait one step from the persona's current option: older / younger (age),
 *   darker / lighter skin or hair, shorter / longer hair (the nearest style of that length, curls kept
 *   where the catalog has them);
 * - a negation before a word ("no", "not", "without", "remove", "lose", "get rid of", "shave off",
 *   "less", "stop", "don't") removes an accessory, facial hair or a mark, turns a vibe to its opposite
 *   ("not smiling" → serious) and an age word to the other direction ("less old" → younger).
 * A colour word goes to the thing it names (hair, eyes, a top); alone it is read only when it can name
 * just one trait (blonde, brunette, ginger). Returns the new chips, the traits changed and the traits
 * the note named (a named trait may already have the asked option).
 */

export interface NoteReading {
  chips: Chips;
  /** Traits whose option changed. */
  changed: TraitKey[];
  /** Traits the note named, changed or not. Empty: nothing in the note names a trait. */
  named: TraitKey[];
}

/** Notes the embedded engines read, shown to a person whose note named nothing (NOTE_NOT_UNDERSTOOD's `extra.examples`). */
export const NOTE_EXAMPLES: readonly string[] = [
  'shorter hair',
  'make her older',
  'add glasses',
  'no beard',
  'curly red hair',
  'smiling',
  'darker skin',
  'blue eyes and a green top',
  'a calmer look',
  'more serious',
];

const NEGATORS = new Set([
  'no',
  'not',
  'without',
  'remove',
  'drop',
  'lose',
  'ditch',
  'delete',
  'minus',
  'never',
  'dont',
  'stop',
  'rid',
  'off',
  'less',
  'nor',
  'neither',
  'shave',
  'isnt',
  'arent',
  'doesnt',
  'wont',
  'cant',
]);
const CLAUSE_BREAKS = new Set(['and', 'but', 'also', 'plus', 'then', 'while']);

/** Lower case, apostrophes dropped ("don't" → "dont"), everything but letters and digits a space. */
export function normaliseNote(note: string): string {
  return note
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/[^a-z0-9,;.!?]+/g, ' ')
    .trim();
}

/** The clauses of a normalised note, each as its words. */
export function noteClauses(normalised: string): string[][] {
  const out: string[][] = [];
  for (const part of normalised.split(/[,;.!?]+/)) {
    let cur: string[] = [];
    for (const w of part.split(' ').filter(Boolean)) {
      if (CLAUSE_BREAKS.has(w)) {
        if (cur.length) out.push(cur);
        cur = [];
      } else cur.push(w);
    }
    if (cur.length) out.push(cur);
  }
  return out;
}

// ---------------------------------------------------------------- vocabularies

type Value = string | ((current: string, negated: boolean, phrase: string) => string | null);

interface Rule {
  key: TraitKey;
  /** Word sequences (space-separated); the longest match in a clause wins. */
  phrases: readonly string[];
  value: Value;
  /** Whether a negation before the phrase changes the reading (see `value`'s `negated`); otherwise a negated phrase is skipped. */
  negatable?: boolean;
}

const AGE_ORDER = TRAITS.age.options.map((o) => o.id);
const SKIN_ORDER = TRAITS.skin.options.map((o) => o.id);
/** Hair colours from light to dark, for "darker hair" / "lighter hair". */
const HAIR_LIGHT_TO_DARK = ['white', 'blonde', 'grey', 'pink', 'red', 'auburn', 'brown', 'dark_brown', 'black'];

const step = (order: readonly string[], current: string, by: number) => {
  const i = order.indexOf(current);
  if (i < 0) return null;
  return order[Math.min(order.length - 1, Math.max(0, i + by))];
};

/** How long each hair style is (0 bald … 5 extra long) and whether it keeps curls. */
const HAIR: Record<string, { length: number; curly?: boolean }> = {
  bald: { length: 0 },
  buzzcut: { length: 1 },
  fade: { length: 1 },
  balding: { length: 1 },
  side_shave: { length: 2 },
  mohawk: { length: 2 },
  combover: { length: 2 },
  curly_high_top: { length: 2, curly: true },
  bob: { length: 3 },
  bob_bangs: { length: 3 },
  curly: { length: 3, curly: true },
  bun: { length: 4 },
  curly_bun: { length: 4, curly: true },
  pigtails: { length: 4 },
  long: { length: 4 },
  extra_long: { length: 5 },
};
/** Preferred style at each length (straight / curly), when a length is asked. */
const AT_LENGTH: Record<number, { straight: string; curly: string }> = {
  0: { straight: 'bald', curly: 'bald' },
  1: { straight: 'buzzcut', curly: 'buzzcut' },
  2: { straight: 'combover', curly: 'curly_high_top' },
  3: { straight: 'bob', curly: 'curly' },
  4: { straight: 'long', curly: 'curly_bun' },
  5: { straight: 'extra_long', curly: 'extra_long' },
};

/** The nearest style of `length` (clamped to 1..5) keeping curls: the current style when it already has that length. */
function styleOfLength(current: string, length: number): string {
  const l = Math.min(5, Math.max(1, length));
  const c = HAIR[current] ?? { length: 4 };
  if (c.length === l) return current;
  return AT_LENGTH[l][c.curly ? 'curly' : 'straight'];
}

const hairLength = (current: string) => HAIR[current]?.length ?? 4;
/** The straight style nearest each curly one. */
const STRAIGHTENED: Record<string, string> = { curly: 'bob', curly_high_top: 'fade', curly_bun: 'bun' };

/** Colour words and the option each names, per trait that has colours. */
const HAIR_COLOURS: Record<string, readonly string[]> = {
  black: ['black', 'jet black', 'raven'],
  dark_brown: ['dark brown', 'dark', 'brunette', 'chocolate'],
  brown: ['brown', 'light brown', 'mousy', 'mousey'],
  auburn: ['auburn', 'chestnut', 'copper', 'reddish brown', 'coppery'],
  red: ['red', 'ginger', 'orange', 'fiery red', 'strawberry'],
  blonde: ['blonde', 'blond', 'golden', 'platinum', 'fair', 'light', 'sandy', 'honey'],
  grey: ['grey', 'gray', 'silver', 'greying', 'graying', 'salt and pepper', 'grizzled'],
  white: ['white', 'snow white', 'snowy'],
  pink: ['pink', 'pastel pink', 'rose'],
};
const EYE_COLOURS: Record<string, readonly string[]> = {
  brown: ['brown', 'dark', 'dark brown'],
  hazel: ['hazel', 'amber'],
  green: ['green', 'emerald'],
  blue: ['blue', 'light blue', 'sky blue', 'icy blue'],
  grey: ['grey', 'gray', 'silver', 'steel'],
};
const TOP_COLOURS: Record<string, readonly string[]> = {
  blue_top: ['blue', 'navy', 'dark blue', 'light blue', 'denim'],
  teal_top: ['teal', 'turquoise', 'cyan', 'aqua'],
  purple_top: ['purple', 'violet', 'lilac', 'lavender', 'plum'],
  green_top: ['green', 'olive', 'khaki', 'mint'],
  red_top: ['red', 'crimson', 'maroon', 'burgundy', 'scarlet'],
  yellow_top: ['yellow', 'mustard', 'gold', 'golden'],
  pink_top: ['pink', 'magenta', 'fuchsia', 'rose'],
};
const HAIR_NOUNS = ['hair', 'haired', 'hairs', 'locks', 'curls', 'mane', 'hairdo', 'hairstyle', 'haircut'];
const EYE_NOUNS = ['eyes', 'eyed', 'eye', 'iris', 'irises'];
const TOP_NOUNS = [
  'top',
  'shirt',
  'tshirt',
  't shirt',
  'tee',
  'sweater',
  'jumper',
  'blouse',
  'hoodie',
  'jacket',
  'dress',
  'outfit',
  'clothes',
  'clothing',
  'sweatshirt',
  'cardigan',
  'blazer',
  'coat',
];

/** Colour phrase + noun (and "<colour>-haired" style compounds) rules. */
function colourRules(key: TraitKey, colours: Record<string, readonly string[]>, nouns: readonly string[]): Rule[] {
  return Object.entries(colours).map(([id, words]) => ({
    key,
    phrases: words.flatMap((w) => nouns.map((n) => `${w} ${n}`)),
    value: id,
  }));
}

/** Words that name a hair colour alone (no hair noun needed). */
const LONE_HAIR_COLOURS: Record<string, string> = {
  blonde: 'blonde',
  blond: 'blonde',
  'platinum blonde': 'blonde',
  brunette: 'dark_brown',
  redhead: 'red',
  'red head': 'red',
  ginger: 'red',
  auburn: 'auburn',
  'silver haired': 'grey',
  'grey haired': 'grey',
  'gray haired': 'grey',
};

const RULES: readonly Rule[] = [
  // Hair colour: a colour with a hair word, or a word that names a hair colour alone.
  ...colourRules('hair_color', HAIR_COLOURS, HAIR_NOUNS),
  { key: 'hair_color', phrases: Object.keys(LONE_HAIR_COLOURS), value: (_, __, phrase) => LONE_HAIR_COLOURS[phrase] ?? null },
  { key: 'hair_color', phrases: ['darker hair', 'deeper hair colour'], value: (c) => step(HAIR_LIGHT_TO_DARK, c, 1) },
  { key: 'hair_color', phrases: ['lighter hair', 'brighter hair'], value: (c) => step(HAIR_LIGHT_TO_DARK, c, -1) },
  // Eyes and tops.
  ...colourRules('eyes', EYE_COLOURS, EYE_NOUNS),
  ...colourRules('outfit', TOP_COLOURS, TOP_NOUNS),
  // Hair style: named styles first (longest phrases win), then lengths.
  {
    key: 'hair_style',
    phrases: ['bald', 'no hair', 'hairless', 'shaved head', 'shave head', 'shave her head', 'shave his head', 'clean shaven head'],
    value: 'bald',
  },
  { key: 'hair_style', phrases: ['balding', 'receding', 'receding hairline', 'thinning hair', 'thinning'], value: 'balding' },
  {
    key: 'hair_style',
    phrases: ['buzz cut', 'buzzcut', 'buzzed', 'crew cut', 'military cut', 'very short hair', 'really short hair', 'cropped hair'],
    value: 'buzzcut',
  },
  { key: 'hair_style', phrases: ['fade', 'skin fade'], value: 'fade' },
  { key: 'hair_style', phrases: ['mohawk', 'mohican', 'faux hawk'], value: 'mohawk' },
  { key: 'hair_style', phrases: ['side shave', 'shaved sides', 'undercut', 'side shaved'], value: 'side_shave' },
  { key: 'hair_style', phrases: ['combover', 'comb over', 'side part', 'side parting', 'short combover'], value: 'combover' },
  { key: 'hair_style', phrases: ['afro', 'high top', 'curly high top', 'hi top'], value: 'curly_high_top' },
  { key: 'hair_style', phrases: ['bangs', 'fringe', 'bob with bangs', 'bob with a fringe'], value: 'bob_bangs' },
  { key: 'hair_style', phrases: ['bob', 'bob cut', 'bobcut', 'bob haircut', 'chin length hair', 'chin length'], value: 'bob' },
  { key: 'hair_style', phrases: ['curly bun', 'curly updo'], value: 'curly_bun' },
  { key: 'hair_style', phrases: ['bun', 'top knot', 'topknot', 'updo', 'ponytail', 'pony tail', 'hair up', 'tied back', 'hair tied'], value: 'bun' },
  { key: 'hair_style', phrases: ['pigtails', 'braids', 'plaits', 'braided', 'twin tails', 'pig tails'], value: 'pigtails' },
  {
    key: 'hair_style',
    phrases: ['curly', 'curls', 'curly hair', 'wavy', 'wavy hair', 'ringlets', 'permed', 'perm'],
    value: (c) => (HAIR[c]?.curly ? c : hairLength(c) >= 4 ? 'curly_bun' : 'curly'),
  },
  { key: 'hair_style', phrases: ['straight hair', 'straight', 'straighter hair', 'sleek hair'], value: (c) => STRAIGHTENED[c] ?? c },
  { key: 'hair_style', phrases: ['extra long hair', 'very long hair', 'really long hair', 'extra long', 'very long'], value: 'extra_long' },
  { key: 'hair_style', phrases: ['long hair', 'long'], value: (c) => styleOfLength(c, Math.max(4, hairLength(c))) },
  {
    key: 'hair_style',
    phrases: ['longer hair', 'longer', 'grow the hair', 'grow her hair', 'grow his hair', 'grow out'],
    value: (c) => styleOfLength(c, hairLength(c) + 1),
  },
  {
    key: 'hair_style',
    phrases: ['short hair', 'shorter hair', 'shorter', 'short', 'cut the hair', 'cut her hair', 'cut his hair', 'haircut', 'trim the hair', 'trimmed hair'],
    value: (c) => (hairLength(c) <= 3 && hairLength(c) >= 1 ? styleOfLength(c, hairLength(c) - (hairLength(c) > 1 ? 1 : 0)) : styleOfLength(c, 3)),
  },
  { key: 'hair_style', phrases: ['medium length hair', 'medium hair', 'shoulder length hair', 'shoulder length'], value: (c) => styleOfLength(c, 3) },
  // Age.
  {
    key: 'age',
    phrases: ['older', 'aged', 'age up', 'age her up', 'age him up', 'more mature', 'mature', 'elder'],
    value: (c, neg) => step(AGE_ORDER, c, neg ? -1 : 1),
    negatable: true,
  },
  { key: 'age', phrases: ['younger', 'youthful', 'de age', 'deage', 'more youthful'], value: (c, neg) => step(AGE_ORDER, c, neg ? 1 : -1), negatable: true },
  { key: 'age', phrases: ['old'], value: (c, neg) => (neg ? step(AGE_ORDER, c, -1) : 'senior'), negatable: true },
  { key: 'age', phrases: ['young'], value: (c, neg) => (neg ? step(AGE_ORDER, c, 1) : 'young_adult'), negatable: true },
  {
    key: 'age',
    phrases: [
      'senior',
      'elderly',
      'grandma',
      'grandpa',
      'grandmother',
      'grandfather',
      'granny',
      'retired',
      'pensioner',
      'sixties',
      'seventies',
      'eighties',
      '60s',
      '70s',
      '80s',
      'in her 60s',
      'in his 60s',
    ],
    value: 'senior',
  },
  { key: 'age', phrases: ['middle aged', 'middleaged', 'forties', 'fifties', '40s', '50s', 'midlife'], value: 'middle_aged' },
  { key: 'age', phrases: ['thirties', '30s', 'late twenties'], value: 'adult' },
  { key: 'age', phrases: ['teen', 'teenager', 'twenties', '20s', 'college student', 'young adult', 'early twenties'], value: 'young_adult' },
  // Skin.
  {
    key: 'skin',
    phrases: ['darker skin', 'darker skinned', 'darker complexion', 'darker skin tone', 'more tanned', 'tanned', 'tan', 'suntanned', 'a tan'],
    value: (c) => step(SKIN_ORDER, c, 1),
  },
  {
    key: 'skin',
    phrases: ['lighter skin', 'lighter skinned', 'lighter complexion', 'paler', 'paler skin', 'fairer skin', 'lighter skin tone'],
    value: (c) => step(SKIN_ORDER, c, -1),
  },
  { key: 'skin', phrases: ['very dark skin', 'very dark skinned', 'deep skin', 'ebony skin'], value: 'very_dark' },
  { key: 'skin', phrases: ['dark skin', 'dark skinned', 'dark complexion', 'black skin'], value: 'dark' },
  { key: 'skin', phrases: ['medium dark skin', 'brown skin', 'brown skinned'], value: 'medium_dark' },
  { key: 'skin', phrases: ['medium skin', 'olive skin', 'olive skinned', 'olive complexion'], value: 'medium' },
  { key: 'skin', phrases: ['light skin', 'light skinned', 'fair skin', 'fair skinned', 'pale', 'pale skin', 'light complexion'], value: 'light' },
  { key: 'skin', phrases: ['very light skin', 'very pale', 'very pale skin', 'porcelain skin'], value: 'very_light' },
  // Vibe (a negation turns it round).
  {
    key: 'vibe',
    phrases: ['smiling', 'smile', 'smiley', 'happy', 'happier', 'cheerful', 'friendly', 'friendlier', 'warm', 'warmer', 'welcoming'],
    value: (_, neg) => (neg ? 'serious' : 'friendly'),
    negatable: true,
  },
  {
    key: 'vibe',
    phrases: ['grinning', 'grin', 'laughing', 'laugh', 'playful', 'fun', 'funny', 'goofy', 'cheeky', 'silly', 'winking', 'mischievous'],
    value: (_, neg) => (neg ? 'calm' : 'playful'),
    negatable: true,
  },
  {
    key: 'vibe',
    phrases: ['calm', 'calmer', 'relaxed', 'serene', 'peaceful', 'neutral', 'chill', 'composed', 'neutral expression'],
    value: (_, neg) => (neg ? 'playful' : 'calm'),
    negatable: true,
  },
  {
    key: 'vibe',
    phrases: ['serious', 'stern', 'professional', 'focused', 'grumpy', 'frowning', 'frown', 'strict', 'no nonsense'],
    value: (_, neg) => (neg ? 'friendly' : 'serious'),
    negatable: true,
  },
  {
    key: 'vibe',
    phrases: ['surprised', 'shocked', 'amazed', 'astonished', 'startled', 'wow'],
    value: (_, neg) => (neg ? 'calm' : 'surprised'),
    negatable: true,
  },
  // Gender (nouns only: "her" and "his" name the persona, they do not ask for a change).
  { key: 'gender', phrases: ['woman', 'female', 'girl', 'lady', 'feminine', 'a woman', 'more feminine'], value: 'female' },
  { key: 'gender', phrases: ['man', 'male', 'guy', 'boy', 'masculine', 'gentleman', 'more masculine'], value: 'male' },
  { key: 'gender', phrases: ['androgynous', 'non binary', 'nonbinary', 'gender neutral', 'genderless'], value: 'androgynous' },
  // Face shape and build.
  {
    key: 'face',
    phrases: ['round face', 'rounder face', 'chubby face', 'chubbier face', 'full face', 'fuller face', 'round cheeks', 'chubby cheeks'],
    value: 'round',
  },
  {
    key: 'face',
    phrases: ['narrow face', 'narrower face', 'thin face', 'thinner face', 'slim face', 'slimmer face', 'long face', 'angular face'],
    value: 'narrow',
  },
  { key: 'face', phrases: ['oval face'], value: 'oval' },
  { key: 'body', phrases: ['slim', 'slimmer', 'thin', 'thinner', 'skinny', 'slender', 'lean', 'petite'], value: 'slim' },
  {
    key: 'body',
    phrases: ['broad', 'broader', 'muscular', 'stocky', 'athletic', 'buff', 'heavier', 'broad shoulders', 'broad shouldered', 'burly'],
    value: 'broad',
  },
  { key: 'body', phrases: ['average build', 'normal build', 'average body', 'medium build'], value: 'average' },
  // Accessories, facial hair, marks (a negation removes them).
  {
    key: 'accessory',
    phrases: ['sunglasses', 'shades', 'sunnies', 'sun glasses', 'dark glasses'],
    value: (_, neg) => (neg ? 'none' : 'sunglasses'),
    negatable: true,
  },
  {
    key: 'accessory',
    phrases: ['glasses', 'specs', 'spectacles', 'eyeglasses', 'reading glasses'],
    value: (_, neg) => (neg ? 'none' : 'glasses'),
    negatable: true,
  },
  {
    key: 'accessory',
    phrases: ['earrings', 'earring', 'ear rings', 'studs', 'hoops', 'hoop earrings'],
    value: (_, neg) => (neg ? 'none' : 'earrings'),
    negatable: true,
  },
  { key: 'accessory', phrases: ['necklace', 'chain', 'pendant', 'choker', 'pearls'], value: (_, neg) => (neg ? 'none' : 'necklace'), negatable: true },
  { key: 'accessory', phrases: ['accessory', 'accessories', 'jewelry', 'jewellery'], value: (_, neg) => (neg ? 'none' : null), negatable: true },
  {
    key: 'facial_hair',
    phrases: ['clean shaven', 'cleanshaven', 'shaved', 'beardless', 'shaved face'],
    value: (_, neg) => (neg ? null : 'none'),
    negatable: true,
  },
  {
    key: 'facial_hair',
    phrases: ['full beard', 'big beard', 'long beard', 'thick beard', 'bushy beard', 'beard', 'bearded'],
    value: (_, neg) => (neg ? 'none' : 'full_beard'),
    negatable: true,
  },
  {
    key: 'facial_hair',
    phrases: ['short beard', 'trimmed beard', 'light beard', 'small beard', 'neat beard'],
    value: (_, neg) => (neg ? 'none' : 'short_beard'),
    negatable: true,
  },
  {
    key: 'facial_hair',
    phrases: ['stubble', 'stubbly', 'unshaven', 'scruff', 'scruffy', 'five oclock shadow', '5 oclock shadow'],
    value: (_, neg) => (neg ? 'none' : 'stubble'),
    negatable: true,
  },
  {
    key: 'facial_hair',
    phrases: ['mustache', 'moustache', 'tache', 'mustached', 'moustached', 'handlebar mustache'],
    value: (_, neg) => (neg ? 'none' : 'mustache'),
    negatable: true,
  },
  { key: 'facial_hair', phrases: ['goatee'], value: (_, neg) => (neg ? 'none' : 'goatee'), negatable: true },
  { key: 'facial_hair', phrases: ['soul patch'], value: (_, neg) => (neg ? 'none' : 'soul_patch'), negatable: true },
  { key: 'facial_hair', phrases: ['facial hair'], value: (_, neg) => (neg ? 'none' : 'short_beard'), negatable: true },
  { key: 'mark', phrases: ['freckles', 'freckled', 'freckly', 'freckle'], value: (_, neg) => (neg ? 'none' : 'freckles'), negatable: true },
  { key: 'mark', phrases: ['mole', 'beauty mark', 'beauty spot'], value: (_, neg) => (neg ? 'none' : 'mole'), negatable: true },
  { key: 'mark', phrases: ['scar', 'scarred', 'a scar'], value: (_, neg) => (neg ? 'none' : 'scar'), negatable: true },
  { key: 'mark', phrases: ['blush', 'blushing', 'rosy cheeks', 'rosy', 'flushed'], value: (_, neg) => (neg ? 'none' : 'blush'), negatable: true },
  { key: 'mark', phrases: ['marks', 'blemishes', 'makeup', 'make up'], value: (_, neg) => (neg ? 'none' : null), negatable: true },
  // Origin.
  { key: 'origin', phrases: ['african', 'from africa', 'nigerian', 'kenyan', 'ghanaian', 'ethiopian'], value: 'africa' },
  { key: 'origin', phrases: ['east asian', 'asian', 'chinese', 'japanese', 'korean', 'vietnamese', 'from east asia'], value: 'east_asia' },
  { key: 'origin', phrases: ['south asian', 'indian', 'pakistani', 'bangladeshi', 'sri lankan', 'nepali', 'from south asia'], value: 'south_asia' },
  { key: 'origin', phrases: ['middle eastern', 'arab', 'arabic', 'persian', 'iranian', 'turkish', 'lebanese', 'from the middle east'], value: 'middle_east' },
  { key: 'origin', phrases: ['european', 'caucasian', 'from europe', 'scandinavian', 'mediterranean'], value: 'europe' },
  {
    key: 'origin',
    phrases: ['latin', 'latina', 'latino', 'latinx', 'hispanic', 'mexican', 'brazilian', 'colombian', 'from latin america'],
    value: 'latin_america',
  },
  { key: 'origin', phrases: ['pacific islander', 'polynesian', 'maori', 'samoan', 'tongan', 'oceanian', 'from oceania', 'aboriginal'], value: 'oceania' },
];

interface Phrase {
  key: TraitKey;
  words: string[];
  rule: Rule;
}

const PHRASES: Phrase[] = RULES.flatMap((rule) => rule.phrases.map((p) => ({ key: rule.key, words: p.split(' '), rule })));
// Longest first, so "dark brown hair" wins over "brown hair" and "south asian" over "asian".
PHRASES.sort((a, b) => b.words.length - a.words.length || b.words.join(' ').length - a.words.join(' ').length);

/** The words of the option labels and ids themselves ("Short combover", "buzz cut"), read as before. */
function labelPhrases(only: readonly TraitKey[]): Phrase[] {
  const out: Phrase[] = [];
  // A one-word label of several traits ("brown" eyes or hair) names none of them alone.
  const traitsOf = new Map<string, Set<TraitKey>>();
  for (const key of TRAIT_KEYS)
    for (const o of TRAITS[key].options) for (const n of [o.label.toLowerCase(), o.id]) traitsOf.set(n, (traitsOf.get(n) ?? new Set()).add(key));
  for (const key of only) {
    for (const o of TRAITS[key].options) {
      for (const n of new Set([o.label.toLowerCase().replace(/\(.*\)/, ''), o.id.replace(/_/g, ' ')])) {
        const name = n.replace(/[^a-z0-9]+/g, ' ').trim();
        if (name && name !== 'none' && (name.includes(' ') || (traitsOf.get(name)?.size ?? 1) === 1))
          out.push({ key, words: name.split(' '), rule: { key, phrases: [name], value: o.id } });
      }
    }
  }
  return out;
}

function matchAt(words: readonly string[], at: number, phrase: readonly string[]): boolean {
  if (at + phrase.length > words.length) return false;
  for (let i = 0; i < phrase.length; i++) if (words[at + i] !== phrase[i]) return false;
  return true;
}

/**
 * Reads a note against the current chips (pure). `only`: the traits the engine can change (others
 * are neither named nor changed).
 */
export function readNote(chips: Chips, note: string, only?: readonly TraitKey[]): NoteReading {
  const allowed = new Set(only ?? TRAIT_KEYS);
  const out: Chips = { ...chips };
  const named = new Set<TraitKey>();
  const phrases = [...PHRASES, ...labelPhrases([...allowed])].filter((p) => allowed.has(p.key));
  phrases.sort((a, b) => b.words.length - a.words.length || b.words.join(' ').length - a.words.join(' ').length);
  for (const clause of noteClauses(normaliseNote(note))) {
    const used = new Array<boolean>(clause.length).fill(false);
    const set = new Set<TraitKey>();
    for (const p of phrases) {
      for (let at = 0; at < clause.length; at++) {
        if (!matchAt(clause, at, p.words) || used.slice(at, at + p.words.length).some(Boolean)) continue;
        // A trait already set in this clause by a longer phrase keeps that reading.
        if (set.has(p.key)) {
          for (let i = 0; i < p.words.length; i++) used[at + i] = true;
          continue;
        }
        const negated = clause.slice(Math.max(0, at - 4), at).some((w) => NEGATORS.has(w));
        if (negated && !p.rule.negatable) continue;
        const value = typeof p.rule.value === 'function' ? p.rule.value(out[p.key], negated, p.words.join(' ')) : p.rule.value;
        for (let i = 0; i < p.words.length; i++) used[at + i] = true;
        if (value === null || !TRAITS[p.key].options.some((o) => o.id === value)) continue;
        out[p.key] = value;
        named.add(p.key);
        set.add(p.key);
      }
    }
  }
  const changed = TRAIT_KEYS.filter((k) => out[k] !== chips[k]);
  return { chips: out, changed, named: TRAIT_KEYS.filter((k) => named.has(k)) };
}

/** The examples of NOTE_EXAMPLES an engine that changes only `only` reads (all without `only`). */
export function noteExamples(only?: readonly TraitKey[]): string[] {
  return NOTE_EXAMPLES.filter((e) => readNote(defaultChips(), e, only).named.length > 0);
}
