import { validationError } from '../errors.js';

/**
 * The persona traits (spec: "Persona and persona video", GET /personas/catalog): the 14 trait keys,
 * their options and defaults, the source-video limits per quality and the validation of chips (pure).
 */

export const TRAIT_KEYS = [
  'vibe',
  'gender',
  'age',
  'origin',
  'skin',
  'eyes',
  'hair_style',
  'hair_color',
  'facial_hair',
  'face',
  'body',
  'outfit',
  'accessory',
  'mark',
] as const;

export type TraitKey = (typeof TRAIT_KEYS)[number];
/** One option id per trait key (all 14 once defaults are applied). */
export type Chips = Record<TraitKey, string>;

export interface TraitOption {
  id: string;
  label: string;
}

export interface Trait {
  options: TraitOption[];
  default: string;
}

const opts = (pairs: Array<[string, string]>): TraitOption[] => pairs.map(([id, label]) => ({ id, label }));

/** Every trait with its options (ids are stable; labels are for people). The first default is the catalog's. */
export const TRAITS: Record<TraitKey, Trait> = {
  vibe: {
    default: 'friendly',
    options: opts([
      ['friendly', 'Friendly'],
      ['calm', 'Calm'],
      ['serious', 'Serious'],
      ['playful', 'Playful'],
      ['surprised', 'Surprised'],
    ]),
  },
  gender: {
    default: 'female',
    options: opts([
      ['female', 'Female'],
      ['male', 'Male'],
      ['androgynous', 'Androgynous'],
    ]),
  },
  age: {
    default: 'adult',
    options: opts([
      ['young_adult', 'Young adult (18-25)'],
      ['adult', 'Adult (26-40)'],
      ['middle_aged', 'Middle-aged (41-60)'],
      ['senior', 'Senior (60+)'],
    ]),
  },
  origin: {
    default: 'europe',
    options: opts([
      ['africa', 'Africa'],
      ['east_asia', 'East Asia'],
      ['south_asia', 'South Asia'],
      ['middle_east', 'Middle East'],
      ['europe', 'Europe'],
      ['latin_america', 'Latin America'],
      ['oceania', 'Oceania'],
    ]),
  },
  skin: {
    default: 'medium_light',
    options: opts([
      ['very_light', 'Very light'],
      ['light', 'Light'],
      ['medium_light', 'Medium light'],
      ['medium', 'Medium'],
      ['medium_dark', 'Medium dark'],
      ['dark', 'Dark'],
      ['very_dark', 'Very dark'],
    ]),
  },
  eyes: {
    default: 'brown',
    options: opts([
      ['brown', 'Brown'],
      ['hazel', 'Hazel'],
      ['green', 'Green'],
      ['blue', 'Blue'],
      ['grey', 'Grey'],
    ]),
  },
  hair_style: {
    default: 'long',
    options: opts([
      ['long', 'Long'],
      ['extra_long', 'Extra long'],
      ['bob', 'Bob cut'],
      ['bob_bangs', 'Bob with bangs'],
      ['curly', 'Curly'],
      ['curly_high_top', 'Curly high top'],
      ['bun', 'Bun'],
      ['curly_bun', 'Curly bun'],
      ['pigtails', 'Pigtails'],
      ['side_shave', 'Side shave'],
      ['combover', 'Short combover'],
      ['fade', 'Fade'],
      ['buzzcut', 'Buzz cut'],
      ['mohawk', 'Mohawk'],
      ['balding', 'Balding'],
      ['bald', 'Bald'],
    ]),
  },
  hair_color: {
    default: 'dark_brown',
    options: opts([
      ['black', 'Black'],
      ['dark_brown', 'Dark brown'],
      ['brown', 'Brown'],
      ['auburn', 'Auburn'],
      ['red', 'Red'],
      ['blonde', 'Blonde'],
      ['grey', 'Grey'],
      ['white', 'White'],
      ['pink', 'Pink'],
    ]),
  },
  facial_hair: {
    default: 'none',
    options: opts([
      ['none', 'None'],
      ['stubble', 'Stubble'],
      ['goatee', 'Goatee'],
      ['soul_patch', 'Soul patch'],
      ['mustache', 'Mustache'],
      ['short_beard', 'Short beard'],
      ['full_beard', 'Full beard'],
    ]),
  },
  face: {
    default: 'oval',
    options: opts([
      ['narrow', 'Narrow'],
      ['oval', 'Oval'],
      ['round', 'Round'],
    ]),
  },
  body: {
    default: 'average',
    options: opts([
      ['slim', 'Slim'],
      ['average', 'Average'],
      ['broad', 'Broad'],
    ]),
  },
  outfit: {
    default: 'blue_top',
    options: opts([
      ['blue_top', 'Blue top'],
      ['teal_top', 'Teal top'],
      ['purple_top', 'Purple top'],
      ['green_top', 'Green top'],
      ['red_top', 'Red top'],
      ['yellow_top', 'Yellow top'],
      ['pink_top', 'Pink top'],
    ]),
  },
  accessory: {
    default: 'none',
    options: opts([
      ['none', 'None'],
      ['glasses', 'Glasses'],
      ['sunglasses', 'Sunglasses'],
      ['earrings', 'Earrings'],
      ['necklace', 'Necklace'],
    ]),
  },
  mark: {
    default: 'none',
    options: opts([
      ['none', 'None'],
      ['freckles', 'Freckles'],
      ['mole', 'Beauty mark'],
      ['scar', 'Scar'],
      ['blush', 'Blush'],
    ]),
  },
};

