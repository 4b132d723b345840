import { validationError } from '../errors.js';
import type { GenerationModelRow, GenerationModelWrite } from './generations.records.js';

/** Pure rules of generations: the catalog's shapes, the embedded models, checking a request against a model. */

export const GENERATION_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];
export const PROVIDERS = ['embedded', 'fal', 'replicate', 'openai'] as const;
export type Provider = (typeof PROVIDERS)[number];
export type ModelKind = 'image' | 'video';

/** The `error_code` of a failed generation (docs/generations.md). */
export const GENERATION_ERRORS = {
  /** The provider's safety system refused the prompt, an image or the output. */
  refused: 'CONTENT_POLICY_REFUSED',
  /** The provider answered a failure (or an unusable answer). */
  provider: 'PROVIDER_FAILED',
  /** No result within the job's limit (the provider's job was cancelled). */
  timeout: 'GENERATION_TIMEOUT',
  /** The output was not an image/video the service reads, or larger than allowed. */
  output: 'OUTPUT_INVALID',
  /** The model was deleted before the job ran (a model disabled after the POST still runs what was paid for). */
  model: 'MODEL_UNAVAILABLE',
} as const;

export type PromptRule = 'required' | 'optional' | 'none';

export interface ModelInputs {
  prompt: PromptRule;
  image_ids: { min: number; max: number };
}

export type OptionSpec =
  | { type: 'string'; values?: string[]; pattern?: string; max_length?: number; default?: string; description?: string }
  | { type: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number; description?: string }
  | { type: 'boolean'; default?: boolean; description?: string };

export type ModelOptions = Record<string, OptionSpec>;

/** The catalog's price: per image for image models, per second for video models (credits, before the plan's discount). */
export type ModelPrice = { per_image: number } | { per_second: number };

/** The engines the service runs itself (src/adapters/images). */
export const EMBEDDED_ENGINES = ['upscale-x4', 'cutout', 'camera-motion', 'parallax'] as const;
export type EmbeddedEngine = (typeof EMBEDDED_ENGINES)[number];

/** Largest input of upscale-x4 (pixels): its output is 16 times larger. */
export const UPSCALE_MAX_INPUT_PIXELS = 1024 * 1024;
/** Longest embedded video. */
export const EMBEDDED_MAX_SECONDS = 30;

const ASPECTS = ['16:9', '9:16', '1:1', '4:5'];
const RESOLUTIONS = ['360p', '720p', '1080p'];

function motionOptions(motions: string[], maxSeconds: number): ModelOptions {
  return {
    duration: { type: 'number', minimum: 1, maximum: maxSeconds, default: 5, description: 'Seconds of video (charged per second).' },
    motion: { type: 'string', values: motions, default: 'push_in', description: 'The camera move.' },
    aspect_ratio: { type: 'string', values: ASPECTS, default: '16:9', description: 'The video’s shape; the image is cropped to it, never letterboxed.' },
    resolution: { type: 'string', values: RESOLUTIONS, default: '720p', description: 'The short side: 360, 720 or 1080 pixels.' },
  };
}

interface EmbeddedDefinition {
  name: string;
  kind: ModelKind;
  description: string;
  inputs: ModelInputs;
  options: (maxSeconds: number) => ModelOptions;
  price: ModelPrice;
  maxSeconds?: number;
}

