import { ConfigError, baseUrl, int, list, oneOf, secret, text, type Env } from './parse.js';

/** A hosted persona engine the operator configured (docs/personas.md, "Hosted engines"). */
export interface HostedPersonaEngineConfig {
  provider: 'fal' | 'replicate' | 'openai';
  /** The provider's model (`fal-ai/flux/dev`, `owner/name:version`, `gpt-image-1`). */
  model: string;
  /** Overrides the provider's public address (a self-hosted compatible server). */
  baseUrl?: string;
  apiKey?: string;
  /** Input fields sent with every job (a JSON object). */
  options: Record<string, unknown>;
  /** The model's field for reference images, when not the protocol's usual one. */
  imageField?: string;
}

export interface HostedSwapConfig extends HostedPersonaEngineConfig {
  /** Replace modes the model does. */
  replace: Array<'person' | 'head'>;
  /** The model's input field for the source video (a data URI). */
  videoField: string;
}

/** Personas (docs/personas.md): size ceilings, the embedded swap's output width, hosted engines. */
export interface PersonasConfig {
  /** Largest own-face photo (POST /personas/faces), bytes. */
  photoMaxBytes: number;
  /** Largest persona source upload, bytes (also capped by the plan's upload size). */
  sourceMaxBytes: number;
  /** Width cap of the embedded head swap's output (pixels; the source's aspect kept). */
  swapMaxWidth: number;
  /** A generative portrait model for chips (photos instead of illustrations); undefined: the embedded illustration. */
  portrait?: HostedPersonaEngineConfig;
  /** A generative swap model; undefined: the embedded head swap (`preview`, `head` only). */
  swap?: HostedSwapConfig;
}

function jsonObject(env: Env, name: string): Record<string, unknown> {
  const raw = text(env, name);
  if (!raw) return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name} must be a JSON object (got "${raw}")`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(`${name} must be a JSON object`);
  return v as Record<string, unknown>;
}

function hosted(env: Env, prefix: string, providers: ReadonlyArray<'fal' | 'replicate' | 'openai'>): HostedPersonaEngineConfig | undefined {
  const provider = oneOf(env, `${prefix}_PROVIDER`, ['embedded', ...providers] as const, 'embedded', { lowercase: true });
  if (provider === 'embedded') return undefined;
  const model = text(env, `${prefix}_MODEL`);
  if (!model) throw new ConfigError(`${prefix}_MODEL is required when ${prefix}_PROVIDER is ${provider}`);
  return {
    provider,
    model,
    baseUrl: baseUrl(env, `${prefix}_BASE_URL`),
    apiKey: secret(env, `${prefix}_API_KEY`),
    options: jsonObject(env, `${prefix}_OPTIONS`),
    imageField: text(env, `${prefix}_IMAGE_FIELD`),
  };
}

export function loadPersonasConfig(env: Env): PersonasConfig {
  const portrait = hosted(env, 'CUTROOM_PERSONA_PORTRAIT', ['fal', 'replicate', 'openai']);
  const swapBase = hosted(env, 'CUTROOM_PERSONA_SWAP', ['fal', 'replicate']);
  let swap: HostedSwapConfig | undefined;
  if (swapBase) {
    const modes = list(env, 'CUTROOM_PERSONA_SWAP_REPLACE');
    const replace = (modes.length ? modes : ['person', 'head']).map((m) => m.toLowerCase());
    for (const m of replace) if (m !== 'person' && m !== 'head') throw new ConfigError(`CUTROOM_PERSONA_SWAP_REPLACE lists person and/or head (got "${m}")`);
    swap = {
      ...swapBase,
      replace: [...new Set(replace)] as Array<'person' | 'head'>,
      videoField: text(env, 'CUTROOM_PERSONA_SWAP_VIDEO_FIELD') ?? 'video_url',
    };
  }
  return {
    photoMaxBytes: int(env, 'CUTROOM_PERSONA_PHOTO_MAX_BYTES', { fallback: 10 * 1024 * 1024, min: 1024, max: 100 * 1024 * 1024 }),
    sourceMaxBytes: int(env, 'CUTROOM_PERSONA_SOURCE_MAX_BYTES', { fallback: 512 * 1024 * 1024, min: 1024, max: 5 * 1024 * 1024 * 1024 }),
    swapMaxWidth: int(env, 'CUTROOM_PERSONA_SWAP_MAX_WIDTH', { fallback: 720, min: 128, max: 1920 }),
    portrait,
    swap,
  };
}
