import type { AsrConfig, AsrEngineName } from '../../config/asr.env.js';
import type { AsrEngine } from '../../ports/asr.js';
import type { Vad } from '../../ports/vad.js';
import { SileroVad } from '../vad/silero.vad.js';
import { withChunking } from './chunking.js';
import { OpenAiAsrEngine } from './openai.asr.js';
import { PocketsphinxEngine } from './pocketsphinx.asr.js';
import { RoutingAsrEngine } from './routing.asr.js';

export interface AsrFactoryDeps {
  /** For tests: the HTTP client of the openai engine. */
  fetch?: typeof fetch;
  /** Where chunk, control and CTM files are written (default: the OS temp dir). */
  tmpDir?: string;
  /** The voice detector that finds pocketsphinx's utterances (default: a Silero VAD of its own, loaded on first use). */
  vad?: Vad;
}

/**
 * The engines the configuration names, behind one AsrEngine. pocketsphinx decodes the utterances the
 * voice detector finds, `concurrency` processes at most (one per core at most); the openai engine is
 * wrapped so that long audio is cut at silences into chunks of at most `chunkSeconds`, transcribed
 * `concurrency` at a time, and stitched with absolute times. With CUTROOM_ASR_ROUTES, a RoutingAsrEngine
 * sends each language to its engine and `auto` to the openai engine's detection when one is configured.
 */
export function createAsrEngine(config: AsrConfig, deps: AsrFactoryDeps = {}): AsrEngine {
  const built = new Map<AsrEngineName, AsrEngine>();
  const make = (name: AsrEngineName): AsrEngine => {
    if (name === 'pocketsphinx') {
      if (!config.pocketsphinx) throw new Error('createAsrEngine: pocketsphinx is routed but has no settings (loadAsrConfig makes them)');
      return new PocketsphinxEngine({
        binary: config.pocketsphinx.binary,
        vad: deps.vad ?? new SileroVad(),
        concurrency: config.concurrency,
        tmpDir: deps.tmpDir,
      });
    }
    if (!config.openai) throw new Error('createAsrEngine: the openai engine is routed but has no settings (loadAsrConfig makes them)');
    const { url, apiKey, model, timeoutMs } = config.openai;
    const max = config.chunkSeconds;
    return withChunking(new OpenAiAsrEngine({ url, apiKey, model, timeoutMs, fetch: deps.fetch }), {
      maxChunkSeconds: max,
      minChunkSeconds: Math.round(max / 2),
      targetChunkSeconds: Math.round(max * 0.75),
      concurrency: config.concurrency,
      tmpDir: deps.tmpDir,
    });
  };
  const engine = (name: AsrEngineName): AsrEngine => {
    let e = built.get(name);
    if (!e) built.set(name, (e = make(name)));
    return e;
  };
  const rest = engine(config.engine);
  if (!config.routes.length) return rest;
  const routes = new Map(config.routes.map((r) => [r.language, engine(r.engine)]));
  return new RoutingAsrEngine({ routes, rest, detector: built.get('openai') });
}