/** What each embedded engine takes and does; an operator may change its name, description, price, `max_seconds` and `enabled` only. */
export const EMBEDDED_MODELS: Record<EmbeddedEngine, EmbeddedDefinition> = {
  'upscale-x4': {
    name: 'Upscale ×4',
    kind: 'image',
    description:
      'Neural 4× super-resolution (ESRGAN slim, an RDN network trained on DIV2K) run on this service’s CPU: one image in, the same image with 4 times the width and height out (PNG). Inputs up to 1024×1024 pixels. Sharpens edges; it does not invent content.',
    inputs: { prompt: 'none', image_ids: { min: 1, max: 1 } },
    options: () => ({}),
    price: { per_image: 2 },
  },
  cutout: {
    name: 'Cut-out',
    kind: 'image',
    description:
      'Separates the person (or main foreground figure) from the background with MediaPipe Selfie Segmentation, run on this service’s CPU: PNG with the background transparent, or replaced by a solid colour (`background: "#rrggbb"`). Made for people; other subjects are cut less reliably.',
    inputs: { prompt: 'none', image_ids: { min: 1, max: 1 } },
    options: () => ({
      background: { type: 'string', pattern: '^(transparent|#[0-9a-fA-F]{6})$', default: 'transparent', description: '`transparent` or a colour `#rrggbb`.' },
    }),
    price: { per_image: 1 },
  },
  'camera-motion': {
    name: 'Camera motion',
    kind: 'video',
    description:
      'Animates one still image with a camera move (push-in, zoom in or out, pan left or right), eased at both ends, rendered with ffmpeg at the asked duration, aspect ratio and resolution (MP4, H.264, no sound). The frame always stays inside the image: no borders. Nothing in the picture moves by itself.',
    inputs: { prompt: 'none', image_ids: { min: 1, max: 1 } },
    options: (max) => motionOptions(['push_in', 'zoom_in', 'zoom_out', 'pan_left', 'pan_right'], max),
    price: { per_second: 1 },
    maxSeconds: 20,
  },
  parallax: {
    name: 'Parallax',
    kind: 'video',
    description:
      'A 2.5D move: the cut-out matte (MediaPipe Selfie Segmentation) splits the image into the person and the background, the background’s gap is filled from its surroundings, and the person moves further than the background as the camera moves, like a nearer plane (MP4, H.264, no sound). Best on photos of a person.',
    inputs: { prompt: 'none', image_ids: { min: 1, max: 1 } },
    options: (max) => motionOptions(['push_in', 'zoom_in', 'zoom_out', 'pan_left', 'pan_right'], max),
    price: { per_second: 2 },
    maxSeconds: 20,
  },
};

/** The rows bootstrap inserts when they are missing (pure). */
export function embeddedModelRows(): GenerationModelWrite[] {
  return EMBEDDED_ENGINES.map((id) => {
    const d = EMBEDDED_MODELS[id];
    return {
      id,
      name: d.name,
      kind: d.kind,
      provider: 'embedded',
      providerModel: id,
      baseUrl: null,
      apiKeySealed: null,
      description: d.description,
      inputs: d.inputs,
      options: d.options(d.maxSeconds ?? 0),
      pricePerImage: 'per_image' in d.price ? d.price.per_image : null,
      pricePerSecond: 'per_second' in d.price ? d.price.per_second : null,
      maxSeconds: d.maxSeconds ?? null,
      imageField: null,
      enabled: true,
    };
  });
}

export function isEmbeddedEngine(v: string): v is EmbeddedEngine {
  return (EMBEDDED_ENGINES as readonly string[]).includes(v);
}

/** The admin API's body of PUT /admin/v1/generation-models/{id}. */
export interface ModelPut {
  name: string;
  kind: ModelKind;
  provider: Provider;
  provider_model: string;
  base_url?: string | null;
  api_key?: string | null;
  description?: string;
  inputs?: ModelInputs;
  options?: ModelOptions;
  price: { per_image?: number; per_second?: number };
  max_seconds?: number | null;
  image_field?: string | null;
  enabled?: boolean;
}

type FieldError = { field: string; rule: string; allowed?: readonly unknown[] };

/**
 * The entry a PUT writes (pure; the key is sealed by the caller). VALIDATION_ERROR names each wrong field:
 * a price that does not fit the kind, a video without `max_seconds`, an embedded engine that does not exist
 * or of another kind, option specs that contradict themselves.
 */
