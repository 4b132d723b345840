import { ConfigError } from './env.js';

/**
 * The optional LLM highlight scorer (docs/highlights.md). `CUTROOM_LLM_URL` unset = no LLM: the
 * embedded engine alone rates and titles clips.
 */
export interface LlmConfig {
  /** The full chat-completions endpoint, e.g. https://api.openai.com/v1/chat/completions. */
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Share of the LLM's rating in the blended rating (0..1); the embedded rating gets the rest. */
  weight: number;
  /** How many of the engine's best candidates are sent to the LLM. */
  maxCandidates: number;
}

/**
 * Accepts a base URL or the endpoint itself: `…/chat/completions` is kept, `…/v1` gets `/chat/completions`,
 * a bare host (`http://localhost:11434`) gets `/v1/chat/completions`, any other path gets `/chat/completions`.
 */
export function chatCompletionsUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`CUTROOM_LLM_URL must be an absolute http(s) URL (got "${raw}")`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError('CUTROOM_LLM_URL must be an http:// or https:// URL');
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) u.pathname = path;
  else if (path === '') u.pathname = '/v1/chat/completions';
  else u.pathname = `${path}/chat/completions`;
  return u.toString();
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, integer: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    throw new ConfigError(`${name} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max} (got "${raw}")`);
  }
  return n;
}

/** Reads CUTROOM_LLM_*; undefined when CUTROOM_LLM_URL is unset or empty. Throws ConfigError on bad values. */
export function loadLlmConfig(env: NodeJS.ProcessEnv = process.env): LlmConfig | undefined {
  const rawUrl = env.CUTROOM_LLM_URL?.trim();
  if (!rawUrl) return undefined;
  const url = chatCompletionsUrl(rawUrl);
  const model = env.CUTROOM_LLM_MODEL?.trim();
  if (!model) throw new ConfigError('CUTROOM_LLM_MODEL is required when CUTROOM_LLM_URL is set (e.g. gpt-4o-mini, llama3.1:8b)');
  const apiKey = env.CUTROOM_LLM_API_KEY?.trim() || undefined;
  if (apiKey && /[\r\n]/.test(apiKey)) throw new ConfigError('CUTROOM_LLM_API_KEY must be a single line');
  return {
    url,
    apiKey,
    model,
    timeoutMs: number(env, 'CUTROOM_LLM_TIMEOUT_MS', 30_000, 100, 600_000, true),
    weight: number(env, 'CUTROOM_LLM_WEIGHT', 0.5, 0, 1, false),
    maxCandidates: number(env, 'CUTROOM_LLM_MAX_CANDIDATES', 12, 1, 50, true),
  };
}
