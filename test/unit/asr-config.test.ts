import { describe, expect, it } from 'vitest';
import { languageCode, normalizeLanguage } from '../../src/adapters/asr/languages.js';
import { loadAsrConfig, transcriptionsUrl } from '../../src/config/asr.env.js';
import { ConfigError } from '../../src/config/env.js';

describe('loadAsrConfig', () => {
  it('defaults to the embedded pocketsphinx engine', () => {
    expect(loadAsrConfig({})).toEqual({
      engine: 'pocketsphinx',
      routes: [],
      pocketsphinx: { binary: 'pocketsphinx_batch' },
      chunkSeconds: 120,
      concurrency: 2,
    });
    expect(loadAsrConfig({ CUTROOM_ASR: ' PocketSphinx ', CUTROOM_POCKETSPHINX_BIN: '/opt/ps', CUTROOM_ASR_CONCURRENCY: '4' })).toMatchObject({
      pocketsphinx: { binary: '/opt/ps' },
      concurrency: 4,
    });
  });

  it('reads the openai settings', () => {
    expect(
      loadAsrConfig({ CUTROOM_ASR: 'openai', CUTROOM_ASR_URL: 'http://localhost:8000/v1', CUTROOM_ASR_MODEL: 'Systran/faster-distil-whisper-large-v3' }),
    ).toEqual({
      engine: 'openai',
      routes: [],
      openai: {
        url: 'http://localhost:8000/v1/audio/transcriptions',
        apiKey: undefined,
        model: 'Systran/faster-distil-whisper-large-v3',
        timeoutMs: 600_000,
      },
      chunkSeconds: 120,
      concurrency: 2,
    });
    const openai = loadAsrConfig({ CUTROOM_ASR: 'openai', CUTROOM_ASR_API_KEY: 'sk-x' });
    expect(openai.openai).toMatchObject({ url: 'https://api.openai.com/v1/audio/transcriptions', apiKey: 'sk-x', model: 'whisper-1' });
  });

  it('throws ConfigError on bad values', () => {
    const bad: Array<Record<string, string>> = [
      { CUTROOM_ASR: 'vosk' },
      { CUTROOM_ASR: 'openai' },
      { CUTROOM_ASR: 'openai', CUTROOM_ASR_URL: 'not a url' },
      { CUTROOM_ASR: 'openai', CUTROOM_ASR_URL: 'ftp://host/v1' },
      { CUTROOM_ASR: 'openai', CUTROOM_ASR_API_KEY: 'a\nb' },
      { CUTROOM_ASR: 'openai', CUTROOM_ASR_URL: 'http://h/v1', CUTROOM_ASR_MODEL: 'two words' },
      { CUTROOM_ASR: 'openai', CUTROOM_ASR_URL: 'http://h/v1', CUTROOM_ASR_TIMEOUT_MS: '10' },
      { CUTROOM_ASR_CHUNK_SECONDS: '5' },
      { CUTROOM_ASR_CONCURRENCY: '0' },
      { CUTROOM_ASR_CONCURRENCY: '1.5' },
      { CUTROOM_ASR_ROUTES: 'en=pocketsphinx,*=openai' }, // openai routed without its URL or key
      { CUTROOM_ASR_ROUTES: 'en' },
      { CUTROOM_ASR_ROUTES: 'en=vosk' },
      { CUTROOM_ASR_ROUTES: 'english=pocketsphinx' },
      { CUTROOM_ASR_ROUTES: 'pt=pocketsphinx' },
      { CUTROOM_ASR_ROUTES: 'en=pocketsphinx,EN-us=openai', CUTROOM_ASR_URL: 'http://h/v1' },
    ];
    for (const env of bad) expect(() => loadAsrConfig(env), JSON.stringify(env)).toThrow(ConfigError);
  });

  it('reads CUTROOM_ASR_ROUTES: named languages, the rest from * or CUTROOM_ASR, settings of every engine used', () => {
    const both = loadAsrConfig({ CUTROOM_ASR_ROUTES: ' en = pocketsphinx , *=OpenAI ', CUTROOM_ASR_URL: 'http://localhost:8000/v1' });
    expect(both).toMatchObject({ engine: 'openai', routes: [{ language: 'en', engine: 'pocketsphinx' }], pocketsphinx: { binary: 'pocketsphinx_batch' } });
    expect(both.openai?.url).toBe('http://localhost:8000/v1/audio/transcriptions');
    // no * route: the rest goes to CUTROOM_ASR
    const rest = loadAsrConfig({ CUTROOM_ASR: 'openai', CUTROOM_ASR_ROUTES: 'en-US=pocketsphinx,pt=openai', CUTROOM_ASR_API_KEY: 'sk-x' });
    expect(rest).toMatchObject({
      engine: 'openai',
      routes: [
        { language: 'en', engine: 'pocketsphinx' },
        { language: 'pt', engine: 'openai' },
      ],
    });
    // only pocketsphinx: no openai settings needed
    expect(loadAsrConfig({ CUTROOM_ASR_ROUTES: 'en=pocketsphinx' }).openai).toBeUndefined();
  });

  it('accepts a base URL, a bare host or the endpoint itself', () => {
    expect(transcriptionsUrl('http://localhost:8000/v1/')).toBe('http://localhost:8000/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://localhost:8080')).toBe('http://localhost:8080/v1/audio/transcriptions');
    expect(transcriptionsUrl('https://api.groq.com/openai/v1')).toBe('https://api.groq.com/openai/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://h:1/v1/audio/transcriptions')).toBe('http://h:1/v1/audio/transcriptions');
  });
});

describe('language codes', () => {
  it('normalises asked languages', () => {
    expect(normalizeLanguage('en-US')).toBe('en');
    expect(normalizeLanguage('PT_br')).toBe('pt');
    expect(normalizeLanguage('auto')).toBeUndefined();
    expect(normalizeLanguage('')).toBeUndefined();
    expect(normalizeLanguage(undefined)).toBeUndefined();
  });

  it('reads answered languages as names or codes', () => {
    expect(languageCode('english')).toBe('en');
    expect(languageCode('English')).toBe('en');
    expect(languageCode('mandarin')).toBe('zh');
    expect(languageCode('fr')).toBe('fr');
    expect(languageCode('de-AT')).toBe('de');
    expect(languageCode('klingon language')).toBeUndefined();
    expect(languageCode(42)).toBeUndefined();
  });
});
