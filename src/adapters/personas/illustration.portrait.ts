import { createAvatar } from '@dicebear/core';
import * as personasStyle from '@dicebear/personas';
import type { PortraitEngine, PortraitRequest, PortraitResult } from '../../ports/persona-engines.js';
import type { Cutout } from './face-warp.js';

/**
 * The embedded portrait from chips: an illustrated bust drawn from every trait (an `illustration`,
 * never passed off as a photo). The drawing is DiceBear's "Personas" style (code MIT; artwork
 * "Personas" by Draftbit, CC BY 4.0: credited in docs/personas.md); traits the style has no part for
 * (gender, age, eye colour, face shape, some accessories and marks) are drawn here as SVG over it.
 * The SVG is rasterised offline by sharp (librsvg) to a PNG of SIZE × SIZE.
 */

export const ILLUSTRATION_SIZE = 768;

/** The style's canvas (its viewBox) and where its face sits on it. */
const VB = 64;
/**
 * Face geometry on the style's 64-unit canvas, measured on its drawings: centre of the face, face
 * width, eye centres, cheek and ear points, the neck line (below it is the body).
 */
export const FACE = {
  cx: 32,
  cy: 31,
  width: 28,
  eyeY: 28.5,
  eyeL: 25.5,
  eyeR: 38.5,
  cheekY: 35,
  earY: 33,
  earL: 16,
  earR: 48,
  mouthY: 40.5,
  neckY: 48,
  headTop: 4,
};

const SKIN: Record<string, string> = {
  very_light: 'eeb4a4',
  light: 'e7a391',
  medium_light: 'e5a07e',
  medium: 'd78774',
  medium_dark: 'b16a5b',
  dark: '92594b',
  very_dark: '623d36',
};

const HAIR_COLOR: Record<string, string> = {
  black: '231f20',
  dark_brown: '4a3123',
  brown: '6c4545',
  auburn: '8d3b2b',
  red: 'e15c66',
  blonde: 'f2c265',
  grey: 'a7a9b4',
  white: 'eef0f5',
  pink: 'e16381',
};

const HAIR: Record<string, string> = {
  long: 'long',
  extra_long: 'extraLong',
  bob: 'bobCut',
  bob_bangs: 'bobBangs',
  curly: 'curly',
  curly_high_top: 'curlyHighTop',
  bun: 'straightBun',
  curly_bun: 'curlyBun',
  pigtails: 'pigtails',
  side_shave: 'sideShave',
  combover: 'shortCombover',
  fade: 'fade',
  buzzcut: 'buzzcut',
  mohawk: 'mohawk',
  balding: 'balding',
  bald: 'bald',
};

const FACIAL_HAIR: Record<string, string | null> = {
  none: null,
  stubble: 'shadow',
  goatee: 'goatee',
  soul_patch: 'soulPatch',
  mustache: 'walrus',
  short_beard: 'pyramid',
  full_beard: 'beardMustache',
};

const MOUTH: Record<string, string> = { friendly: 'bigSmile', calm: 'smile', serious: 'lips', playful: 'smirk', surprised: 'surprise' };

const BODY: Record<string, string> = { slim: 'small', average: 'rounded', broad: 'squared' };

const OUTFIT: Record<string, string> = {
  blue_top: '456dff',
  teal_top: '54d7c7',
  purple_top: '7555ca',
  green_top: '6dbb58',
  red_top: 'e24553',
  yellow_top: 'f3b63a',
  pink_top: 'f55d81',
};

/** Background by origin: a colour per region (the drawing has no other way to say it). */
const BACKGROUND: Record<string, string> = {
  africa: 'f6d4a2',
  east_asia: 'f5c6cb',
  south_asia: 'ffd8a8',
  middle_east: 'e9d8a6',
  europe: 'b6e3f4',
  latin_america: 'c0f0c6',
  oceania: 'a8e6e2',
};

const IRIS: Record<string, string> = { brown: '6b3e26', hazel: '8e7a3a', green: '3f8f4f', blue: '3b7dd8', grey: '8a949e' };

/** Face width factor by face shape (the head is drawn narrower or rounder). */
const FACE_SCALE: Record<string, number> = { narrow: 0.9, oval: 1, round: 1.1 };

