import { ConfigError } from './env.js';

/** The speech-recognition engine (docs/asr.md). */

interface AsrCommon {
  /** Longest chunk sent to the engine at once; longer audio is cut at silences. */
  chunkSeconds: number;
  /** Chunks transcribed at once. */
  concurrency: number;
}

export type AsrConfig =
  | (AsrCommon & { engine: 'pocketsphinx'; binary: string })
  | (AsrCommon & { engine: 'openai'; url: string; apiKey?: string; model: string; timeoutMs: number });

/**
 * Accepts a base URL or the endpoint itself: `…/audio/transcriptions` is kept, `…/v1` gets
 * `/audio/transcriptions`, a bare host (`http://localhost:8000`) gets `/v1/audio/transcriptions`.
 */
export function transcriptionsUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`CUTROOM_ASR_URL must be an absolute http(s) URL (got "${raw}")`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError('CUTROOM_ASR_URL must be an http:// or https:// URL');
  const p = u.pathname.replace(/\/+$/, '');
  if (p.endsWith('/audio/transcriptions')) u.pathname = p;
  else if (p === '') u.pathname = '/v1/audio/transcriptions';
  else u.pathname = `${p}/audio/transcriptions`;
  return u.toString();
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  return n;
}

/** Reads CUTROOM_ASR*; throws ConfigError on bad values. */
export function loadAsrConfig(env: NodeJS.ProcessEnv = process.env): AsrConfig {
  const engine = (env.CUTROOM_ASR?.trim() || 'pocketsphinx').toLowerCase();
  const common: AsrCommon = {
    chunkSeconds: int(env, 'CUTROOM_ASR_CHUNK_SECONDS', 120, 20, 1500),
    concurrency: int(env, 'CUTROOM_ASR_CONCURRENCY', 2, 1, 16),
  };
  if (engine === 'pocketsphinx') {
    return { ...common, engine, binary: env.CUTROOM_POCKETSPHINX_BIN?.trim() || 'pocketsphinx_continuous' };
  }
  if (engine !== 'openai') throw new ConfigError(`CUTROOM_ASR must be "pocketsphinx" or "openai" (got "${env.CUTROOM_ASR}")`);
  const rawUrl = env.CUTROOM_ASR_URL?.trim();
  const apiKey = env.CUTROOM_ASR_API_KEY?.trim() || undefined;
  if (apiKey && /[\r\n]/.test(apiKey)) throw new ConfigError('CUTROOM_ASR_API_KEY must be a single line');
  if (!rawUrl && !apiKey) {
    throw new ConfigError('CUTROOM_ASR=openai needs CUTROOM_ASR_URL (a local server such as http://localhost:8000/v1) or CUTROOM_ASR_API_KEY (for OpenAI itself)');
  }
  const model = env.CUTROOM_ASR_MODEL?.trim() || 'whisper-1';
  if (/\s/.test(model)) throw new ConfigError(`CUTROOM_ASR_MODEL must not contain spaces (got "${model}")`);
  return {
    ...common,
    engine,
    url: transcriptionsUrl(rawUrl || 'https://api.openai.com/v1'),
    apiKey,
    model,
    timeoutMs: int(env, 'CUTROOM_ASR_TIMEOUT_MS', 600_000, 1000, 3_600_000),
  };
}
