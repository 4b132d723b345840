import { resolveSteering } from '../highlights/steering.js';
import { DomainError } from '../errors.js';
import type { HighlightStrategy } from '../../ports/highlights.js';
import { HIGHLIGHT_STRATEGIES } from '../highlights/highlight-engine.js';
import { ASPECTS, REFRAME_MODES, RESOLUTIONS } from '../edits/edit.js';
import {
  BUILTIN_TEMPLATES,
  deepFreeze,
  validateCaptionStyle,
  validateTitleStyle,
  type Aspect,
  type CaptionStyle,
  type FieldError,
  type ReframeMode,
  type Resolution,
  type TemplateZoom,
  type TitleStyle,
  type TwoFaces,
  TEMPLATE_ZOOMS,
  TWO_FACES,
} from '../edits/caption-styles.js';

/**
 * Templates and strategies (pure): built-in records, validation of custom configs and the API view.
 * A template is how clips look (caption style, title style, layout); a strategy is how clips are
 * picked (length range and count). docs/templates.md documents every field.
 *
 * Configs are stored and handed to the domain in the render module's shape (camelCase caption and
 * title styles); the API speaks snake_case (`font_family`, `words_per_line`, …).
 */

export type TemplateKind = 'template' | 'strategy';
export const TEMPLATE_KINDS: readonly TemplateKind[] = ['template', 'strategy'];

export interface TemplateLayout {
  aspect: Aspect;
  reframe: ReframeMode;
  resolution: Resolution;
  /** Punch-in on the template's clips: `subtle` (eased zooms on emphasised words) or `none`. */
  zoom: TemplateZoom;
  /** What `auto` gives two faces talking in turns: the active `speaker` (default) or `split`. */
  twoFaces: TwoFaces;
}

/** How clips look: the render module's caption and title styles plus the output layout. */
export interface TemplateConfig {
  captions: CaptionStyle;
  title: TitleStyle;
  layout: TemplateLayout;
}

/** How clips are picked: lengths in seconds (5 ≤ min < max ≤ 180) and at most `max_clips` (1–30). */
/** A strategy: the clips' length range and count, and optionally what its picks look for (`prompt`, `keywords`, docs/highlights.md). */
export type StrategyConfig = HighlightStrategy & { prompt?: string; keywords?: string[] };

export const STRATEGY_LIMITS = { minSeconds: 5, maxSeconds: 180, minClips: 1, maxClips: 30 } as const;

export const BUILTIN_STRATEGY_NAMES = { short: 'Short', default: 'Default', long: 'Long' } as const;
type StrategySlug = keyof typeof BUILTIN_STRATEGY_NAMES;
const STRATEGY_SLUGS: readonly StrategySlug[] = ['short', 'default', 'long'];

/** Stable id of a built-in template: `tpl_` + the render module's id with `-` → `_` (`bold-pop` → `tpl_bold_pop`). */
export function builtinTemplateId(slug: string): string {
  return `tpl_${slug.replace(/-/g, '_')}`;
}

/** Stable id of a built-in strategy: `str_short`, `str_default`, `str_long`. */
export function builtinStrategyId(slug: StrategySlug): string {
  return `str_${slug}`;
}

export const DEFAULT_STRATEGY_ID = builtinStrategyId('default');
/** The first built-in template is the default. */
export const DEFAULT_TEMPLATE_ID = builtinTemplateId(BUILTIN_TEMPLATES[0].id);

export interface BuiltinDefinition {
  id: string;
  kind: TemplateKind;
  name: string;
  config: TemplateConfig | StrategyConfig;
}

/** Every built-in, in listing order: templates as in BUILTIN_TEMPLATES, then short, default, long. */
export function builtinDefinitions(): BuiltinDefinition[] {
  const tpls: BuiltinDefinition[] = BUILTIN_TEMPLATES.map((t) => ({
    id: builtinTemplateId(t.id),
    kind: 'template',
    name: t.name,
    config: clone({ captions: t.captions, title: t.title, layout: t.layout }),
  }));
  const strs: BuiltinDefinition[] = STRATEGY_SLUGS.map((s) => ({
    id: builtinStrategyId(s),
    kind: 'strategy',
    name: BUILTIN_STRATEGY_NAMES[s],
    config: { ...HIGHLIGHT_STRATEGIES[s] },
  }));
  return [...tpls, ...strs];
}

