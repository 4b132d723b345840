import { describe, expect, it } from 'vitest';
import { createAsrEngine } from '../../src/adapters/asr/asr.factory.js';
import { RoutingAsrEngine } from '../../src/adapters/asr/routing.asr.js';
import { loadAsrConfig } from '../../src/config/asr.env.js';
import { AsrError, type AsrEngine, type AsrTranscribeOptions } from '../../src/ports/asr.js';
import type { Vad } from '../../src/ports/vad.js';

/** An engine that records what it was asked and answers the language asked (or `detected` for auto). */
function fake(name: string, languages: string[] | 'any', detected = 'fr') {
  const calls: Array<string | undefined> = [];
  const engine: AsrEngine = {
    name,
    supportsLanguage: (l) => languages === 'any' || l === 'auto' || languages.includes(l.slice(0, 2).toLowerCase()),
    async transcribe(_wav: string, opts: AsrTranscribeOptions = {}) {
      calls.push(opts.language);
      if (opts.language && !engine.supportsLanguage(opts.language)) throw new AsrError('ASR_LANGUAGE_UNSUPPORTED', name);
      return { language: opts.language?.slice(0, 2) ?? detected, words: [], segments: [] };
    },
  };
  return { engine, calls };
}

describe('RoutingAsrEngine', () => {
  it("sends a routed language to its engine, any other to the rest, and reports the engine's language", async () => {
    const ps = fake('pocketsphinx', ['en']);
    const hosted = fake('openai', 'any', 'es');
    const asr = new RoutingAsrEngine({ routes: new Map([['en', ps.engine]]), rest: hosted.engine, detector: hosted.engine });
    expect(asr.name).toBe('routes(en=pocketsphinx,*=openai)');
    expect((await asr.transcribe('a.wav', { language: 'en-US' })).language).toBe('en');
    expect((await asr.transcribe('a.wav', { language: 'pt' })).language).toBe('pt');
    expect(ps.calls).toEqual(['en-US']);
    expect(hosted.calls).toEqual(['pt']);
    // auto: the hosted engine detects
    expect((await asr.transcribe('a.wav', { language: 'auto' })).language).toBe('es');
    expect((await asr.transcribe('a.wav', {})).language).toBe('es');
    expect(hosted.calls.slice(1)).toEqual([undefined, undefined]);
    for (const l of ['en', 'pt', 'auto', 'de']) expect(asr.supportsLanguage(l)).toBe(true);
  });

  it('reads auto as English without a detector, and answers for the routes', async () => {
    const ps = fake('pocketsphinx', ['en']);
    const asr = new RoutingAsrEngine({ routes: new Map([['en', ps.engine]]), rest: ps.engine });
    expect((await asr.transcribe('a.wav', { language: 'auto' })).language).toBe('en');
    expect(ps.calls).toEqual(['en']);
    expect(asr.supportsLanguage('auto')).toBe(true);
    expect(asr.supportsLanguage('en')).toBe(true);
    expect(asr.supportsLanguage('pt')).toBe(false);
    await expect(asr.transcribe('a.wav', { language: 'pt' })).rejects.toMatchObject({ code: 'ASR_LANGUAGE_UNSUPPORTED' });
  });

  it('a hosted engine for one language only: the rest is refused where the rest engine cannot', () => {
    const ps = fake('pocketsphinx', ['en']);
    const hosted = fake('openai', ['pt', 'en']);
    const asr = new RoutingAsrEngine({ routes: new Map([['pt', hosted.engine]]), rest: ps.engine, detector: hosted.engine });
    expect(asr.supportsLanguage('pt')).toBe(true);
    expect(asr.supportsLanguage('fr')).toBe(false);
    expect(asr.supportsLanguage('en')).toBe(true);
  });
});

describe('createAsrEngine', () => {
  const vad: Vad = { name: 'none', detect: async () => [], close: async () => {} };

  it('builds one engine without routes, a router with them', () => {
    expect(createAsrEngine(loadAsrConfig({}), { vad }).name).toBe('pocketsphinx');
    expect(createAsrEngine(loadAsrConfig({ CUTROOM_ASR: 'openai', CUTROOM_ASR_URL: 'http://127.0.0.1:9/v1' })).name).toBe('openai');
    const routed = createAsrEngine(loadAsrConfig({ CUTROOM_ASR_ROUTES: 'en=pocketsphinx,*=openai', CUTROOM_ASR_URL: 'http://127.0.0.1:9/v1' }), { vad });
    expect(routed.name).toBe('routes(en=pocketsphinx,*=openai)');
    expect(routed.supportsLanguage('pt')).toBe(true);
    const english = createAsrEngine(loadAsrConfig({ CUTROOM_ASR_ROUTES: 'en=pocketsphinx' }), { vad });
    expect(english.supportsLanguage('pt')).toBe(false);
    expect(english.supportsLanguage('auto')).toBe(true);
  });
});
