import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAsrEngine } from '../../src/adapters/asr/asr.factory.js';
import { OpenAiAsrEngine, parseVerboseJson, retryAfterMs } from '../../src/adapters/asr/openai.asr.js';
import { parseWavHeader, wavHeader } from '../../src/adapters/asr/wav.js';
import { loadAsrConfig } from '../../src/config/asr.env.js';
import { AsrError } from '../../src/ports/asr.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { makeSpeechWav } from '../helpers/speech-fixtures.js';
import { readyVideo } from '../helpers/videos.js';

// The openai adapter against a local server that speaks the /v1/audio/transcriptions protocol.

interface Upload {
  fields: Record<string, string[]>;
  file?: { filename: string; contentType: string; data: Buffer };
  headers: http.IncomingHttpHeaders;
}

/** Parses multipart/form-data as a server would (RFC 7578). */
function parseMultipart(body: Buffer, contentType: string): Omit<Upload, 'headers'> {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) throw new Error(`no boundary in ${contentType}`);
  const delim = Buffer.from(`--${m[1] ?? m[2]}`);
  const fields: Record<string, string[]> = {};
  let file: Upload['file'];
  let pos = body.indexOf(delim);
  while (pos >= 0) {
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    const part = body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const sep = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, sep).toString();
    const content = part.subarray(sep + 4);
    const name = /name="([^"]*)"/.exec(head)![1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    if (filename !== undefined) file = { filename, contentType: /content-type:\s*(\S+)/i.exec(head)?.[1] ?? '', data: content };
    else (fields[name] ??= []).push(content.toString());
    pos = next;
  }
  return { fields, file };
}

type Handler = (u: Upload, res: http.ServerResponse, n: number) => void;

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** What OpenAI answers for verbose_json with word + segment granularities. */
const openAiAnswer = {
  task: 'transcribe',
  language: 'english',
  duration: 6,
  text: 'Hello there. How are you?',
  words: [
    { word: 'Hello', start: 0.5, end: 0.9 },
    { word: 'there.', start: 0.9, end: 1.4 },
    { word: 'How', start: 3.0, end: 3.2 },
    { word: 'are', start: 3.2, end: 3.4 },
    { word: 'you?', start: 3.4, end: 3.9 },
  ],
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0.5,
      end: 1.4,
      text: ' Hello there.',
      tokens: [1, 2],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1,
      no_speech_prob: 0.01,
    },
    {
      id: 1,
      seek: 0,
      start: 3.0,
      end: 3.9,
      text: ' How are you?',
      tokens: [3, 4],
      temperature: 0,
      avg_logprob: -0.3,
      compression_ratio: 1,
      no_speech_prob: 0.02,
    },
  ],
};

