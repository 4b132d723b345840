import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AsrError } from '../../src/ports/asr.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/events.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeSpeechWav } from '../helpers/speech-fixtures.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { verifyWebhook } from '../../sdk/src/index.js';

/**
 * POST/GET/DELETE /webhooks and GET /webhooks/{id}/deliveries: every answer and error code, another
 * workspace's ids, private addresses refused unless the operator allows them, and a real flow: a
 * transcription ends (ready, then failed) and a local receiver gets the signed event.
 */

let t: TestApp;
let strict: TestApp;
let rx: Receiver;
let fx: string;

beforeAll(async () => {
  fx = tempDir('cutroom-webhooks-fx-');
  rx = await startReceiver();
  // The receiver is on 127.0.0.1: this app allows private addresses, as an operator would for a receiver on its own network.
  t = await createTestApp({ workers: true, env: { CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true', CUTROOM_WEBHOOK_RETRY_SCHEDULE: '1,1' } });
  strict = await createTestApp();
}, 120_000);
afterAll(async () => {
  await rx?.close();
  await t?.close();
  await strict?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

describe('POST /webhooks', () => {
  it('201: the endpoint with its whsec_ secret shown once; the list never shows it again', async () => {
    const ws = await t.workspace();
    const res = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['render.completed', 'submission.failed', 'render.completed'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-z]{20}$/),
      url: rx.url,
      events: ['render.completed', 'submission.failed'],
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const all = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['post.completed', '*'] });
    expect(all.body.events).toEqual(['*']);

    const list = await t.api(ws.key, 'GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.webhooks.map((w: any) => w.id)).toEqual([all.body.id, res.body.id]);
    for (const w of list.body.webhooks) expect(w).not.toHaveProperty('secret');
    expect(list.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 2, has_next_page: false });
    const page2 = await t.api(ws.key, 'GET', '/webhooks?limit=1&page=2');
    expect(page2.body.webhooks.map((w: any) => w.id)).toEqual([res.body.id]);
    expect(page2.body.pagination).toEqual({ current_page: 2, total_pages: 2, total_count: 2, has_next_page: false });
  });

  it('400 VALIDATION_ERROR for an unknown event, no events, no url or extra fields; nothing is created', async () => {
    const ws = await t.workspace();
    const unknown = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['render.completed', 'render.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'events.1', rule: 'enum', allowed: ['*', ...WEBHOOK_EVENT_TYPES] }] },
    });
    for (const body of [{ url: rx.url, events: [] }, { events: ['*'] }, { url: rx.url, events: ['*'], secret: 'mine' }, { url: 42, events: ['*'] }]) {
      const res = await t.api(ws.key, 'POST', '/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await t.api(ws.key, 'GET', '/webhooks')).body.webhooks).toEqual([]);
  });

  it('422 INVALID_WEBHOOK_URL for a URL that is not http(s) or carries credentials', async () => {
    const ws = await t.workspace();
    for (const url of ['ftp://hooks.example.com/x', 'hooks.example.com/x', 'http://user:pw@127.0.0.1/x', 'javascript:alert(1)']) {
      const res = await t.api(ws.key, 'POST', '/webhooks', { url, events: ['*'] });
      expect(res.status, url).toBe(422);
      expect(res.body, url).toEqual({ code: 'INVALID_WEBHOOK_URL', extra: { reason: 'url' } });
    }
  });

  it('422 INVALID_WEBHOOK_URL address_not_allowed for loopback, private, link-local and metadata addresses unless the operator allows them', async () => {
    const ws = await strict.workspace();
    for (const url of [
      rx.url,
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest',
      'http://[::1]:8080/hook',
      'http://localhost:9/hook',
    ]) {
      const res = await strict.api(ws.key, 'POST', '/webhooks', { url, events: ['*'] });
      expect(res.status, url).toBe(422);
      expect(res.body, url).toEqual({ code: 'INVALID_WEBHOOK_URL', extra: { reason: 'address_not_allowed' } });
    }
    // Metadata endpoints stay refused even where private addresses are allowed.
    const allowed = await t.workspace();
    const metadata = await t.api(allowed.key, 'POST', '/webhooks', { url: 'http://169.254.169.254/latest', events: ['*'] });
    expect(metadata.body).toEqual({ code: 'INVALID_WEBHOOK_URL', extra: { reason: 'address_not_allowed' } });
  });

  it('409 WEBHOOK_LIMIT_REACHED past 10 endpoints', async () => {
    const ws = await t.workspace();
    for (let i = 0; i < 10; i++) expect((await t.api(ws.key, 'POST', '/webhooks', { url: `${rx.url}/${i}`, events: ['*'] })).status).toBe(201);
    const res = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['*'] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'WEBHOOK_LIMIT_REACHED', extra: { max_webhooks: 10 } });
  });

  it('401 without a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', payload: { url: rx.url, events: ['*'] } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHORIZED' });
  });
});

