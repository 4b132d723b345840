import { describe, expect, it } from 'vitest';
import { buildMessages, cleanLlmTitle, extractJson, parseRatings } from '../../src/adapters/llm/openai-chat.scorer.js';
import { ConfigError } from '../../src/config/env.js';
import { chatCompletionsUrl, loadLlmConfig } from '../../src/config/llm.env.js';
import type { HighlightClip } from '../../src/ports/highlights.js';

describe('LLM scorer: tolerant JSON', () => {
  it('finds JSON in fences, prose and <think> blocks', () => {
    expect(extractJson('{"clips":[]}')).toEqual({ clips: [] });
    expect(extractJson('```json\n[{"index":1,"rating":7}]\n```')).toEqual([{ index: 1, rating: 7 }]);
    expect(extractJson('Sure! Here you go:\n{"clips":[{"index":2,"rating":5,"title":"a {b} [c]"}]}\nHope it helps.')).toEqual({
      clips: [{ index: 2, rating: 5, title: 'a {b} [c]' }],
    });
    expect(extractJson('<think>maybe {"no": 1</think>[{"index":1,"rating":3}]')).toEqual([{ index: 1, rating: 3 }]);
    expect(extractJson('first {broken, then {"ok":true}')).toEqual({ ok: true });
    expect(() => extractJson('no json here')).toThrow(/no JSON/);
    expect(() => extractJson('{"clips": [')).toThrow();
  });

  it('reads ratings in the shapes models actually answer', () => {
    expect(
      parseRatings(
        {
          clips: [
            { index: 1, rating: 8, title: 'A' },
            { index: 2, rating: '6.5' },
          ],
        },
        2,
      ),
    ).toEqual([
      { index: 1, rating: 8, title: 'A' },
      { index: 2, rating: 6.5, title: undefined },
    ]);
    expect(parseRatings([{ index: 1, score: 4 }], 1)).toEqual([{ index: 1, rating: 4, title: undefined }]);
    expect(parseRatings({ results: [{ id: 3, rating: 9 }] }, 3)).toEqual([{ index: 3, rating: 9, title: undefined }]);
    expect(parseRatings({ '1': { rating: 2, title: 'x' } }, 1)).toEqual([{ index: 1, rating: 2, title: 'x' }]);
    expect(parseRatings({ index: 1, rating: 5 }, 1)).toEqual([{ index: 1, rating: 5, title: undefined }]);
    // zero-based numbering is shifted; out-of-range, duplicate and invalid entries are dropped
    expect(
      parseRatings(
        [
          { index: 0, rating: 1 },
          { index: 1, rating: 2 },
        ],
        3,
      ).map((r) => r.index),
    ).toEqual([1, 2]);
    expect(
      parseRatings(
        [{ index: 1, rating: 11 }, { index: 2, rating: -1 }, { index: 9, rating: 5 }, { index: 'x', rating: 5 }, { index: 3, rating: 'high' }, null, 7],
        3,
      ),
    ).toEqual([]);
    expect(
      parseRatings(
        [
          { index: 1, rating: 5 },
          { index: 1, rating: 9 },
        ],
        1,
      ),
    ).toEqual([{ index: 1, rating: 5, title: undefined }]);
    expect(parseRatings('text', 1)).toEqual([]);
  });

  it('cleans titles', () => {
    expect(cleanLlmTitle('  "**Why 90% of restaurants fail**"\n')).toBe('Why 90% of restaurants fail');
    expect(cleanLlmTitle('x '.repeat(50)).length).toBeLessThanOrEqual(60);
  });

  it('numbers the candidates in the prompt and names the language', () => {
    const clip = (start: number, text: string): HighlightClip => ({ start, end: start + 30, rating: 5, title: 't', text, signals: {} });
    const msgs = buildMessages([clip(0, 'first text'), clip(75, 'y'.repeat(3000))], {
      language: 'de',
      duration: 200,
      strategy: { min_seconds: 20, max_seconds: 60, max_clips: 3 },
    });
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user']);
    expect(msgs[0].content).toMatch(/JSON/);
    expect(msgs[0].content).toMatch(/\(de\)/);
    expect(msgs[1].content).toContain('[1] (0:00–0:30, 30 s)\nfirst text');
    expect(msgs[1].content).toContain('[2] (1:15–1:45, 30 s)');
    expect(msgs[1].content.length).toBeLessThan(2000);
  });
});

describe('LLM scorer: configuration', () => {
  it('is off without CUTROOM_LLM_URL', () => {
    expect(loadLlmConfig({})).toBeUndefined();
    expect(loadLlmConfig({ CUTROOM_LLM_URL: '  ', CUTROOM_LLM_MODEL: 'm' })).toBeUndefined();
  });

  it('reads and defaults the settings', () => {
    expect(loadLlmConfig({ CUTROOM_LLM_URL: 'http://localhost:11434/v1', CUTROOM_LLM_MODEL: 'llama3.1:8b' })).toEqual({
      url: 'http://localhost:11434/v1/chat/completions',
      apiKey: undefined,
      model: 'llama3.1:8b',
      timeoutMs: 30000,
      weight: 0.5,
      maxCandidates: 12,
    });
    expect(
      loadLlmConfig({
        CUTROOM_LLM_URL: 'https://api.openai.com/v1/chat/completions',
        CUTROOM_LLM_MODEL: 'gpt-4o-mini',
        CUTROOM_LLM_API_KEY: 'sk-test',
        CUTROOM_LLM_TIMEOUT_MS: '5000',
        CUTROOM_LLM_WEIGHT: '0.7',
        CUTROOM_LLM_MAX_CANDIDATES: '20',
      }),
    ).toMatchObject({ url: 'https://api.openai.com/v1/chat/completions', apiKey: 'sk-test', timeoutMs: 5000, weight: 0.7, maxCandidates: 20 });
  });

  it('normalises the endpoint URL', () => {
    expect(chatCompletionsUrl('http://localhost:11434')).toBe('http://localhost:11434/v1/chat/completions');
    expect(chatCompletionsUrl('http://localhost:8000/v1/')).toBe('http://localhost:8000/v1/chat/completions');
    expect(chatCompletionsUrl('https://example.com/openai/v1/chat/completions/')).toBe('https://example.com/openai/v1/chat/completions');
    expect(chatCompletionsUrl('https://example.com/api')).toBe('https://example.com/api/chat/completions');
  });

  it('throws ConfigError on bad values', () => {
    const base = { CUTROOM_LLM_URL: 'http://127.0.0.1:1/v1', CUTROOM_LLM_MODEL: 'm' };
    const bad: Array<Record<string, string>> = [
      { CUTROOM_LLM_URL: 'not a url', CUTROOM_LLM_MODEL: 'm' },
      { CUTROOM_LLM_URL: 'ftp://host/v1', CUTROOM_LLM_MODEL: 'm' },
      { CUTROOM_LLM_URL: 'http://host/v1' },
      { ...base, CUTROOM_LLM_TIMEOUT_MS: 'soon' },
      { ...base, CUTROOM_LLM_TIMEOUT_MS: '10' },
      { ...base, CUTROOM_LLM_TIMEOUT_MS: '1500.5' },
      { ...base, CUTROOM_LLM_WEIGHT: '1.5' },
      { ...base, CUTROOM_LLM_MAX_CANDIDATES: '0' },
      { ...base, CUTROOM_LLM_API_KEY: 'a\nb' },
    ];
    for (const env of bad) expect(() => loadLlmConfig(env), JSON.stringify(env)).toThrow(ConfigError);
  });
});
