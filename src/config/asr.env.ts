import { ConfigError, durationMs, endpointUrl, int, list, oneOf, secret, text, type Env } from './parse.js';

/** The speech-recognition engines and which languages go to which (docs/asr.md). */

export const ASR_ENGINES = ['pocketsphinx', 'openai'] as const;
export type AsrEngineName = (typeof ASR_ENGINES)[number];

/** Speech in `language` (an ISO 639 code) goes to `engine`. */
export interface AsrRoute {
  language: string;
  engine: AsrEngineName;
}

export interface PocketsphinxSettings {
  binary: string;
}

export interface OpenAiSettings {
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export interface AsrConfig {
  /** The engine of every language no route names: the `*` route of CUTROOM_ASR_ROUTES, else CUTROOM_ASR. */
  engine: AsrEngineName;
  /** The languages CUTROOM_ASR_ROUTES names, in its order. */
  routes: AsrRoute[];
  /** Longest chunk sent to a hosted engine at once; longer audio is cut at silences. */
  chunkSeconds: number;
  /** Chunks (hosted engine) or decoding processes (pocketsphinx, at most one per core) at once. */
  concurrency: number;
  /** Present when a route uses the engine. */
  pocketsphinx?: PocketsphinxSettings;
  openai?: OpenAiSettings;
}

/**
 * Accepts a base URL or the endpoint itself: `…/audio/transcriptions` is kept, `…/v1` gets
 * `/audio/transcriptions`, a bare host (`http://localhost:8000`) gets `/v1/audio/transcriptions`.
 */
export function transcriptionsUrl(raw: string): string {
  return endpointUrl('CUTROOM_ASR_URL', raw, '/audio/transcriptions');
}

/**
 * CUTROOM_ASR_ROUTES (`en=pocketsphinx,*=openai`): the routes of named languages, and the engine of the
 * rest (`*`, else `fallback`). Languages are ISO 639 codes (`en`, `pt`; `en-US` counts as `en`);
 * pocketsphinx takes English only.
 */
export function parseAsrRoutes(raw: string[], fallback: AsrEngineName): { routes: AsrRoute[]; rest: AsrEngineName } {
  const name = 'CUTROOM_ASR_ROUTES';
  const routes: AsrRoute[] = [];
  for (const entry of raw) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(entry);
    if (!m) throw new ConfigError(`${name}: "${entry}" is not language=engine (such as en=pocketsphinx or *=openai)`);
    const language = m[1] === '*' ? '*' : m[1].toLowerCase().split(/[-_]/)[0];
    if (language !== '*' && !/^[a-z]{2,3}$/.test(language)) throw new ConfigError(`${name}: "${m[1]}" is not a language code (such as en, pt) or *`);
    const engine = m[2].toLowerCase();
    if (!(ASR_ENGINES as readonly string[]).includes(engine)) throw new ConfigError(`${name}: unknown engine "${m[2]}" (${ASR_ENGINES.join(' or ')})`);
    if (routes.some((r) => r.language === language)) throw new ConfigError(`${name}: ${language} is routed twice`);
    if (engine === 'pocketsphinx' && language !== 'en' && language !== '*')
      throw new ConfigError(`${name}: pocketsphinx transcribes English only (route ${language} to openai)`);
    routes.push({ language, engine: engine as AsrEngineName });
  }
  return { routes: routes.filter((r) => r.language !== '*'), rest: routes.find((r) => r.language === '*')?.engine ?? fallback };
}

/** Reads CUTROOM_ASR*; throws ConfigError on bad values. */
export function loadAsrConfig(env: Env): AsrConfig {
  const fallback = oneOf(env, 'CUTROOM_ASR', ASR_ENGINES, 'pocketsphinx', { lowercase: true });
  const { routes, rest } = parseAsrRoutes(list(env, 'CUTROOM_ASR_ROUTES'), fallback);
  const uses = (engine: AsrEngineName) => rest === engine || routes.some((r) => r.engine === engine);
  const config: AsrConfig = {
    engine: rest,
    routes,
    chunkSeconds: int(env, 'CUTROOM_ASR_CHUNK_SECONDS', { fallback: 120, min: 20, max: 1500 }),
    concurrency: int(env, 'CUTROOM_ASR_CONCURRENCY', { fallback: 2, min: 1, max: 16 }),
  };
  if (uses('pocketsphinx')) config.pocketsphinx = { binary: text(env, 'CUTROOM_POCKETSPHINX_BIN') ?? 'pocketsphinx_batch' };
  if (uses('openai')) {
    const rawUrl = text(env, 'CUTROOM_ASR_URL');
    const apiKey = secret(env, 'CUTROOM_ASR_API_KEY');
    if (!rawUrl && !apiKey) {
      throw new ConfigError(
        'the openai ASR engine needs CUTROOM_ASR_URL (a local server such as http://localhost:8000/v1) or CUTROOM_ASR_API_KEY (for OpenAI itself)',
      );
    }
    const model = text(env, 'CUTROOM_ASR_MODEL') ?? 'whisper-1';
    if (/\s/.test(model)) throw new ConfigError(`CUTROOM_ASR_MODEL must not contain spaces (got "${model}")`);
    config.openai = {
      url: transcriptionsUrl(rawUrl ?? 'https://api.openai.com/v1'),
      apiKey,
      model,
      timeoutMs: durationMs(env, 'CUTROOM_ASR_TIMEOUT_MS', { fallback: 600_000, min: 1000, max: 3_600_000 }),
    };
  }
  return config;
}
