import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiChatHighlightScorer, createLlmScorer, type OpenAiChatScorerOptions } from '../../src/adapters/llm/openai-chat.scorer.js';
import { loadLlmConfig } from '../../src/config/llm.env.js';
import { pickHighlights, pickHighlightsWithScorer } from '../../src/domain/highlights/highlight-engine.js';
import type { HighlightClip, HighlightScoreContext } from '../../src/ports/highlights.js';
import { FILLER, STRONG, speak } from '../unit/highlights-fixture.js';

/** A local server speaking the OpenAI chat-completions protocol; each test sets how it answers. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: string }>; response_format?: { type: string }; temperature?: number };
}
type Reply = (seen: Seen, res: http.ServerResponse) => void;

let server: http.Server;
let baseUrl: string;
let requests: Seen[] = [];
let reply: Reply;

const completion = (content: string) => ({
  id: 'chatcmpl-local',
  object: 'chat.completion',
  created: 1,
  model: 'local-model',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') };
      requests.push(seen);
      reply(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
});

const warnings: Array<{ obj: Record<string, unknown>; msg?: string }> = [];
const logger = { warn: (obj: object, msg?: string) => warnings.push({ obj: obj as Record<string, unknown>, msg }) };

function scorer(extra: Partial<OpenAiChatScorerOptions> = {}) {
  const config = loadLlmConfig({
    CUTROOM_LLM_URL: `${baseUrl}/v1`,
    CUTROOM_LLM_MODEL: 'local-model',
    CUTROOM_LLM_API_KEY: 'sk-local',
    CUTROOM_LLM_TIMEOUT_MS: '3000',
  })!;
  return new OpenAiChatHighlightScorer({ ...config, logger, ...extra });
}

const ctx: HighlightScoreContext = { language: 'en', duration: 300, strategy: { min_seconds: 20, max_seconds: 60, max_clips: 3 } };
const clip = (i: number, rating: number): HighlightClip => ({
  start: i * 40,
  end: i * 40 + 30,
  rating,
  title: `Embedded ${i}`,
  text: `Candidate number ${i} says something.`,
  signals: { hook: 0.5 },
});
const candidates = [clip(0, 6), clip(1, 5), clip(2, 4)];

describe('LLM scorer against a local chat-completions server', () => {
  it('sends the model, numbered candidates and the key; blends ratings and uses the titles', async () => {
    reply = (_seen, res) =>
      json(res, 200, completion('```json\n{"clips":[{"index":3,"rating":10,"title":"The best one"},{"index":1,"rating":2,"title":"\\"Meh\\""}]}\n```'));
    const out = await scorer().rescore(candidates, ctx);
    expect(requests).toHaveLength(1);
    const r = requests[0];
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe('Bearer sk-local');
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(r.body.model).toBe('local-model');
    expect(r.body.response_format).toEqual({ type: 'json_object' });
    expect(r.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(r.body.messages[0].content).toMatch(/JSON/);
    for (let i = 0; i < 3; i++) expect(r.body.messages[1].content).toContain(`[${i + 1}] `);
    expect(r.body.messages[1].content).toContain('Candidate number 2 says something.');

    expect(out[2]).toMatchObject({ rating: 7, title: 'The best one', start: 80, end: 110 }); // 0.5 × 4 + 0.5 × 10
    expect(out[2].signals).toEqual({ hook: 0.5, llm: 1 });
    expect(out[0]).toMatchObject({ rating: 4, title: 'Meh' }); // 0.5 × 6 + 0.5 × 2
    expect(out[1]).toEqual(candidates[1]); // not rated by the model: unchanged
    expect(candidates[2].rating).toBe(4); // inputs are not mutated
  });

  it('honours the blend weight and sends only the top maxCandidates', async () => {
    reply = (_seen, res) => json(res, 200, completion('[{"index":1,"rating":10},{"index":2,"rating":0}]'));
    const out = await scorer({ weight: 1, maxCandidates: 2 }).rescore(candidates, ctx);
    expect(requests[0].body.messages[1].content).not.toContain('[3]');
    expect(out.map((c) => c.rating)).toEqual([10, 0, 4]);
    expect(out[0].title).toBe('Embedded 0'); // no title given: the embedded one stays
  });

  it('falls back to the embedded result on bad JSON and logs', async () => {
    warnings.length = 0;
    reply = (_seen, res) => json(res, 200, completion('I think clip 2 is the best, rating 9/10!'));
    expect(await scorer().rescore(candidates, ctx)).toBe(candidates);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/keeping the embedded/);
    expect(String(warnings[0].obj.reason)).toMatch(/no JSON/);
    expect(JSON.stringify(warnings[0])).not.toContain('sk-local');
  });

  it('falls back on JSON without usable ratings', async () => {
    warnings.length = 0;
    reply = (_seen, res) => json(res, 200, completion('{"clips":[{"index":7,"rating":5}]}'));
    expect(await scorer().rescore(candidates, ctx)).toBe(candidates);
    expect(String(warnings[0].obj.reason)).toMatch(/no usable ratings/);
  });

  it('falls back on HTTP 500 and on a body that is not a completion', async () => {
    warnings.length = 0;
    reply = (_seen, res) => json(res, 500, { error: { message: 'model crashed' } });
    expect(await scorer().rescore(candidates, ctx)).toBe(candidates);
    expect(String(warnings[0].obj.reason)).toMatch(/HTTP 500.*model crashed/);
    reply = (_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy login</html>');
    };
    expect(await scorer().rescore(candidates, ctx)).toBe(candidates);
    reply = (_seen, res) => json(res, 200, { choices: [] });
    expect(await scorer().rescore(candidates, ctx)).toBe(candidates);
    expect(warnings).toHaveLength(3);
  });

  it('falls back on a timeout', async () => {
    warnings.length = 0;
    reply = (_seen, res) => setTimeout(() => json(res, 200, completion('[{"index":1,"rating":9}]')), 1500).unref();
    const started = Date.now();
    expect(await scorer({ timeoutMs: 200 }).rescore(candidates, ctx)).toBe(candidates);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(String(warnings[0].obj.reason)).toMatch(/timed out after 200 ms/);
  });

  it('falls back when the server is unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = createLlmScorer(loadLlmConfig({ CUTROOM_LLM_URL: `http://127.0.0.1:${port}`, CUTROOM_LLM_MODEL: 'm' }), logger)!;
    expect(await s.rescore(candidates, ctx)).toBe(candidates);
    expect(createLlmScorer(undefined)).toBeUndefined();
  });

  it('drops JSON mode for servers that refuse response_format, once and for all', async () => {
    reply = (seen, res) => {
      if (seen.body.response_format) json(res, 400, { error: { message: 'Unrecognized request argument supplied: response_format' } });
      else json(res, 200, completion('[{"index":1,"rating":8,"title":"Plain mode"}]'));
    };
    const s = scorer({ apiKey: undefined });
    const out = await s.rescore(candidates, ctx);
    expect(out[0].title).toBe('Plain mode');
    expect(requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false]);
    expect(requests[0].headers.authorization).toBeUndefined();
    await s.rescore(candidates, ctx);
    expect(requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false, false]);
  });

  it('re-ranks the engine picks end to end', async () => {
    const a = speak([...FILLER, ...FILLER]);
    const b = speak(STRONG, { start: a.end + 0.5 });
    const input = { words: [...a.words, ...b.words], duration: b.end + 1, strategy: { max_clips: 3 } };
    const embedded = pickHighlights(input);
    // the model loves the last candidate it is shown and dislikes the rest
    reply = (seen, res) => {
      const n = (seen.body.messages[1].content.match(/^\[\d+\]/gm) ?? []).length;
      const ratings = Array.from({ length: n }, (_, i) => ({ index: i + 1, rating: i === n - 1 ? 10 : 0, title: `LLM ${i + 1}` }));
      json(res, 200, completion(JSON.stringify({ clips: ratings })));
    };
    const picked = await pickHighlightsWithScorer(input, scorer({ weight: 1, maxCandidates: 5 }));
    expect(picked).toHaveLength(3);
    expect(picked[0]).toMatchObject({ rating: 10, title: 'LLM 5' });
    expect(picked[0].title).not.toBe(embedded[0].title);
    // and when the server fails, the embedded picks come back untouched
    reply = (_seen, res) => json(res, 500, {});
    expect(await pickHighlightsWithScorer(input, scorer({ maxCandidates: 5 }))).toEqual(embedded);
  });

  describe('with a prompt, sub-scores, reasons and matched words', () => {
    const details = { hook: 6, coherence: 4, value: 2, delivery: 8 };
    const steeredCandidates = [0, 1, 2].map((i) => ({
      ...clip(i, 6 - i),
      text: i === 1 ? 'The harbour lights appeared through the fog at dawn.' : `Candidate number ${i} says something.`,
      score_details: details,
      reason: `About candidate ${i}: it is a complete thought.`,
      matched: [] as string[],
    }));
    const steeredCtx: HighlightScoreContext = { ...ctx, prompt: 'moments at the "port"', keywords: ['harbour', 'fog'] };

    it('sends the prompt and keywords, and takes valid sub-scores (blended), reasons and the matched words the clip says', async () => {
      reply = (_seen, res) =>
        json(
          res,
          200,
          completion(
            JSON.stringify({
              clips: [
                {
                  index: 2,
                  rating: 9,
                  title: 'Lights in the fog',
                  score_details: { hook: 10, coherence: 8, value: '6', delivery: 4 },
                  reason: 'A harbour at dawn:\n vivid and calm.',
                  matched: ['Harbour', 'fog', 'lighthouse'],
                },
              ],
            }),
          ),
        );
      const out = await scorer().rescore(steeredCandidates, steeredCtx);
      const system = requests[0].body.messages[0].content;
      expect(system).toContain('"moments at the \'port\'"');
      expect(system).toContain('"harbour", "fog"');
      expect(system).toMatch(/score_details.*reason.*matched/);
      expect(out[1]).toMatchObject({
        rating: 7, // 0.5 × 5 + 0.5 × 9
        title: 'Lights in the fog',
        score_details: { hook: 8, coherence: 6, value: 4, delivery: 6 },
        reason: 'A harbour at dawn: vivid and calm.',
        matched: ['harbour', 'fog'], // "lighthouse" is not said in the clip
      });
      expect(out[0]).toEqual(steeredCandidates[0]);
      // Without a prompt nothing about one is sent.
      await scorer().rescore(steeredCandidates, ctx);
      expect(requests[1].body.messages[0].content).not.toContain('looking for');
    });

    it('checks each field on its own: a malformed one keeps the engine’s, the valid ones are taken', async () => {
      const cases: Array<[object, object]> = [
        [
          { score_details: { hook: 11, coherence: 8, value: 6, delivery: 4 }, reason: 'Lights at dawn.', matched: ['harbour'] },
          { score_details: details, reason: 'Lights at dawn.', matched: ['harbour'] },
        ],
        [
          { score_details: { hook: 5, coherence: 8, value: 6 }, reason: 42, matched: ['fog', 7] },
          { score_details: details, reason: steeredCandidates[1].reason, matched: ['fog'] },
        ],
        [
          { score_details: [1, 2, 3, 4], reason: 'x'.repeat(301), matched: ['submarine', 'harbour lights'] },
          { score_details: details, reason: steeredCandidates[1].reason, matched: ['harbour lights'] },
        ],
        [
          { score_details: { hook: 'high', coherence: 8, value: 6, delivery: 4 }, reason: '', matched: 'harbour' },
          { score_details: details, reason: steeredCandidates[1].reason, matched: [] },
        ],
        [
          { score_details: { hook: '2', coherence: 8, value: 6, delivery: 4 }, reason: null },
          { score_details: { hook: 4, coherence: 6, value: 4, delivery: 6 }, reason: steeredCandidates[1].reason, matched: [] },
        ],
      ];
      for (const [answer, expected] of cases) {
        reply = (_seen, res) => json(res, 200, completion(JSON.stringify({ clips: [{ index: 2, rating: 9, ...answer }] })));
        const out = await scorer().rescore(steeredCandidates, steeredCtx);
        expect(out[1], JSON.stringify(answer)).toMatchObject({ rating: 7, ...expected });
      }
    });

    it('end to end: titles stay different when the model gives every clip the same one', async () => {
      const a = speak([...FILLER, ...FILLER]);
      const b = speak(STRONG, { start: a.end + 0.5 });
      const input = { words: [...a.words, ...b.words], duration: b.end + 1, strategy: { max_clips: 4 } };
      reply = (seen, res) => {
        const n = (seen.body.messages[1].content.match(/^\[\d+\]/gm) ?? []).length;
        json(res, 200, completion(JSON.stringify({ clips: Array.from({ length: n }, (_, i) => ({ index: i + 1, rating: 5, title: 'Same title' })) })));
      };
      const picked = await pickHighlightsWithScorer(input, scorer({ maxCandidates: 5 }));
      expect(picked).toHaveLength(4);
      expect(new Set(picked.map((c) => c.title.toLowerCase())).size).toBe(4);
      expect(picked.filter((c) => c.title === 'Same title')).toHaveLength(1);
    });
  });
});
