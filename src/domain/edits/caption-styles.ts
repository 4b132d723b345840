/**
 * Caption and title styles (pure data + validation) and the built-in caption templates: a template is
 * a caption style plus layout defaults; applying one to a clip makes a new edit (edit.ts). The stored
 * templates (records, service) are src/domain/templates/. Sizes are given for a 1080-pixel short side and
 * scaled to the output (a 720p render draws everything at 2/3 of these numbers).
 */

/** Font families shipped with the project (src/adapters/media/fonts.ts maps each to an OFL .ttf from npm). */
export const CAPTION_FONT_FAMILIES = ['Anton', 'Montserrat ExtraBold', 'Inter SemiBold', 'Inter ExtraBold'] as const;
export type CaptionFontFamily = (typeof CAPTION_FONT_FAMILIES)[number];

export type CaptionPosition = 'bottom' | 'middle' | 'top';
/** `word`: only the spoken word takes the highlight colour. `fill`: every word up to the spoken one (karaoke). */
export type HighlightMode = 'word' | 'fill';

export interface CaptionBox {
  /** Box colour `#RRGGBB`. */
  color: string;
  /** 0 (invisible) to 1 (opaque). */
  opacity: number;
}

export interface CaptionStyle {
  /** One of CAPTION_FONT_FAMILIES (the family name inside the .ttf, which libass matches). */
  fontFamily: string;
  /** Font size in pixels at 1080p (ASS `Fontsize`, roughly the line height). 16..240. */
  fontSize: number;
  /** Text colour `#RRGGBB`. */
  primaryColor: string;
  /** Colour of the spoken word (or words, with `fill`) `#RRGGBB`. */
  highlightColor: string;
  highlightMode: HighlightMode;
  /** Size of the spoken word in percent (100 = no pop). 100..160. */
  popScale: number;
  /** Outline colour `#RRGGBB`. */
  outlineColor: string;
  /** Outline width in pixels at 1080p; 0..20. With a box it is the box padding. */
  outlineWidth: number;
  /** Drop shadow distance in pixels at 1080p; 0..20 (drawn in black at 50 %). */
  shadow: number;
  /** An opaque box behind each line instead of an outline; null for none. */
  box: CaptionBox | null;
  position: CaptionPosition;
  /** Distance from the frame edge (bottom or top) in percent of the output height; 0..45. Ignored for `middle`. */
  margin: number;
  /** Words on one line, 1..12. */
  wordsPerLine: number;
  /** Lines shown at once (a page), 1..4. */
  maxLines: number;
  uppercase: boolean;
}

export interface TitleStyle {
  fontFamily: string;
  fontSize: number;
  color: string;
  outlineColor: string;
  outlineWidth: number;
  box: CaptionBox | null;
  position: CaptionPosition;
  margin: number;
  uppercase: boolean;
  /** Seconds from the clip start the title stays; null for the whole clip. */
  seconds: number | null;
}

export type Aspect = '9:16' | '1:1' | '16:9';
/**
 * How the source is framed: `auto` chooses per shot (speaker, split, screen or center), `speaker` follows the main face, `split` stacks two faces (one per half),
 * `screen` shows a screen or slide at the output's width with the speaker's face below it, `center`
 * crops the middle, `fit` shows the whole source on a blurred fill.
 */
export type ReframeMode = 'auto' | 'speaker' | 'split' | 'screen' | 'center' | 'fit';
export type Resolution = '720p' | '1080p';
/** A template's punch-in: `subtle` adds short eased zooms on emphasised words (src/domain/reframe/punch-in.ts), `none` adds none. */
export type TemplateZoom = 'none' | 'subtle';
export const TEMPLATE_ZOOMS: readonly TemplateZoom[] = ['none', 'subtle'];
/** What `auto` gives a shot of two faces talking in turns: the active `speaker` or `split`. */
export type TwoFaces = 'speaker' | 'split';
export const TWO_FACES: readonly TwoFaces[] = ['speaker', 'split'];

export interface CaptionTemplate {
  id: string;
  name: string;
  description: string;
  captions: CaptionStyle;
  title: TitleStyle;
  layout: { aspect: Aspect; reframe: ReframeMode; resolution: Resolution; zoom: TemplateZoom; twoFaces: TwoFaces };
}

