import { ConfigError, durationMs, endpointUrl, int, oneOf, secret, text, type Env } from './parse.js';

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
  return endpointUrl('CUTROOM_ASR_URL', raw, '/audio/transcriptions');
}

/** Reads CUTROOM_ASR*; throws ConfigError on bad values. */
export function loadAsrConfig(env: Env): AsrConfig {
  const engine = oneOf(env, 'CUTROOM_ASR', ['pocketsphinx', 'openai'], 'pocketsphinx', { lowercase: true });
  const common: AsrCommon = {
    chunkSeconds: int(env, 'CUTROOM_ASR_CHUNK_SECONDS', { fallback: 120, min: 20, max: 1500 }),
    concurrency: int(env, 'CUTROOM_ASR_CONCURRENCY', { fallback: 2, min: 1, max: 16 }),
  };
  if (engine === 'pocketsphinx') {
    return { ...common, engine, binary: text(env, 'CUTROOM_POCKETSPHINX_BIN') ?? 'pocketsphinx_continuous' };
  }
  const rawUrl = text(env, 'CUTROOM_ASR_URL');
  const apiKey = secret(env, 'CUTROOM_ASR_API_KEY');
  if (!rawUrl && !apiKey) {
    throw new ConfigError('CUTROOM_ASR=openai needs CUTROOM_ASR_URL (a local server such as http://localhost:8000/v1) or CUTROOM_ASR_API_KEY (for OpenAI itself)');
  }
  const model = text(env, 'CUTROOM_ASR_MODEL') ?? 'whisper-1';
  if (/\s/.test(model)) throw new ConfigError(`CUTROOM_ASR_MODEL must not contain spaces (got "${model}")`);
  return {
    ...common,
    engine,
    url: transcriptionsUrl(rawUrl ?? 'https://api.openai.com/v1'),
    apiKey,
    model,
    timeoutMs: durationMs(env, 'CUTROOM_ASR_TIMEOUT_MS', { fallback: 600_000, min: 1000, max: 3_600_000 }),
  };
}
