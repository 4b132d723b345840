import { describe, expect, it } from 'vitest';
import { Cutroom, CutroomError, backoffMs, defaultPollIntervalMs, ok, retryAfterMs } from '../../sdk/src/index.js';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A client on a scripted fetch: each request gets the next answer; `sent` and `slept` record what it did. */
function scripted(answers: Array<Response | Error>, opts: { retry?: { retries?: number; maxDelayMs?: number }; pollIntervalMs?: () => number } = {}) {
  const sent: Sent[] = [];
  const slept: number[] = [];
  const cutroom = new Cutroom({
    baseUrl: 'https://cutroom.test/api/v1/',
    apiKey: 'key_test.secret',
    workspaceId: 'ws_two',
    retry: opts.retry,
    pollIntervalMs: opts.pollIntervalMs,
    sleep: async (ms) => {
      slept.push(ms);
    },
    fetch: async (request) => {
      sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
      const next = answers.shift();
      if (!next) throw new Error('no answer scripted');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { cutroom, sent, slept };
}

const submission = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'sub_1',
  video_id: 'vid_1',
  status,
  credits_charged: 2,
  error_code: null,
  clips_count: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('Cutroom client: calls, errors, retries', () => {
  it('sends the key and workspace to the API path, and answers the typed data', async () => {
    const { cutroom, sent } = scripted([json(200, { balance: 7, unlimited: false, unlimited_until: null })]);
    const balance = await ok(cutroom.api.GET('/api/v1/balance'));
    expect(balance.balance).toBe(7);
    expect(sent[0].url).toBe('https://cutroom.test/api/v1/balance');
    expect(sent[0].headers.get('x-api-key')).toBe('key_test.secret');
    expect(sent[0].headers.get('x-workspace-id')).toBe('ws_two');
    expect(sent[0].headers.has('idempotency-key')).toBe(false);
  });

  it('throws one CutroomError with status, code, extra and request id; a 4xx is not retried', async () => {
    const { cutroom, sent } = scripted([
      json(402, { code: 'INSUFFICIENT_CREDITS', extra: { credits_needed: 3, current_balance: 1 } }, { 'x-request-id': 'req-9' }),
    ]);
    const err = await cutroom.api.POST('/api/v1/clips', { body: { video_id: 'vid_1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CutroomError);
    expect(err).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS', extra: { credits_needed: 3, current_balance: 1 }, requestId: 'req-9' });
    expect(sent).toHaveLength(1);
  });

  it('a body that is not the API’s error is HTTP_<status>', async () => {
    const { cutroom } = scripted([new Response('<html>bad gateway</html>', { status: 502 })], { retry: { retries: 0 } });
    await expect(ok(cutroom.api.GET('/api/v1/workspace'))).rejects.toMatchObject({ status: 502, code: 'HTTP_502', extra: undefined });
  });

  it('retries a POST after 429 (waiting Retry-After), 503, a network failure and 409 REQUEST_IN_PROGRESS, with the same Idempotency-Key and body', async () => {
    const { cutroom, sent, slept } = scripted(
      [
        json(429, { code: 'RATE_LIMIT_EXCEEDED', extra: { retry_after: 7 } }, { 'retry-after': '7' }),
        json(503, { code: 'SERVICE_UNAVAILABLE' }),
        new TypeError('fetch failed'),
        json(409, { code: 'REQUEST_IN_PROGRESS' }),
        json(201, { id: 'sub_1', video_id: 'vid_1', status: 'queued', credits_charged: 2 }),
      ],
      { retry: { retries: 4 } },
    );
    const created = await ok(cutroom.api.POST('/api/v1/clips', { body: { video_id: 'vid_1', source_language: 'en' } }));
    expect(created).toEqual({ id: 'sub_1', video_id: 'vid_1', status: 'queued', credits_charged: 2 });
    expect(sent).toHaveLength(5);
    const keys = new Set(sent.map((s) => s.headers.get('idempotency-key')));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    for (const s of sent) expect(JSON.parse(s.body)).toEqual({ video_id: 'vid_1', source_language: 'en' });
    expect(slept[0]).toBe(7000);
    // Backoff: between half and all of 500 ms × 2^attempt.
    expect(slept[1]).toBeGreaterThanOrEqual(500);
    expect(slept[1]).toBeLessThanOrEqual(1000);
    expect(slept[2]).toBeGreaterThanOrEqual(1000);
    expect(slept[2]).toBeLessThanOrEqual(2000);
    expect(slept[3]).toBeGreaterThanOrEqual(2000);
    expect(slept[3]).toBeLessThanOrEqual(4000);
  });

  it('each POST gets its own Idempotency-Key; one given by the caller is kept', async () => {
    const { cutroom, sent } = scripted([json(200, { edit_id: 'e' }), json(200, { edit_id: 'e' }), json(200, { edit_id: 'e' })]);
    const body = { edit_id: 'edit_1' };
    for (let i = 0; i < 2; i++) await cutroom.api.POST('/api/v1/renders', { body });
    await cutroom.api.POST('/api/v1/renders', { body, headers: { 'Idempotency-Key': 'mine-1' } });
    expect(sent[0].headers.get('idempotency-key')).not.toBe(sent[1].headers.get('idempotency-key'));
    expect(sent[2].headers.get('idempotency-key')).toBe('mine-1');
  });

  it('gives up after the retries, and throws a 429 whose Retry-After exceeds the longest wait at once', async () => {
    const failing = scripted([json(500, { code: 'INTERNAL_ERROR' }), json(500, { code: 'INTERNAL_ERROR' }), json(500, { code: 'INTERNAL_ERROR' })], {
      retry: { retries: 2 },
    });
    await expect(ok(failing.cutroom.api.GET('/api/v1/workspace'))).rejects.toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    expect(failing.sent).toHaveLength(3);

    const longWait = scripted([json(429, { code: 'RATE_LIMIT_EXCEEDED' }, { 'retry-after': '120' })], { retry: { maxDelayMs: 60_000 } });
    await expect(ok(longWait.cutroom.api.GET('/api/v1/workspace'))).rejects.toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(longWait.sent).toHaveLength(1);
    expect(longWait.slept).toEqual([]);
  });

  it('reads Retry-After as seconds or an HTTP date, and bounds the backoff', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 01 Jan 2031 00:00:10 GMT', Date.parse('2031-01-01T00:00:00Z'))).toBe(10_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    const policy = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };
    expect(backoffMs(policy, 0, () => 0)).toBe(250);
    expect(backoffMs(policy, 0, () => 1)).toBe(500);
    expect(backoffMs(policy, 10, () => 1)).toBe(30_000);
  });
});

describe('Cutroom client: waiting for jobs', () => {
  it('polls a submission at the client’s interval until completed, showing every state', async () => {
    const { cutroom, sent, slept } = scripted(
      [json(200, submission('queued', { queue_position: 1 })), json(200, submission('transcribing')), json(200, submission('completed', { clips_count: 3 }))],
      { pollIntervalMs: () => 1234 },
    );
    const seen: string[] = [];
    const done = await cutroom.waitForSubmission('vid_1', 'sub_1', { onPoll: (s) => seen.push(s.status) });
    expect(done.clips_count).toBe(3);
    expect(seen).toEqual(['queued', 'transcribing', 'completed']);
    expect(slept).toEqual([1234, 1234]);
    expect(sent.every((s) => s.url === 'https://cutroom.test/api/v1/clips/vid_1/submissions/sub_1')).toBe(true);
  });

  it('rejects a failed job with a CutroomError carrying the job, and a wait past its timeout with WAIT_TIMEOUT', async () => {
    const failed = scripted([json(200, submission('failed', { error_code: 'NO_SPEECH' }))]);
    const err = await failed.cutroom.waitForSubmission('vid_1', 'sub_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CutroomError);
    expect(err).toMatchObject({ status: null, code: 'SUBMISSION_FAILED', extra: { id: 'sub_1', status: 'failed', error_code: 'NO_SPEECH' } });

    const render = {
      id: 'rnd_1',
      edit_id: 'edit_1',
      progress: 40,
      output_resolution: '1080p',
      has_watermark: false,
      from_cache: false,
      download_url: null,
      error_code: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: null,
    };
    const failing = scripted([json(200, { ...render, status: 'failed', error_code: 'RENDER_ERROR' })]);
    await expect(failing.cutroom.waitForRender('rnd_1')).rejects.toMatchObject({ code: 'RENDER_FAILED', extra: { error_code: 'RENDER_ERROR' } });

    const slow = scripted([json(200, { ...render, status: 'active' })]);
    await expect(slow.cutroom.waitForRender('rnd_1', { intervalMs: 5000, timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'WAIT_TIMEOUT',
      extra: { progress: 40 },
    });
  });

  it('a transcription is done when ready or no_speech; a post only when completed (partial is an error)', async () => {
    const trn = {
      id: 'trn_1',
      credits_charged: 0,
      media_id: 'med_1',
      file_name: 'a.mp3',
      speaker_labels: false,
      source_language: 'auto',
      language: null,
      from_cache: false,
      error_code: null,
      created_at: '2026-01-01T00:00:00.000Z',
      finished_at: null,
    };
    const quiet = scripted([json(202, { ...trn, status: 'processing' }), json(200, { ...trn, status: 'no_speech' })], { pollIntervalMs: () => 1 });
    expect((await quiet.cutroom.waitForTranscription('trn_1')).status).toBe('no_speech');

    const post = { id: 'post_1', item_count: 2, scheduled_at: null, created_at: '2026-01-01T00:00:00.000Z', items: [] };
    const partial = scripted([json(200, { ...post, status: 'processing' }), json(200, { ...post, status: 'partial' })], { pollIntervalMs: () => 1 });
    await expect(partial.cutroom.waitForPost('post_1')).rejects.toMatchObject({ status: null, code: 'POST_PARTIAL', extra: { id: 'post_1' } });
  });

  it('waits for a persona’s portrait every 5 s (the API’s interval) until ready; a failed one is PERSONA_FAILED', async () => {
    const persona = (image_status: string, extra: Record<string, unknown> = {}) => ({
      id: 'prs_1',
      name: null,
      saved: false,
      image_status,
      image_url: null,
      image_kind: null,
      error_code: null,
      chips: {},
      face_ids: [],
      preset_id: null,
      current_version_id: null,
      versions: [],
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      ...extra,
    });
    const { cutroom, sent, slept } = scripted([
      json(200, persona('processing')),
      json(200, persona('processing')),
      json(200, persona('ready', { current_version_id: 'ver_2', image_kind: 'illustration' })),
    ]);
    const seen: string[] = [];
    const ready = await cutroom.waitForPersona('prs_1', { onPoll: (p) => seen.push(p.image_status) });
    expect(ready).toMatchObject({ id: 'prs_1', image_status: 'ready', current_version_id: 'ver_2' });
    expect(seen).toEqual(['processing', 'processing', 'ready']);
    expect(slept).toEqual([5000, 5000]);
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(Array(3).fill('GET https://cutroom.test/api/v1/personas/prs_1'));

    const failed = scripted([json(200, persona('processing')), json(200, persona('failed', { error_code: 'IMAGE_ENGINE_FAILED' }))], {
      pollIntervalMs: () => 1,
    });
    const err = await failed.cutroom.waitForPersona('prs_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CutroomError);
    expect(err).toMatchObject({ status: null, code: 'PERSONA_FAILED', extra: { id: 'prs_1', image_status: 'failed', error_code: 'IMAGE_ENGINE_FAILED' } });
  });

  it('waits for a persona video every 10 s until ready; a failed one is PERSONA_VIDEO_FAILED', async () => {
    const video = (status: string, extra: Record<string, unknown> = {}) => ({
      id: 'pvid_1',
      persona_id: 'prs_1',
      type: 'swap',
      status,
      error_code: null,
      download_url: null,
      edit_id: null,
      version_id: 'ver_1',
      media_id: 'med_1',
      quality: 'standard',
      replace: 'head',
      engine: 'embedded',
      seconds: 4,
      credits_charged: 8,
      feedback: null,
      created_at: '2026-01-01T00:00:00.000Z',
      finished_at: null,
      ...extra,
    });
    const { cutroom, sent, slept } = scripted([
      json(200, video('processing')),
      json(200, video('ready', { download_url: 'https://cutroom.test/f/v.mp4', edit_id: 'edit_9' })),
    ]);
    const ready = await cutroom.waitForPersonaVideo('prs_1', 'pvid_1');
    expect(ready).toMatchObject({ status: 'ready', edit_id: 'edit_9', download_url: 'https://cutroom.test/f/v.mp4' });
    expect(slept).toEqual([10_000]);
    expect(sent.every((s) => s.url === 'https://cutroom.test/api/v1/personas/prs_1/videos/pvid_1')).toBe(true);

    const failed = scripted([json(200, video('failed', { error_code: 'SWAP_ENGINE_FAILED', credits_charged: 0 }))]);
    await expect(failed.cutroom.waitForPersonaVideo('prs_1', 'pvid_1')).rejects.toMatchObject({
      status: null,
      code: 'PERSONA_VIDEO_FAILED',
      extra: { id: 'pvid_1', status: 'failed', error_code: 'SWAP_ENGINE_FAILED', credits_charged: 0 },
    });
    expect(failed.slept).toEqual([]);
  });

  it('waits for a generation through queued and processing until ready; a failed one is GENERATION_FAILED; the wait can time out', async () => {
    const generation = (status: string, extra: Record<string, unknown> = {}) => ({
      id: 'gen_1',
      model_id: 'camera-motion',
      kind: 'video',
      status,
      prompt: null,
      image_ids: ['gim_1'],
      options: {},
      credits_charged: 5,
      error_code: null,
      output: null,
      created_at: '2026-01-01T00:00:00.000Z',
      completed_at: null,
      ...extra,
    });
    const output = { url: 'https://cutroom.test/f/g.mp4', content_type: 'video/mp4', width: 720, height: 1280, seconds: 5 };
    const { cutroom, sent, slept } = scripted(
      [json(200, generation('queued')), json(200, generation('processing')), json(200, generation('ready', { output }))],
      {
        pollIntervalMs: () => 777,
      },
    );
    const seen: string[] = [];
    const ready = await cutroom.waitForGeneration('gen_1', { onPoll: (g) => seen.push(g.status) });
    expect(ready.output).toEqual(output);
    expect(seen).toEqual(['queued', 'processing', 'ready']);
    expect(slept).toEqual([777, 777]);
    expect(sent.every((s) => s.url === 'https://cutroom.test/api/v1/generations/gen_1')).toBe(true);

    const failed = scripted([json(200, generation('processing')), json(200, generation('failed', { error_code: 'PROVIDER_ERROR', credits_charged: 0 }))], {
      pollIntervalMs: () => 1,
    });
    await expect(failed.cutroom.waitForGeneration('gen_1')).rejects.toMatchObject({
      status: null,
      code: 'GENERATION_FAILED',
      extra: { id: 'gen_1', error_code: 'PROVIDER_ERROR' },
    });

    const slow = scripted([json(200, generation('processing'))]);
    await expect(slow.cutroom.waitForGeneration('gen_1', { intervalMs: 5000, timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'WAIT_TIMEOUT',
      extra: { status: 'processing' },
    });
    // An error answer while waiting is the API's error, not the job's.
    const gone = scripted([json(404, { code: 'GENERATION_NOT_FOUND', extra: {} })]);
    await expect(gone.cutroom.waitForGeneration('gen_x')).rejects.toMatchObject({ status: 404, code: 'GENERATION_NOT_FOUND' });
  });

  it('polls submissions every 10 to 15 s and other jobs every 5 to 10 s by default', () => {
    for (let i = 0; i < 50; i++) {
      const s = defaultPollIntervalMs('submission');
      expect(s).toBeGreaterThanOrEqual(10_000);
      expect(s).toBeLessThanOrEqual(15_000);
      for (const kind of ['render', 'transcription', 'post', 'generation'] as const) {
        const o = defaultPollIntervalMs(kind);
        expect(o).toBeGreaterThanOrEqual(5_000);
        expect(o).toBeLessThanOrEqual(10_000);
      }
    }
    // The specification's own: a persona's portrait every 5 s, a persona video every 10 s.
    expect(defaultPollIntervalMs('persona')).toBe(5_000);
    expect(defaultPollIntervalMs('persona_video')).toBe(10_000);
  });
});