/** DiceBear options for the chips (pure). */
export function dicebearOptions(chips: Record<string, string>, seed: string): Record<string, unknown> {
  // Open eyes (or glasses) so the eye colour shows; the vibe is the mouth (and a wink when playful).
  const eyes = chips.accessory === 'glasses' ? 'glasses' : chips.accessory === 'sunglasses' ? 'sunglasses' : chips.vibe === 'playful' ? 'wink' : 'open';
  const nose = chips.age === 'senior' || chips.age === 'middle_aged' ? 'wrinkles' : chips.age === 'young_adult' ? 'smallRound' : 'mediumRound';
  const facial = FACIAL_HAIR[chips.facial_hair] ?? null;
  return {
    seed,
    hair: [HAIR[chips.hair_style] ?? 'long'],
    hairColor: [HAIR_COLOR[chips.hair_color] ?? '362c47'],
    skinColor: [SKIN[chips.skin] ?? 'e5a07e'],
    eyes: [eyes],
    mouth: [MOUTH[chips.vibe] ?? 'smile'],
    nose: [nose],
    body: [BODY[chips.body] ?? 'rounded'],
    clothingColor: [OUTFIT[chips.outfit] ?? '456dff'],
    facialHair: facial ? [facial] : ['shadow'],
    facialHairProbability: facial ? 100 : 0,
    backgroundColor: [BACKGROUND[chips.origin] ?? 'b6e3f4'],
  };
}

/** The SVG drawn over the style for the traits it has no part for, on the 64-unit canvas (pure). */
export function overlaySvg(chips: Record<string, string>): string {
  const f = FACE;
  const parts: string[] = [];
  const eyesVisible = chips.accessory !== 'sunglasses';
  // Eye colour: an iris ring around each pupil (hidden by sunglasses and by the closed "happy" eyes).
  if (eyesVisible) {
    const c = IRIS[chips.eyes] ?? IRIS.brown;
    // The winking eye (playful) is closed; the side-shave fringe covers the left eye.
    const winking = chips.vibe === 'playful' && chips.accessory !== 'glasses';
    const xs = [...(chips.hair_style === 'side_shave' ? [] : [f.eyeL]), ...(winking ? [] : [f.eyeR])];
    for (const x of xs) parts.push(`<circle cx="${x}" cy="${f.eyeY}" r="2.05" fill="none" stroke="#${c}" stroke-width="0.8"/>`);
  }
  // Gender: lashes (female), heavier brows (male), neither (androgynous).
  if (chips.gender === 'female') {
    for (const x of [f.eyeL, f.eyeR])
      parts.push(
        `<path d="M${x - 1.6} ${f.eyeY - 1.4} l-0.8 -0.9 M${x + 1.6} ${f.eyeY - 1.4} l0.8 -0.9" stroke="#231f20" stroke-width="0.45" stroke-linecap="round"/>`,
      );
  } else if (chips.gender === 'male') {
    for (const x of [f.eyeL, f.eyeR])
      parts.push(`<path d="M${x - 2} ${f.eyeY - 2.8} h4" stroke="#231f20" stroke-opacity="0.8" stroke-width="0.9" stroke-linecap="round"/>`);
  }
  // Age: forehead lines from middle age, crow's feet for seniors.
  if (chips.age === 'middle_aged' || chips.age === 'senior') {
    parts.push(`<path d="M${f.cx - 4} ${f.eyeY - 6} q4 -1 8 0" fill="none" stroke="#000" stroke-opacity="0.25" stroke-width="0.4"/>`);
  }
  if (chips.age === 'senior') {
    parts.push(`<path d="M${f.cx - 4.5} ${f.eyeY - 7.4} q4.5 -1 9 0" fill="none" stroke="#000" stroke-opacity="0.25" stroke-width="0.4"/>`);
    for (const [x, d] of [
      [f.eyeL - 2.6, -1],
      [f.eyeR + 2.6, 1],
    ]) {
      parts.push(
        `<path d="M${x} ${f.eyeY - 0.6} l${d * 1.2} -0.5 M${x} ${f.eyeY + 0.6} l${d * 1.2} 0.5" stroke="#000" stroke-opacity="0.3" stroke-width="0.35"/>`,
      );
    }
  }
  // Accessories the style lacks.
  if (chips.accessory === 'earrings') {
    for (const x of [f.earL, f.earR]) parts.push(`<circle cx="${x}" cy="${f.earY + 2.2}" r="1" fill="#f3c33a" stroke="#b8860b" stroke-width="0.25"/>`);
  }
  if (chips.accessory === 'necklace') {
    parts.push(
      `<path d="M${f.cx - 5} ${f.neckY + 1} q5 5 10 0" fill="none" stroke="#f3c33a" stroke-width="0.7"/><circle cx="${f.cx}" cy="${f.neckY + 3.6}" r="0.9" fill="#e24553"/>`,
    );
  }
  // Marks.
  if (chips.mark === 'freckles') {
    for (const [dx, dy] of [
      [-5.2, 0],
      [-4, 0.9],
      [-6, 1.1],
      [5.2, 0],
      [4, 0.9],
      [6, 1.1],
    ]) {
      parts.push(`<circle cx="${f.cx + dx}" cy="${f.cheekY + dy}" r="0.32" fill="#8d5524" fill-opacity="0.75"/>`);
    }
  } else if (chips.mark === 'mole') {
    parts.push(`<circle cx="${f.cx + 4.2}" cy="${f.mouthY - 0.8}" r="0.45" fill="#3b2219"/>`);
  } else if (chips.mark === 'scar') {
    parts.push(`<path d="M${f.eyeR + 1.8} ${f.eyeY - 2.5} l-1.4 4.2" stroke="#9c4a3c" stroke-width="0.45" stroke-linecap="round"/>`);
  } else if (chips.mark === 'blush') {
    for (const x of [f.cx - 5.4, f.cx + 5.4]) parts.push(`<ellipse cx="${x}" cy="${f.cheekY + 0.8}" rx="1.8" ry="0.9" fill="#ff6b81" fill-opacity="0.45"/>`);
  }
  return parts.join('');
}