const DEFAULT_TITLE: TitleStyle = {
  fontFamily: 'Montserrat ExtraBold',
  fontSize: 60,
  color: '#111111',
  outlineColor: '#FFFFFF',
  outlineWidth: 14,
  box: { color: '#FFFFFF', opacity: 1 },
  position: 'top',
  margin: 12,
  uppercase: false,
  seconds: 3,
};

export const BUILTIN_TEMPLATES: readonly CaptionTemplate[] = deepFreeze([
  {
    id: 'bold-pop',
    name: 'Bold Pop',
    description: 'Big condensed capitals with a thick outline; the spoken word turns yellow and pops.',
    captions: {
      fontFamily: 'Anton',
      fontSize: 120,
      primaryColor: '#FFFFFF',
      highlightColor: '#FFE600',
      highlightMode: 'word',
      popScale: 112,
      outlineColor: '#000000',
      outlineWidth: 7,
      shadow: 3,
      box: null,
      position: 'bottom',
      margin: 24,
      wordsPerLine: 3,
      maxLines: 2,
      uppercase: true,
    },
    title: { ...DEFAULT_TITLE, fontFamily: 'Anton', uppercase: true, box: null, color: '#FFFFFF', outlineColor: '#000000', outlineWidth: 6, fontSize: 84 },
    layout: { aspect: '9:16', reframe: 'auto', resolution: '1080p', zoom: 'none', twoFaces: 'speaker' },
  },
  {
    id: 'clean',
    name: 'Clean',
    description: 'White sentence-case text with a subtle outline; the spoken word turns sky blue.',
    captions: {
      fontFamily: 'Inter SemiBold',
      fontSize: 68,
      primaryColor: '#FFFFFF',
      highlightColor: '#6FC8FF',
      highlightMode: 'word',
      popScale: 100,
      outlineColor: '#000000',
      outlineWidth: 3,
      shadow: 2,
      box: null,
      position: 'bottom',
      margin: 18,
      wordsPerLine: 5,
      maxLines: 2,
      uppercase: false,
    },
    title: { ...DEFAULT_TITLE, fontFamily: 'Inter ExtraBold' },
    layout: { aspect: '9:16', reframe: 'auto', resolution: '1080p', zoom: 'none', twoFaces: 'speaker' },
  },
  {
    id: 'karaoke',
    name: 'Karaoke',
    description: 'Words fill with green as they are spoken, on a solid dark box under the video, which is shown whole over a blurred copy of itself.',
    captions: {
      fontFamily: 'Montserrat ExtraBold',
      fontSize: 76,
      primaryColor: '#FFFFFF',
      highlightColor: '#39FF88',
      highlightMode: 'fill',
      popScale: 100,
      outlineColor: '#000000',
      outlineWidth: 14,
      shadow: 0,
      box: { color: '#141414', opacity: 1 },
      position: 'bottom',
      margin: 20,
      wordsPerLine: 4,
      maxLines: 2,
      uppercase: false,
    },
    title: { ...DEFAULT_TITLE },
    layout: { aspect: '9:16', reframe: 'fit', resolution: '1080p', zoom: 'none', twoFaces: 'speaker' },
  },
]);

export function getBuiltinTemplate(id: string): CaptionTemplate | undefined {
  return BUILTIN_TEMPLATES.find((t) => t.id === id);
}

export interface FieldError {
  field: string;
  rule: string;
}

const COLOR = /^#[0-9A-Fa-f]{6}$/;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkNumber(errs: FieldError[], o: Record<string, unknown>, key: string, min: number, max: number, prefix: string, integer = false): void {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) errs.push({ field: prefix + key, rule: 'number' });
  else if (integer && !Number.isInteger(v)) errs.push({ field: prefix + key, rule: 'integer' });
  else if (v < min || v > max) errs.push({ field: prefix + key, rule: `range ${min}..${max}` });
}

function checkColor(errs: FieldError[], o: Record<string, unknown>, key: string, prefix: string): void {
  const v = o[key];
  if (typeof v !== 'string' || !COLOR.test(v)) errs.push({ field: prefix + key, rule: 'color #RRGGBB' });
}

function checkEnum(errs: FieldError[], o: Record<string, unknown>, key: string, values: readonly string[], prefix: string): void {
  const v = o[key];
  if (typeof v !== 'string' || !values.includes(v)) errs.push({ field: prefix + key, rule: `one of ${values.join(', ')}` });
}

function checkBool(errs: FieldError[], o: Record<string, unknown>, key: string, prefix: string): void {
  if (typeof o[key] !== 'boolean') errs.push({ field: prefix + key, rule: 'boolean' });
}

