import { defaultChips, type Chips } from './persona-catalog.js';

/** The built-in ready-made characters (GET /personas/presets): ids are stable, chips complete (pure). */
export interface Preset {
  id: string;
  name: string;
  chips: Chips;
}

const preset = (id: string, name: string, chips: Partial<Chips>): Preset => ({ id, name, chips: { ...defaultChips(), ...chips } });

export const PRESETS: readonly Preset[] = [
  preset('preset_ava', 'Ava, the host', {
    vibe: 'friendly',
    gender: 'female',
    age: 'adult',
    origin: 'europe',
    skin: 'light',
    eyes: 'green',
    hair_style: 'long',
    hair_color: 'auburn',
    outfit: 'teal_top',
    accessory: 'earrings',
  }),
  preset('preset_kofi', 'Kofi, the coach', {
    vibe: 'playful',
    gender: 'male',
    age: 'young_adult',
    origin: 'africa',
    skin: 'dark',
    eyes: 'brown',
    hair_style: 'fade',
    hair_color: 'black',
    facial_hair: 'short_beard',
    body: 'broad',
    outfit: 'red_top',
  }),
  preset('preset_mei', 'Mei, the analyst', {
    vibe: 'serious',
    gender: 'female',
    age: 'adult',
    origin: 'east_asia',
    skin: 'medium_light',
    eyes: 'brown',
    hair_style: 'bob_bangs',
    hair_color: 'black',
    outfit: 'purple_top',
    accessory: 'glasses',
  }),
  preset('preset_raj', 'Raj, the storyteller', {
    vibe: 'calm',
    gender: 'male',
    age: 'middle_aged',
    origin: 'south_asia',
    skin: 'medium_dark',
    eyes: 'brown',
    hair_style: 'combover',
    hair_color: 'grey',
    facial_hair: 'mustache',
    outfit: 'green_top',
  }),
  preset('preset_lucia', 'Lucía, the reporter', {
    vibe: 'surprised',
    gender: 'female',
    age: 'young_adult',
    origin: 'latin_america',
    skin: 'medium',
    eyes: 'hazel',
    hair_style: 'curly',
    hair_color: 'dark_brown',
    outfit: 'yellow_top',
    mark: 'mole',
  }),
  preset('preset_walt', 'Walt, the mentor', {
    vibe: 'friendly',
    gender: 'male',
    age: 'senior',
    origin: 'europe',
    skin: 'very_light',
    eyes: 'blue',
    hair_style: 'balding',
    hair_color: 'white',
    facial_hair: 'full_beard',
    outfit: 'blue_top',
    accessory: 'glasses',
  }),
  preset('preset_sam', 'Sam, the creator', {
    vibe: 'playful',
    gender: 'androgynous',
    age: 'young_adult',
    origin: 'oceania',
    skin: 'medium',
    eyes: 'grey',
    hair_style: 'side_shave',
    hair_color: 'pink',
    outfit: 'green_top',
    mark: 'freckles',
  }),
  preset('preset_layla', 'Layla, the founder', {
    vibe: 'calm',
    gender: 'female',
    age: 'middle_aged',
    origin: 'middle_east',
    skin: 'medium_light',
    eyes: 'brown',
    hair_style: 'bun',
    hair_color: 'dark_brown',
    outfit: 'pink_top',
    accessory: 'necklace',
  }),
];

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