describe('openai ASR adapter against a local server', () => {
  let server: http.Server;
  let base: string;
  let handler: Handler;
  let uploads: Upload[];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-asr-openai-'));
  const wav = path.join(dir, 'speech.wav');
  const pcm = randomBytes(16000 * 2 * 6); // 6 s of noise: bytes that must arrive intact
  fs.writeFileSync(wav, Buffer.concat([wavHeader(pcm.length), pcm]));

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return json(res, 404, { error: { message: 'not found' } });
        const u = { ...parseMultipart(Buffer.concat(chunks), req.headers['content-type'] ?? ''), headers: req.headers };
        uploads.push(u);
        handler(u, res, uploads.length);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    uploads = [];
    handler = (_u, res) => json(res, 200, openAiAnswer);
  });

  const engine = (o: Partial<ConstructorParameters<typeof OpenAiAsrEngine>[0]> = {}) =>
    new OpenAiAsrEngine({ url: `${base}/audio/transcriptions`, apiKey: 'sk-test', model: 'whisper-1', retryBaseMs: 5, ...o });

  it('posts the WAV, model, verbose_json and both granularities with the key, and parses the answer', async () => {
    const r = await engine().transcribe(wav, { language: 'en-US' });
    expect(uploads).toHaveLength(1);
    const u = uploads[0];
    expect(u.headers.authorization).toBe('Bearer sk-test');
    expect(u.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(u.fields.model).toEqual(['whisper-1']);
    expect(u.fields.response_format).toEqual(['verbose_json']);
    expect(u.fields['timestamp_granularities[]']).toEqual(['word', 'segment']);
    expect(u.fields.language).toEqual(['en']);
    expect(u.file!.filename).toBe('speech.wav');
    expect(u.file!.contentType).toBe('audio/wav');
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(u.file!.data)).toBe(sha(fs.readFileSync(wav)));
    expect(parseWavHeader(u.file!.data, u.file!.data.length).duration).toBe(6);

    expect(r.language).toBe('en');
    expect(r.segments.map((s) => s.text)).toEqual(['Hello there.', 'How are you?']);
    expect(r.segments[1].words.map((w) => w.text)).toEqual(['How', 'are', 'you?']);
    expect(r.words).toHaveLength(5);
    expect(r.words[2]).toEqual({ start: 3, end: 3.2, text: 'How' });
  });

  it('sends no language for auto and no Authorization without a key', async () => {
    await engine({ apiKey: undefined }).transcribe(wav, { language: 'auto' });
    expect(uploads[0].fields.language).toBeUndefined();
    expect(uploads[0].headers.authorization).toBeUndefined();
  });

  it('spreads segment times over words when the server gives no word timestamps', async () => {
    handler = (_u, res) =>
      json(res, 200, { language: 'en', duration: 6, text: 'one two three four', segments: [{ start: 1, end: 3, text: ' one two three four' }] });
    const r = await engine().transcribe(wav, {});
    expect(r.words.map((w) => w.text)).toEqual(['one', 'two', 'three', 'four']);
    expect(r.words[0].start).toBe(1);
    expect(r.words[3].end).toBe(3);
    for (let i = 1; i < r.words.length; i++) expect(r.words[i].start).toBeCloseTo(r.words[i - 1].end, 3);
  });

  it('reads word timestamps nested in segments (whisper.cpp, faster-whisper)', async () => {
    handler = (_u, res) =>
      json(res, 200, {
        language: 'german',
        segments: [
          {
            start: 0,
            end: 2,
            text: 'Guten Tag',
            words: [
              { word: ' Guten', start: 0.1, end: 0.6, probability: 0.91 },
              { word: ' Tag', start: 0.6, end: 1.2, probability: 0.8 },
            ],
          },
        ],
      });
    const r = await engine().transcribe(wav, { language: 'de' });
    expect(r.language).toBe('de');
    expect(r.words).toEqual([
      { start: 0.1, end: 0.6, text: 'Guten', confidence: 0.91 },
      { start: 0.6, end: 1.2, text: 'Tag', confidence: 0.8 },
    ]);
  });

  it('maps 401 and 403 to ASR_AUTH_FAILED without retrying', async () => {
    for (const status of [401, 403]) {
      uploads = [];
      handler = (_u, res) => json(res, status, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      const err = await engine()
        .transcribe(wav, {})
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AsrError);
      expect(err).toMatchObject({ code: 'ASR_AUTH_FAILED', status, retryable: false });
      expect((err as Error).message).toContain('Incorrect API key provided');
      expect((err as Error).message).not.toContain('sk-test');
      expect(uploads).toHaveLength(1);
    }
  });

  it('retries after a 503 (honouring Retry-After) and after 429s, then succeeds', async () => {
    handler = (_u, res, n) => (n === 1 ? json(res, 503, { error: { message: 'loading model' } }, { 'retry-after': '0.2' }) : json(res, 200, openAiAnswer));
    const t0 = Date.now();
    const r = await engine().transcribe(wav, {});
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(uploads).toHaveLength(2);
    expect(uploads[1].file!.data.length).toBe(uploads[0].file!.data.length);
    expect(r.words).toHaveLength(5);

    uploads = [];
    handler = (_u, res, n) => (n <= 2 ? json(res, 429, { error: { message: 'Rate limit reached' } }) : json(res, 200, openAiAnswer));
    await engine().transcribe(wav, {});
    expect(uploads).toHaveLength(3);
  });

  it('gives up with ASR_UNAVAILABLE / ASR_RATE_LIMITED after the retries', async () => {
    handler = (_u, res) => json(res, 500, { detail: 'CUDA out of memory' });
    const err = await engine({ maxRetries: 2 })
      .transcribe(wav, {})
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ASR_UNAVAILABLE', status: 500, retryable: true });
    expect((err as Error).message).toContain('CUDA out of memory');
    expect(uploads).toHaveLength(3);

    uploads = [];
    handler = (_u, res) => json(res, 429, { error: { message: 'slow down' } });
    await expect(engine({ maxRetries: 1 }).transcribe(wav, {})).rejects.toMatchObject({ code: 'ASR_RATE_LIMITED' });
    expect(uploads).toHaveLength(2);
  });

  it('rejects other 4xx at once, bad JSON, unreachable servers and timeouts', async () => {
    handler = (_u, res) => json(res, 400, { error: { message: "Invalid model 'whisper-9'" } });
    await expect(engine().transcribe(wav, {})).rejects.toMatchObject({ code: 'ASR_REQUEST_REJECTED', status: 400 });
    expect(uploads).toHaveLength(1);

    handler = (_u, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    };
    await expect(engine().transcribe(wav, {})).rejects.toMatchObject({ code: 'ASR_BAD_RESPONSE' });

    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(
      new OpenAiAsrEngine({ url: `http://127.0.0.1:${port}/v1/audio/transcriptions`, model: 'm', retryBaseMs: 5, maxRetries: 1 }).transcribe(wav, {}),
    ).rejects.toMatchObject({
      code: 'ASR_UNAVAILABLE',
    });

    handler = () => {}; // never answers
    await expect(engine({ timeoutMs: 300, maxRetries: 0 }).transcribe(wav, {})).rejects.toMatchObject({
      code: 'ASR_UNAVAILABLE',
      message: expect.stringContaining('timed out'),
    });
  });

  it('stops when the caller aborts', async () => {
    handler = () => {};
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled by user')), 100);
    await expect(engine().transcribe(wav, { signal: ac.signal })).rejects.toThrow('cancelled by user');
  });

  it('through the factory: long audio goes up in chunks, the detected language is reused, times come back absolute', async () => {
    const long = path.join(dir, 'long.wav');
    // 50 s: noise with quiet gaps every 10 s, so chunks are cut in the gaps
    const n = 50 * 16000;
    const data = Buffer.alloc(n * 2);
    for (let i = 0; i < n; i++) if ((i / 16000) % 10 > 1) data.writeInt16LE(((i * 7919) % 8000) - 4000, i * 2);
    fs.writeFileSync(long, Buffer.concat([wavHeader(data.length), data]));
    handler = (u, res) => {
      const d = parseWavHeader(u.file!.data, u.file!.data.length).duration;
      json(res, 200, {
        language: 'english',
        duration: d,
        words: [
          { word: 'start', start: 0.1, end: 0.3 },
          { word: 'end', start: d - 0.3, end: d - 0.1 },
        ],
      });
    };
    const env = {
      CUTROOM_ASR: 'openai',
      CUTROOM_ASR_URL: base,
      CUTROOM_ASR_API_KEY: 'sk-test',
      CUTROOM_ASR_MODEL: 'Systran/faster-whisper-small',
      CUTROOM_ASR_CHUNK_SECONDS: '20',
    };
    const asr = createAsrEngine(loadAsrConfig(env));
    expect(asr.name).toBe('openai');
    expect(asr.supportsLanguage('fr')).toBe(true);
    expect(asr.supportsLanguage('xx')).toBe(false);
    const r = await asr.transcribe(long, {});
    expect(uploads.length).toBeGreaterThanOrEqual(3);
    expect(uploads.every((u) => u.fields.model[0] === 'Systran/faster-whisper-small')).toBe(true);
    expect(uploads[0].fields.language).toBeUndefined();
    expect(uploads.slice(1).every((u) => u.fields.language?.[0] === 'en')).toBe(true);
    expect(r.language).toBe('en');
    const starts = r.words.filter((w) => w.text === 'start').map((w) => w.start);
    const ends = r.words.filter((w) => w.text === 'end').map((w) => w.end);
    expect(starts[0]).toBeCloseTo(0.1, 3);
    expect(ends[ends.length - 1]).toBeCloseTo(49.9, 2);
    const sizes = uploads.map((u) => parseWavHeader(u.file!.data, u.file!.data.length).duration).sort((a, b) => a - b);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeCloseTo(50, 2);
    for (const s of sizes) expect(s).toBeLessThanOrEqual(20);
    for (let i = 1; i < r.words.length; i++) expect(r.words[i].start).toBeGreaterThanOrEqual(r.words[i - 1].start);
  });

  describe('routing (CUTROOM_ASR_ROUTES): pocketsphinx for English, the local server for the rest', () => {
    let t: TestApp;
    let english: TestApp;
    let speech: string;
    beforeAll(async () => {
      speech = (await makeSpeechWav(path.join(dir, 'route.wav'), [{ silence: 0.3 }, { testdata: 'austen0880' }, { silence: 0.5 }])).path;
      t = await createTestApp({
        workers: true,
        env: { CUTROOM_ASR_ROUTES: 'en=pocketsphinx,*=openai', CUTROOM_ASR_URL: base, CUTROOM_ASR_API_KEY: 'sk-test' },
      });
      english = await createTestApp({ startQueue: true, env: { CUTROOM_ASR_ROUTES: 'en=pocketsphinx' } });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await english?.close();
    });

    /** Uploads `speech`, asks for a transcription in `language`, waits for it; the transcript. */
    async function transcribe(app: TestApp, key: string, language: string) {
      const bytes = fs.readFileSync(speech);
      const up = await app.api(key, 'POST', '/transcriptions/upload', { file_name: 'route.wav', file_size: bytes.length, content_type: 'audio/wav' });
      const u = new URL(up.body.upload_url);
      expect(
        (await app.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': 'audio/wav' }, payload: bytes })).statusCode,
      ).toBe(200);
      const created = await app.api(key, 'POST', '/transcriptions', { media_id: up.body.media_id, source_language: language });
      expect(created.status).toBe(202);
      for (let i = 0; i < 600; i++) {
        const row = (await app.api(key, 'GET', `/transcriptions/${created.body.id}`)).body;
        if (row.status !== 'processing') {
          expect(row.status).toBe('ready');
          return { row, transcript: (await app.api(key, 'GET', `/transcriptions/${created.body.id}/transcript`)).body };
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error('transcription still processing');
    }

    it("sends pt to the server, en to pocketsphinx, auto to the server's detection; the transcript reports the language used", async () => {
      const ws = await t.workspace({ credits: 100 });
      handler = (u, res) =>
        json(res, 200, {
          language: u.fields.language?.[0] ?? 'portuguese',
          duration: 4,
          words: [
            { word: 'Olá', start: 0.5, end: 0.9 },
            { word: 'mundo.', start: 0.9, end: 1.4 },
          ],
        });
      const pt = await transcribe(t, ws.key, 'pt');
      expect(uploads).toHaveLength(1);
      expect(uploads[0].fields.language).toEqual(['pt']);
      expect(pt.row.language).toBe('pt');
      expect(pt.transcript).toMatchObject({ language: 'pt', cues: [{ text: 'Olá mundo.' }] });

      const en = await transcribe(t, ws.key, 'en');
      expect(uploads).toHaveLength(1); // pocketsphinx, not the server
      expect(en.transcript.language).toBe('en');
      expect(en.transcript.cues.map((c: { text: string }) => c.text).join(' ')).toMatch(/young man/);

      // another workspace: an earlier transcript of the same bytes would answer `auto` from the cache
      const auto = await transcribe(t, (await t.workspace({ credits: 100 })).key, 'auto');
      expect(uploads).toHaveLength(2);
      expect(uploads[1].fields.language).toBeUndefined();
      expect(auto.row).toMatchObject({ source_language: 'auto', language: 'pt' });
    }, 240_000);

    it('with English routes only: pt is refused at creation, 400 VALIDATION_ERROR naming source_language, nothing charged', async () => {
      const ws = await english.workspace({ credits: 20 });
      const refusal = { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'source_language', rule: 'unsupported_by_engine' }] } };
      const bytes = fs.readFileSync(speech);
      const up = await english.api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'route.wav', file_size: bytes.length, content_type: 'audio/wav' });
      const u = new URL(up.body.upload_url);
      await english.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': 'audio/wav' }, payload: bytes });
      const trn = await english.api(ws.key, 'POST', '/transcriptions', { media_id: up.body.media_id, source_language: 'pt' });
      expect({ status: trn.status, body: trn.body }).toEqual({ status: 400, body: refusal });

      const video = await readyVideo(english, ws.id, await makeVideo(path.join(dir, 'route.mp4'), { seconds: 70, width: 160, height: 90, fps: 5 }));
      const clip = await english.api(ws.key, 'POST', '/clips', { video_id: video, source_language: 'pt' });
      expect({ status: clip.status, body: clip.body }).toEqual({ status: 400, body: refusal });
      expect((await english.api(ws.key, 'GET', '/balance')).body.balance).toBe(20);
      expect((await english.api(ws.key, 'POST', '/clips', { video_id: video, source_language: 'en' })).status).toBe(201);
    }, 120_000);
  });
});

describe('parseVerboseJson and helpers', () => {
  it('builds segments from words alone, and a single segment from text + duration', () => {
    const r = parseVerboseJson({
      language: 'en',
      words: [
        { word: 'Hi.', start: 0, end: 0.3 },
        { word: 'Again', start: 2, end: 2.4 },
      ],
    });
    expect(r.segments.map((s) => s.text)).toEqual(['Hi.', 'Again']);
    const t = parseVerboseJson({ text: 'just text here', duration: 3 }, 'en');
    expect(t.language).toBe('en');
    expect(t.segments).toHaveLength(1);
    expect(t.words.map((w) => w.text)).toEqual(['just', 'text', 'here']);
    expect(parseVerboseJson({ text: '' }).words).toEqual([]);
    expect(parseVerboseJson({ text: '' }).language).toBe('und');
  });

  it('refuses answers that are not transcriptions', () => {
    for (const body of [null, [], 'text', { foo: 1 }]) expect(() => parseVerboseJson(body)).toThrow(AsrError);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
  });
});