function checkBox(errs: FieldError[], o: Record<string, unknown>, prefix: string): void {
  const box = o.box;
  if (box === null) return;
  if (!isObj(box)) {
    errs.push({ field: `${prefix}box`, rule: 'object or null' });
    return;
  }
  checkColor(errs, box, 'color', `${prefix}box.`);
  checkNumber(errs, box, 'opacity', 0, 1, `${prefix}box.`);
}

export interface StyleCheckOptions {
  /** Families that can be rendered; default CAPTION_FONT_FAMILIES. */
  fonts?: readonly string[];
  /** Prepended to every field name, e.g. `captions.style.`. */
  prefix?: string;
}

/**
 * Checks a custom caption style; returns the failed fields (empty when valid). Unknown keys are
 * failures too, so a typo does not silently fall back to a default.
 */
export function validateCaptionStyle(input: unknown, opts: StyleCheckOptions = {}): FieldError[] {
  const prefix = opts.prefix ?? '';
  if (!isObj(input)) return [{ field: prefix.replace(/\.$/, '') || 'style', rule: 'object' }];
  const errs: FieldError[] = [];
  const fonts = opts.fonts ?? CAPTION_FONT_FAMILIES;
  checkEnum(errs, input, 'fontFamily', fonts, prefix);
  checkNumber(errs, input, 'fontSize', 16, 240, prefix);
  checkColor(errs, input, 'primaryColor', prefix);
  checkColor(errs, input, 'highlightColor', prefix);
  checkEnum(errs, input, 'highlightMode', ['word', 'fill'], prefix);
  checkNumber(errs, input, 'popScale', 100, 160, prefix);
  checkColor(errs, input, 'outlineColor', prefix);
  checkNumber(errs, input, 'outlineWidth', 0, 20, prefix);
  checkNumber(errs, input, 'shadow', 0, 20, prefix);
  checkBox(errs, input, prefix);
  checkEnum(errs, input, 'position', ['bottom', 'middle', 'top'], prefix);
  checkNumber(errs, input, 'margin', 0, 45, prefix);
  checkNumber(errs, input, 'wordsPerLine', 1, 12, prefix, true);
  checkNumber(errs, input, 'maxLines', 1, 4, prefix, true);
  checkBool(errs, input, 'uppercase', prefix);
  const known = new Set([
    'fontFamily',
    'fontSize',
    'primaryColor',
    'highlightColor',
    'highlightMode',
    'popScale',
    'outlineColor',
    'outlineWidth',
    'shadow',
    'box',
    'position',
    'margin',
    'wordsPerLine',
    'maxLines',
    'uppercase',
  ]);
  for (const k of Object.keys(input)) if (!known.has(k)) errs.push({ field: prefix + k, rule: 'unknown field' });
  return errs;
}

/** Checks a title style; returns the failed fields (empty when valid). */
export function validateTitleStyle(input: unknown, opts: StyleCheckOptions = {}): FieldError[] {
  const prefix = opts.prefix ?? '';
  if (!isObj(input)) return [{ field: prefix.replace(/\.$/, '') || 'style', rule: 'object' }];
  const errs: FieldError[] = [];
  checkEnum(errs, input, 'fontFamily', opts.fonts ?? CAPTION_FONT_FAMILIES, prefix);
  checkNumber(errs, input, 'fontSize', 16, 240, prefix);
  checkColor(errs, input, 'color', prefix);
  checkColor(errs, input, 'outlineColor', prefix);
  checkNumber(errs, input, 'outlineWidth', 0, 20, prefix);
  checkBox(errs, input, prefix);
  checkEnum(errs, input, 'position', ['bottom', 'middle', 'top'], prefix);
  checkNumber(errs, input, 'margin', 0, 45, prefix);
  checkBool(errs, input, 'uppercase', prefix);
  if (input.seconds !== null) checkNumber(errs, input, 'seconds', 0.1, 3600, prefix);
  const known = new Set(['fontFamily', 'fontSize', 'color', 'outlineColor', 'outlineWidth', 'box', 'position', 'margin', 'uppercase', 'seconds']);
  for (const k of Object.keys(input)) if (!known.has(k)) errs.push({ field: prefix + k, rule: 'unknown field' });
  return errs;
}

/** Deep-freezes plain data (objects and arrays) and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}