function defaultTemplateConfig(): TemplateConfig {
  const t = BUILTIN_TEMPLATES[0];
  return clone({ captions: t.captions, title: t.title, layout: t.layout });
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const snakeToCamel = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Renames the keys of an object (and of nested plain objects) with `f`; arrays and scalars pass through. */
function renameKeys(v: unknown, f: (k: string) => string): unknown {
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[f(k)] = renameKeys(x, f);
  return out;
}

const snakePath = (field: string) => field.split('.').map(camelToSnake).join('.');

/**
 * A snake_case style object from the API → the render module's camelCase, merged over `base`.
 * Keys that are not canonical snake_case (e.g. `fontFamily`) are reported as unknown fields.
 */
function styleFromApi(input: unknown, base: object, prefix: string, errs: FieldError[]): Record<string, unknown> | undefined {
  if (input === undefined) return { ...base };
  if (!isObj(input)) {
    errs.push({ field: prefix.replace(/\.$/, ''), rule: 'object' });
    return undefined;
  }
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(input)) {
    if (camelToSnake(snakeToCamel(k)) !== k) {
      errs.push({ field: prefix + k, rule: 'unknown field' });
      continue;
    }
    if (k === 'box' && isObj(v)) checkKnown(errs, v, ['color', 'opacity'], `${prefix}box.`);
    out[snakeToCamel(k)] = renameKeys(v, snakeToCamel);
  }
  return out;
}

function checkKnown(errs: FieldError[], o: Record<string, unknown>, known: readonly string[], prefix: string): void {
  for (const k of Object.keys(o)) if (!known.includes(k)) errs.push({ field: prefix + k, rule: 'unknown field' });
}

function checkEnum(errs: FieldError[], o: Record<string, unknown>, key: string, values: readonly string[], prefix: string): void {
  const v = o[key];
  if (typeof v !== 'string' || !values.includes(v)) errs.push({ field: prefix + key, rule: `one of ${values.join(', ')}` });
}

export type ConfigCheck<T> = { ok: true; config: T } | { ok: false; errors: FieldError[] };

/**
 * Checks a custom template config in the API's snake_case form:
 * `{ captions?: {...}, title?: {...}, layout?: { aspect?, reframe?, resolution?, zoom?, two_faces? } }`. Every field is
 * optional and takes the default template's value when absent; a given `box` replaces the default
 * box whole. Field names in errors are prefixed with `prefix` (default `config.`).
 */
export function checkTemplateConfig(input: unknown, prefix = 'config.'): ConfigCheck<TemplateConfig> {
  const top = prefix.replace(/\.$/, '') || 'config';
  if (!isObj(input)) return { ok: false, errors: [{ field: top, rule: 'object' }] };
  const base = defaultTemplateConfig();
  const errs: FieldError[] = [];
  checkKnown(errs, input, ['captions', 'title', 'layout'], prefix);

  const captions = styleFromApi(input.captions, base.captions, `${prefix}captions.`, errs);
  if (captions) {
    for (const e of validateCaptionStyle(captions, { prefix: `${prefix}captions.` })) errs.push({ field: snakePath(e.field), rule: e.rule });
  }
  const title = styleFromApi(input.title, base.title, `${prefix}title.`, errs);
  if (title) {
    for (const e of validateTitleStyle(title, { prefix: `${prefix}title.` })) errs.push({ field: snakePath(e.field), rule: e.rule });
  }
  let layout: Record<string, unknown> | undefined = { ...base.layout };
  if (input.layout !== undefined) {
    if (!isObj(input.layout)) {
      errs.push({ field: `${prefix}layout`, rule: 'object' });
      layout = undefined;
    } else {
      layout = { ...layout, ...input.layout };
      checkKnown(errs, input.layout, ['aspect', 'reframe', 'resolution', 'zoom', 'two_faces'], `${prefix}layout.`);
      checkEnum(errs, layout, 'aspect', ASPECTS, `${prefix}layout.`);
      checkEnum(errs, layout, 'reframe', REFRAME_MODES, `${prefix}layout.`);
      checkEnum(errs, layout, 'resolution', RESOLUTIONS, `${prefix}layout.`);
      checkEnum(errs, layout, 'zoom', TEMPLATE_ZOOMS, `${prefix}layout.`);
      if (layout.two_faces !== undefined) {
        checkEnum(errs, layout, 'two_faces', TWO_FACES, `${prefix}layout.`);
        layout.twoFaces = layout.two_faces;
        delete layout.two_faces;
      }
    }
  }
  if (errs.length > 0) return { ok: false, errors: dedupe(errs) };
  return {
    ok: true,
    config: { captions: captions as unknown as CaptionStyle, title: title as unknown as TitleStyle, layout: layout as unknown as TemplateLayout },
  };
}

