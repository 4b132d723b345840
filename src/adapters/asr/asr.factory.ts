import type { AsrConfig } from '../../config/asr.env.js';
import type { AsrEngine } from '../../ports/asr.js';
import { withChunking } from './chunking.js';
import { OpenAiAsrEngine } from './openai.asr.js';
import { PocketsphinxEngine } from './pocketsphinx.asr.js';

export interface AsrFactoryDeps {
  /** For tests: the HTTP client of the openai engine. */
  fetch?: typeof fetch;
  /** Where chunk files are written (default: the OS temp dir). */
  tmpDir?: string;
}

/**
 * The engine chosen by the configuration, wrapped so that long audio is cut at silences into chunks
 * of at most `chunkSeconds`, transcribed `concurrency` at a time, and stitched with absolute times.
 */
export function createAsrEngine(config: AsrConfig, deps: AsrFactoryDeps = {}): AsrEngine {
  const engine: AsrEngine =
    config.engine === 'pocketsphinx'
      ? new PocketsphinxEngine({ binary: config.binary })
      : new OpenAiAsrEngine({ url: config.url, apiKey: config.apiKey, model: config.model, timeoutMs: config.timeoutMs, fetch: deps.fetch });
  const max = config.chunkSeconds;
  return withChunking(engine, {
    maxChunkSeconds: max,
    minChunkSeconds: Math.round(max / 2),
    targetChunkSeconds: Math.round(max * 0.75),
    concurrency: config.concurrency,
    tmpDir: deps.tmpDir,
  });
}
