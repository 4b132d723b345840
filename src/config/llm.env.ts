import { ConfigError, durationMs, endpointUrl, int, number, secret, text, type Env } from './parse.js';

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
  return endpointUrl('CUTROOM_LLM_URL', raw, '/chat/completions');
}

/** Reads CUTROOM_LLM_*; undefined when CUTROOM_LLM_URL is unset or empty. Throws ConfigError on bad values. */
export function loadLlmConfig(env: Env): LlmConfig | undefined {
  const rawUrl = text(env, 'CUTROOM_LLM_URL');
  if (!rawUrl) return undefined;
  const url = chatCompletionsUrl(rawUrl);
  const model = text(env, 'CUTROOM_LLM_MODEL');
  if (!model) throw new ConfigError('CUTROOM_LLM_MODEL is required when CUTROOM_LLM_URL is set (e.g. gpt-4o-mini, llama3.1:8b)');
  return {
    url,
    apiKey: secret(env, 'CUTROOM_LLM_API_KEY'),
    model,
    timeoutMs: durationMs(env, 'CUTROOM_LLM_TIMEOUT_MS', { fallback: 30_000, min: 100, max: 600_000 }),
    weight: number(env, 'CUTROOM_LLM_WEIGHT', { fallback: 0.5, min: 0, max: 1 }),
    maxCandidates: int(env, 'CUTROOM_LLM_MAX_CANDIDATES', { fallback: 12, min: 1, max: 50 }),
  };
}