describe('DELETE /webhooks/{id} and GET /webhooks/{id}/deliveries', () => {
  it('204 then 404 WEBHOOK_NOT_FOUND; another workspace’s endpoint is 404 on both paths and stays', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const created = await t.api(a.key, 'POST', '/webhooks', { url: rx.url, events: ['*'] });
    for (const [method, url] of [
      ['DELETE', `/webhooks/${created.body.id}`],
      ['GET', `/webhooks/${created.body.id}/deliveries`],
    ] as const) {
      const res = await t.api(b.key, method, url);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toEqual({ code: 'WEBHOOK_NOT_FOUND' });
    }
    const deliveries = await t.api(a.key, 'GET', `/webhooks/${created.body.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toEqual({ deliveries: [], pagination: { current_page: 1, total_pages: 0, total_count: 0, has_next_page: false } });

    const del = await t.api(a.key, 'DELETE', `/webhooks/${created.body.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.api(a.key, 'DELETE', `/webhooks/${created.body.id}`)).body).toEqual({ code: 'WEBHOOK_NOT_FOUND' });
    expect((await t.api(a.key, 'GET', `/webhooks/${created.body.id}/deliveries`)).status).toBe(404);
    expect((await t.api(a.key, 'GET', '/webhooks')).body.webhooks).toEqual([]);
  });
});

describe('a transcription ends → the receiver gets the signed event', () => {
  const CONTENT_TYPE = 'audio/wav';

  async function upload(key: string, file: string): Promise<string> {
    const bytes = fs.readFileSync(file);
    const up = await t.api(key, 'POST', '/transcriptions/upload', { file_name: path.basename(file), file_size: bytes.length, content_type: CONTENT_TYPE });
    const u = new URL(up.body.upload_url);
    const put = await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': CONTENT_TYPE }, payload: bytes });
    expect(put.statusCode).toBe(200);
    return up.body.media_id;
  }

  it('transcription.ready, then transcription.failed; the deliveries list shows both delivered', async () => {
    const wav = (await makeSpeechWav(path.join(fx, 'hello.wav'), [{ silence: 0.3 }, { say: 'hello and welcome back to the show' }, { silence: 0.5 }])).path;
    const ws = await t.workspace({ credits: 10 });
    const hook = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['transcription.ready', 'transcription.failed'] });
    const before = rx.received.length;

    const mediaId = await upload(ws.key, wav);
    const started = await t.api(ws.key, 'POST', '/transcriptions', { media_id: mediaId });
    expect(started.status).toBe(202);
    const [ready] = (await rx.waitFor(before + 1, 300_000)).slice(before);
    const event = verifyWebhook<any>(ready.headers as Record<string, string>, ready.body, hook.body.secret);
    expect(event).toEqual({
      id: ready.headers['webhook-id'],
      type: 'transcription.ready',
      timestamp: expect.any(String),
      workspace_id: ws.id,
      data: { id: started.body.id, status: 'ready', language: 'en', error_code: null },
    });
    expect((await t.api(ws.key, 'GET', `/transcriptions/${started.body.id}`)).body.status).toBe('ready');

    const spy = vi.spyOn(t.c.asr, 'transcribe').mockRejectedValue(new AsrError('ASR_ENGINE_FAILED', 'engine crashed'));
    try {
      const other = await upload(
        ws.key,
        (await makeSpeechWav(path.join(fx, 'bye.wav'), [{ silence: 0.3 }, { say: 'see you next week everybody' }, { silence: 0.5 }])).path,
      );
      const failing = await t.api(ws.key, 'POST', '/transcriptions', { media_id: other });
      expect(failing.status).toBe(202);
      const [failed] = (await rx.waitFor(before + 2, 120_000)).slice(before + 1);
      expect(verifyWebhook<any>(failed.headers as Record<string, string>, failed.body, hook.body.secret)).toMatchObject({
        type: 'transcription.failed',
        data: { id: failing.body.id, status: 'failed', error_code: 'ASR_ENGINE_FAILED' },
      });
    } finally {
      spy.mockRestore();
    }

    let list: any;
    for (let i = 0; i < 50; i++) {
      list = await t.api(ws.key, 'GET', `/webhooks/${hook.body.id}/deliveries`);
      if (list.body.deliveries.every((d: any) => d.status === 'delivered') && list.body.deliveries.length === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(list.body.deliveries).toEqual([
      expect.objectContaining({
        event_type: 'transcription.failed',
        status: 'delivered',
        attempts: 1,
        last_status_code: 204,
        last_error: null,
        next_attempt_at: null,
      }),
      expect.objectContaining({
        event_type: 'transcription.ready',
        status: 'delivered',
        attempts: 1,
        last_status_code: 204,
        event_id: ready.headers['webhook-id'],
      }),
    ]);
    expect(Object.keys(list.body.deliveries[0]).sort()).toEqual(
      [
        'id',
        'event_id',
        'event_type',
        'status',
        'attempts',
        'last_status_code',
        'last_error',
        'last_response_excerpt',
        'last_attempt_at',
        'next_attempt_at',
        'delivered_at',
        'created_at',
      ].sort(),
    );
  }, 400_000);
});