export function modelFromPut(id: string, body: ModelPut, sealedKey: string | null): GenerationModelWrite {
  const errors: FieldError[] = [];
  const embedded = body.provider === 'embedded';
  let inputs: ModelInputs = body.inputs ?? { prompt: 'optional', image_ids: { min: 0, max: 1 } };
  let options: ModelOptions = body.options ?? {};
  let maxSeconds = body.max_seconds ?? null;
  if (embedded) {
    if (!isEmbeddedEngine(body.provider_model)) errors.push({ field: 'provider_model', rule: 'unknown_embedded_engine' });
    else {
      const d = EMBEDDED_MODELS[body.provider_model];
      if (d.kind !== body.kind) errors.push({ field: 'kind', rule: 'engine_kind' });
      inputs = d.inputs;
      if (d.kind === 'video') maxSeconds = Math.min(maxSeconds ?? d.maxSeconds!, EMBEDDED_MAX_SECONDS);
      options = d.options(maxSeconds ?? 0);
    }
    if (body.base_url) errors.push({ field: 'base_url', rule: 'not_for_embedded' });
    if (body.api_key) errors.push({ field: 'api_key', rule: 'not_for_embedded' });
  } else if (body.base_url) {
    let u: URL | undefined;
    try {
      u = new URL(body.base_url);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash)
      errors.push({ field: 'base_url', rule: 'url' });
  }
  if (inputs.image_ids.min > inputs.image_ids.max) errors.push({ field: 'inputs.image_ids', rule: 'min_above_max' });
  if (body.kind === 'image') {
    if (body.price.per_image === undefined) errors.push({ field: 'price.per_image', rule: 'required' });
    if (body.price.per_second !== undefined) errors.push({ field: 'price.per_second', rule: 'not_for_images' });
  } else {
    if (body.price.per_second === undefined) errors.push({ field: 'price.per_second', rule: 'required' });
    if (body.price.per_image !== undefined) errors.push({ field: 'price.per_image', rule: 'not_for_videos' });
    if (maxSeconds === null) errors.push({ field: 'max_seconds', rule: 'required' });
    if (!embedded && maxSeconds !== null) {
      // Every video model has `duration` (the seconds charged); an operator's spec of it is kept within max_seconds.
      const given = options.duration;
      const NUMERAL = /^\d+(\.\d+)?$/;
      if (given && given.type === 'string') {
        // A provider that takes the duration as text (fal's Kling: "5" or "10"): every allowed value a number of seconds within max_seconds.
        if (!given.values?.length || !given.values.every((v) => NUMERAL.test(v) && Number(v) > 0 && Number(v) <= maxSeconds))
          errors.push({ field: 'options.duration.values', rule: 'seconds' });
      } else if (given && given.type !== 'number' && given.type !== 'integer') errors.push({ field: 'options.duration', rule: 'type' });
      else {
        const g = (given ?? {}) as { minimum?: number; maximum?: number; default?: number; type?: 'number' | 'integer' };
        const maximum = Math.min(g.maximum ?? maxSeconds, maxSeconds);
        options = {
          ...options,
          duration: { ...g, type: g.type ?? 'number', minimum: g.minimum ?? 1, maximum, default: Math.min(g.default ?? Math.min(5, maximum), maximum) },
        };
      }
    }
  }
  if (body.kind === 'image' && body.max_seconds != null) errors.push({ field: 'max_seconds', rule: 'not_for_images' });
  for (const [name, spec] of Object.entries(options)) errors.push(...optionSpecErrors(name, spec));
  if (errors.length) throw validationError(errors);
  return {
    id,
    name: body.name,
    kind: body.kind,
    provider: body.provider,
    providerModel: body.provider_model,
    baseUrl: embedded ? null : (body.base_url ?? null),
    apiKeySealed: embedded ? null : sealedKey,
    description: body.description ?? (embedded && isEmbeddedEngine(body.provider_model) ? EMBEDDED_MODELS[body.provider_model].description : ''),
    inputs,
    options,
    pricePerImage: body.kind === 'image' ? (body.price.per_image ?? null) : null,
    pricePerSecond: body.kind === 'video' ? (body.price.per_second ?? null) : null,
    maxSeconds: body.kind === 'video' ? maxSeconds : null,
    imageField: embedded ? null : (body.image_field ?? null),
    enabled: body.enabled ?? true,
  };
}

function optionSpecErrors(name: string, spec: OptionSpec): FieldError[] {
  const f = `options.${name}`;
  const out: FieldError[] = [];
  if (spec.type === 'string') {
    if (spec.values && spec.values.length === 0) out.push({ field: `${f}.values`, rule: 'min_items' });
    if (spec.pattern !== undefined) {
      try {
        new RegExp(spec.pattern);
      } catch {
        out.push({ field: `${f}.pattern`, rule: 'regex' });
      }
    }
    if (spec.default !== undefined && optionValueError(spec, spec.default)) out.push({ field: `${f}.default`, rule: 'spec' });
  } else if (spec.type === 'number' || spec.type === 'integer') {
    if (spec.minimum !== undefined && spec.maximum !== undefined && spec.minimum > spec.maximum) out.push({ field: f, rule: 'min_above_max' });
    if (spec.default !== undefined && optionValueError(spec, spec.default)) out.push({ field: `${f}.default`, rule: 'spec' });
  }
  return out;
}

/** Why `value` does not fit `spec`, or null (pure). */
export function optionValueError(spec: OptionSpec, value: unknown): string | null {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return 'type';
      if (spec.values && !spec.values.includes(value)) return 'enum';
      if (spec.max_length !== undefined && value.length > spec.max_length) return 'max_length';
      if (spec.pattern !== undefined && !new RegExp(spec.pattern).test(value)) return 'pattern';
      return null;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'type';
      if (spec.type === 'integer' && !Number.isInteger(value)) return 'type';
      if (spec.minimum !== undefined && value < spec.minimum) return 'minimum';
      if (spec.maximum !== undefined && value > spec.maximum) return 'maximum';
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'type';
  }
}