export const QUALITIES = ['standard', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];
export const REPLACE_MODES = ['person', 'head'] as const;
export type ReplaceMode = (typeof REPLACE_MODES)[number];

/** Spec, Limits: standard up to 15 s, high up to 30 s; MP4 output. Accepted source containers (uploads: .mp4 .mov .webm .mkv). */
export const SOURCE_LIMITS: Record<Quality, { max_seconds: number; formats: string[] }> = {
  standard: { max_seconds: 15, formats: ['mp4', 'mov', 'webm', 'mkv'] },
  high: { max_seconds: 30, formats: ['mp4', 'mov', 'webm', 'mkv'] },
};

/** Longest `note` of a regeneration (one line). */
export const NOTE_MAX_CHARS = 200;

/** Trait defaults (pure). */
export function defaultChips(): Chips {
  return Object.fromEntries(TRAIT_KEYS.map((k) => [k, TRAITS[k].default])) as Chips;
}

/**
 * The chips of a request with the catalog defaults for missing traits, or 400 VALIDATION_ERROR naming
 * each unknown trait key (`chips.<key>`, rule `unknown_trait`) and unknown option id (rule `unknown_option`).
 * `base`: the values missing traits take (the persona's current chips on regenerate; defaults otherwise).
 */
export function resolveChips(input: Record<string, unknown> | undefined, base: Chips = defaultChips()): Chips {
  const errors: Array<{ field: string; rule: string }> = [];
  const out: Chips = { ...base };
  for (const [key, value] of Object.entries(input ?? {})) {
    const trait = (TRAITS as Record<string, Trait | undefined>)[key];
    if (!trait || !Object.hasOwn(TRAITS, key)) {
      errors.push({ field: `chips.${key}`, rule: 'unknown_trait' });
      continue;
    }
    if (typeof value !== 'string' || !trait.options.some((o) => o.id === value)) {
      errors.push({ field: `chips.${key}`, rule: 'unknown_option' });
      continue;
    }
    out[key as TraitKey] = value;
  }
  if (errors.length) throw validationError(errors);
  return out;
}

/** Whether stored chips are a complete, valid set (for rows written by older catalogs). */
export function isCompleteChips(chips: Record<string, unknown>): chips is Chips {
  return TRAIT_KEYS.every((k) => typeof chips[k] === 'string' && TRAITS[k].options.some((o) => o.id === chips[k]));
}

/** A one-line note: trimmed, no control characters, 1..200 characters; else 400 VALIDATION_ERROR on `note`. */
export function checkNote(note: string): string {
  const n = note.trim();
  if (n.length === 0 || n.length > NOTE_MAX_CHARS || /[\u0000-\u001f\u007f\u2028\u2029]/.test(n))
    throw validationError([{ field: 'note', rule: 'one_line_1_to_200_chars' }]);
  return n;
}