/**
 * Checks a custom strategy config `{ min_seconds?, max_seconds?, max_clips?, prompt?, keywords? }`;
 * absent numbers take the default strategy's values. 5 ≤ min_seconds < max_seconds ≤ 180, max_clips an
 * integer 1–30; `prompt` and `keywords` as POST /clips takes them (trimmed, repeats dropped).
 */
export function checkStrategyConfig(input: unknown, prefix = 'config.'): ConfigCheck<StrategyConfig> {
  const top = prefix.replace(/\.$/, '') || 'config';
  if (!isObj(input)) return { ok: false, errors: [{ field: top, rule: 'object' }] };
  const errs: FieldError[] = [];
  checkKnown(errs, input, ['min_seconds', 'max_seconds', 'max_clips', 'prompt', 'keywords'], prefix);
  // What its picks look for: checked as POST /clips checks it.
  let steering: { prompt?: string; keywords?: string[] } = {};
  try {
    steering = resolveSteering({ prompt: input.prompt as string | undefined, keywords: input.keywords as string[] | undefined });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    for (const e of (err.extra as { errors: FieldError[] }).errors) errs.push({ field: prefix + e.field, rule: e.rule });
  }
  const merged: Record<string, unknown> = { ...HIGHLIGHT_STRATEGIES.default, ...input };
  const { minSeconds, maxSeconds, minClips, maxClips } = STRATEGY_LIMITS;
  const num = (key: string, min: number, max: number, integer: boolean): boolean => {
    const v = merged[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) errs.push({ field: prefix + key, rule: 'number' });
    else if (integer && !Number.isInteger(v)) errs.push({ field: prefix + key, rule: 'integer' });
    else if (v < min || v > max) errs.push({ field: prefix + key, rule: `range ${min}..${max}` });
    else return true;
    return false;
  };
  const minOk = num('min_seconds', minSeconds, maxSeconds, false);
  const maxOk = num('max_seconds', minSeconds, maxSeconds, false);
  num('max_clips', minClips, maxClips, true);
  if (minOk && maxOk && (merged.max_seconds as number) <= (merged.min_seconds as number)) {
    errs.push({ field: `${prefix}max_seconds`, rule: 'greater than min_seconds' });
  }
  if (errs.length > 0) return { ok: false, errors: errs };
  return {
    ok: true,
    config: { min_seconds: merged.min_seconds as number, max_seconds: merged.max_seconds as number, max_clips: merged.max_clips as number, ...steering },
  };
}

function dedupe(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = `${e.field}\u0000${e.rule}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** `fontFamily` → `font_family`, at the type level. */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;
/** An object type with every key (also nested) in snake_case. */
export type SnakeKeys<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T as Snake<K & string>]: SnakeKeys<T[K]> } : T;

/** The API form of a template config: `{ captions: { font_family, … }, title: { … }, layout: { … } }`. */
export type TemplateConfigView = SnakeKeys<TemplateConfig>;

/** The API (snake_case) form of a template config. */
export function templateConfigView(c: TemplateConfig): TemplateConfigView {
  return renameKeys(c, camelToSnake) as TemplateConfigView;
}

/**
 * A stored config read back: fields missing from an older row are filled from the current default
 * (a template) or the default strategy, so a field added later never reaches the renderer undefined.
 */
export function templateConfigFromRow(stored: unknown): TemplateConfig {
  const base = defaultTemplateConfig();
  const s = isObj(stored) ? stored : {};
  const part = (k: keyof TemplateConfig) => (isObj(s[k]) ? (s[k] as object) : {});
  return deepFreeze({
    captions: { ...base.captions, ...part('captions') } as CaptionStyle,
    title: { ...base.title, ...part('title') } as TitleStyle,
    layout: { ...base.layout, ...part('layout') } as TemplateLayout,
  });
}

export function strategyConfigFromRow(stored: unknown): StrategyConfig {
  const s = isObj(stored) ? stored : {};
  return deepFreeze({ ...HIGHLIGHT_STRATEGIES.default, ...(s as Partial<StrategyConfig>) });
}