export interface GenerationAsk {
  prompt?: string;
  image_ids?: string[];
  options?: Record<string, unknown>;
}

/**
 * Checks a request against the model's inputs and options (pure): VALIDATION_ERROR naming every wrong
 * field. Answers the options with defaults filled in, and the seconds charged for a video.
 */
export function checkAsk(
  model: Pick<GenerationModelRow, 'kind' | 'inputs' | 'options' | 'maxSeconds'>,
  ask: GenerationAsk,
): { options: Record<string, unknown>; seconds: number | null } {
  const inputs = model.inputs as ModelInputs;
  const specs = model.options as ModelOptions;
  const errors: FieldError[] = [];
  const prompt = ask.prompt;
  if (inputs.prompt === 'required' && (prompt === undefined || prompt.trim() === '')) errors.push({ field: 'prompt', rule: 'required' });
  if (inputs.prompt === 'none' && prompt !== undefined) errors.push({ field: 'prompt', rule: 'not_accepted' });
  const ids = ask.image_ids ?? [];
  if (ids.length < inputs.image_ids.min) errors.push({ field: 'image_ids', rule: 'min_items' });
  if (ids.length > inputs.image_ids.max) errors.push({ field: 'image_ids', rule: 'max_items' });
  if (new Set(ids).size !== ids.length) errors.push({ field: 'image_ids', rule: 'unique' });
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(ask.options ?? {})) {
    const spec = specs[name];
    if (!spec) {
      errors.push({ field: `options.${name}`, rule: 'unknown' });
      continue;
    }
    const why = optionValueError(spec, value);
    if (why) errors.push({ field: `options.${name}`, rule: why, ...(why === 'enum' && spec.type === 'string' && spec.values ? { allowed: spec.values } : {}) });
    else options[name] = value;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (options[name] === undefined && spec.default !== undefined && !errors.some((e) => e.field === `options.${name}`)) options[name] = spec.default;
  }
  let seconds: number | null = null;
  if (model.kind === 'video') {
    // A number, or the text of a number for a provider that takes it so (its allowed values checked above).
    const raw = options.duration;
    const d = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    if (typeof d !== 'number' && !errors.some((e) => e.field === 'options.duration')) errors.push({ field: 'options.duration', rule: 'required' });
    else if (typeof d === 'number') {
      if (model.maxSeconds !== null && d > model.maxSeconds) errors.push({ field: 'options.duration', rule: 'maximum' });
      seconds = d;
    }
  }
  if (errors.length) throw validationError(errors);
  return { options, seconds };
}

/** The units a generation is charged for: 1 image, or its seconds (pure). */
export function unitsOf(
  model: Pick<GenerationModelRow, 'kind' | 'pricePerImage' | 'pricePerSecond'>,
  seconds: number | null,
): { unitPrice: number; units: number } {
  return model.kind === 'video' ? { unitPrice: model.pricePerSecond ?? 0, units: seconds ?? 0 } : { unitPrice: model.pricePerImage ?? 0, units: 1 };
}

/** The catalog's view of a model (GET /generations/models). */
export interface ModelView {
  id: string;
  name: string;
  kind: ModelKind;
  engine: string;
  description: string;
  inputs: ModelInputs;
  options: ModelOptions;
  price: ModelPrice;
  max_seconds?: number;
}

export function modelView(m: GenerationModelRow): ModelView {
  return {
    id: m.id,
    name: m.name,
    kind: m.kind as ModelKind,
    engine: m.provider,
    description: m.description,
    inputs: m.inputs as ModelInputs,
    options: m.options as ModelOptions,
    price: m.kind === 'video' ? { per_second: m.pricePerSecond ?? 0 } : { per_image: m.pricePerImage ?? 0 },
    ...(m.kind === 'video' && m.maxSeconds !== null ? { max_seconds: m.maxSeconds } : {}),
  };
}

/** The admin API's view: the catalog's plus the operator's fields; the key only as `has_api_key`. */
export function adminModelView(m: GenerationModelRow) {
  return {
    ...modelView(m),
    provider: m.provider,
    provider_model: m.providerModel,
    base_url: m.baseUrl,
    has_api_key: m.apiKeySealed !== null,
    image_field: m.imageField,
    enabled: m.enabled,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

/** `#rrggbb` → [r, g, b]; null for `transparent` (pure). */
export function parseBackground(v: unknown): [number, number, number] | null {
  if (typeof v !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(v)) return null;
  return [parseInt(v.slice(1, 3), 16), parseInt(v.slice(3, 5), 16), parseInt(v.slice(5, 7), 16)];
}