/** The whole drawing as SVG: the style's bust (its head narrowed or widened by the face shape) with the overlay (pure). */
export function portraitSvg(chips: Record<string, string>, seed: string): string {
  const svg = createAvatar(personasStyle as never, dicebearOptions(chips, seed) as never).toString();
  const sx = FACE_SCALE[chips.face] ?? 1;
  const inner = svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const bg = BACKGROUND[chips.origin] ?? 'b6e3f4';
  // Scale the drawing horizontally about the face centre, on a background that fills what the scale uncovers.
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${VB} ${VB}" width="${ILLUSTRATION_SIZE}" height="${ILLUSTRATION_SIZE}">` +
    `<rect width="${VB}" height="${VB}" fill="#${bg}"/>` +
    `<g transform="translate(${FACE.cx} 0) scale(${sx} 1) translate(${-FACE.cx} 0)"><svg viewBox="0 0 ${VB} ${VB}" width="${VB}" height="${VB}">${inner}</svg>` +
    `<g>${overlaySvg(chips)}</g></g></svg>`
  );
}

export class IllustrationPortraitEngine implements PortraitEngine {
  readonly name = 'embedded-illustration';
  readonly kind = 'illustration' as const;
  readonly readsNotes = false;

  /** `rasterise`: SVG → PNG of ILLUSTRATION_SIZE² (svg-raster.ts: sharp's librsvg, offline). */
  constructor(private readonly rasterise: (svg: string, size: number) => Promise<Uint8Array>) {}

  async render(req: PortraitRequest): Promise<PortraitResult> {
    const png = await this.rasterise(portraitSvg(req.chips, req.seed), ILLUSTRATION_SIZE);
    return { png, width: ILLUSTRATION_SIZE, height: ILLUSTRATION_SIZE, kind: 'illustration' };
  }
}

/**
 * The head of an illustration portrait (RGBA of any size, drawn by this engine) as a cut-out for the
 * head swap: the background colour keyed out, the body below the neck cut away, anchored on the face
 * centre with the face width as its unit (pure).
 */
export function illustrationCutout(img: { width: number; height: number; data: Uint8Array }): Cutout {
  const { width, data } = img;
  const unit = width / VB;
  const bg = [data[0], data[1], data[2]];
  const neck = Math.round(FACE.neckY * unit);
  const top = Math.max(0, Math.round((FACE.headTop - 2) * unit));
  const h = Math.max(1, neck - top);
  const out = new Uint8Array(width * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < width; x++) {
      const i = ((y + top) * width + x) * 4;
      const o = (y * width + x) * 4;
      const d = Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]);
      // Keyed: 0 on the background colour, opaque 30 levels away; a soft fade over the last rows to the neck.
      const key = Math.min(1, Math.max(0, (d - 12) / 30));
      const fade = Math.min(1, (h - y) / (unit * 1.5));
      out[o] = data[i];
      out[o + 1] = data[i + 1];
      out[o + 2] = data[i + 2];
      out[o + 3] = Math.round(255 * key * fade * (data[i + 3] / 255));
    }
  }
  // The drawn head a little wider than the tracked face (cheek to cheek), so it also covers the hair line.
  return { width, height: h, data: out, anchor: [FACE.cx * unit, (FACE.cy - FACE.headTop + 2) * unit], unit: (FACE.width * unit) / 1.2 };
}
