import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaPortraits } from '../../src/adapters/db/schema/index.js';
import { buildHandlers } from '../../src/jobs/handlers/index.js';
import { verifyWebhook } from '../../sdk/src/index.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { pattern, uploadImage } from '../helpers/generation-fixtures.js';
import { talkingHeadVideo } from '../helpers/persona-fixtures.js';
import { clipsFixture } from '../helpers/clips.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * The generation and persona events reach a subscribed endpoint signed (verified with the SDK's
 * verifyWebhook) with the `data` docs/webhooks.md lists: generation.ready (with its output, no URL),
 * generation.failed, persona.failed, persona_video.ready (with its edit) and persona_video.failed
 * (persona.ready: test/http/personas.routes.test.ts). Only the webhook delivery jobs run in this app;
 * each generation, portrait and swap is run here through its processor, as its queue job would (a lost
 * last run fails it with JOB_LOST and refunds it).
 */

let t: TestApp;
let rx: Receiver;
let fx: string;

beforeAll(async () => {
  fx = tempDir('cutroom-area-events-');
  rx = await startReceiver();
  // The receiver is on 127.0.0.1: private addresses allowed, as an operator would for its own network.
  t = await createTestApp({ startQueue: true, env: { CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  await t.c.queue.work('webhook.deliver', buildHandlers(t.c)['webhook.deliver'], { concurrency: 1 });
}, 120_000);
afterAll(async () => {
  await rx?.close();
  await t?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

/** The next signed event the receiver gets for this endpoint, verified with its secret. */
async function nextEvent(secret: string, timeoutMs = 60_000): Promise<any> {
  const seen = rx.received.length;
  const [r] = (await rx.waitFor(seen + 1, timeoutMs)).slice(seen);
  expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  return verifyWebhook<any>(r.headers as Record<string, string>, r.body, secret);
}

async function balance(key: string): Promise<number> {
  return (await t.api(key, 'GET', '/balance')).body.balance;
}

describe('generation events', () => {
  it('generation.ready with the output (image_id, no URL), then generation.failed (JOB_LOST, refunded)', async () => {
    const ws = await t.workspace({ credits: 20 });
    const hook = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['generation.ready', 'generation.failed'] });
    expect(hook.status).toBe(201);
    const img = await uploadImage(t, ws.key, await pattern(64, 48, 'png'));

    const started = await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const received = nextEvent(hook.body.secret, 120_000);
    await t.c.generationProcessor.run(started.body.id, { retryCount: 0, retryLimit: 2 });
    const ready = await received;
    const got = (await t.api(ws.key, 'GET', `/generations/${started.body.id}`)).body;
    expect(got.status).toBe('ready');
    const { url: _url, ...output } = got.output;
    expect(ready).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'generation.ready',
      timestamp: expect.any(String),
      workspace_id: ws.id,
      data: { id: started.body.id, model_id: 'upscale-x4', status: 'ready', output },
    });
    expect(output).toMatchObject({ content_type: 'image/png', width: 256, height: 192, image_id: expect.stringMatching(/^gim_/) });

    const before = await balance(ws.key);
    const lost = await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(lost.status).toBe(202);
    const receivedFailed = nextEvent(hook.body.secret);
    // The queue's call for a lost last run (src/adapters/queue/pgboss.queue.ts hands it over with ctx.lost).
    await t.c.generationProcessor.run(lost.body.id, { retryCount: 2, retryLimit: 2, lost: true });
    expect(await receivedFailed).toMatchObject({
      type: 'generation.failed',
      workspace_id: ws.id,
      data: { id: lost.body.id, model_id: 'upscale-x4', status: 'failed', error_code: 'JOB_LOST' },
    });
    expect(await balance(ws.key)).toBe(before);
  }, 240_000);
});

describe('persona events', () => {
  it('persona.failed when a portrait fails (JOB_LOST, refunded)', async () => {
    const ws = await t.workspace({ credits: 5 });
    const hook = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['persona.ready', 'persona.failed'] });
    const created = await t.api(ws.key, 'POST', '/personas', { chips: { vibe: 'friendly' } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(await balance(ws.key)).toBeLessThan(5);
    const [portrait] = await t.c.database.db.select().from(personaPortraits).where(eq(personaPortraits.personaId, created.body.id));
    const received = nextEvent(hook.body.secret);
    await t.c.personaProcessor.runPortrait(portrait.id, { retryCount: 2, retryLimit: 2, lost: true });
    expect(await received).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'persona.failed',
      timestamp: expect.any(String),
      workspace_id: ws.id,
      data: { id: created.body.id, image_status: 'failed', error_code: 'JOB_LOST' },
    });
    expect((await t.api(ws.key, 'GET', `/personas/${created.body.id}`)).body).toMatchObject({ image_status: 'failed', error_code: 'JOB_LOST' });
    expect(await balance(ws.key)).toBe(5);
  });
});

describe('persona video events', () => {
  /** A preset persona (free), a 3-second talking-head source uploaded, and its quoted price. */
  async function swapInputs(key: string) {
    const persona = (await t.api(key, 'POST', '/personas/presets/preset_ava')).body;
    const file = await talkingHeadVideo(path.join(fx, `talk-${Math.random().toString(36).slice(2)}.mp4`), { seconds: 3 });
    const bytes = fs.readFileSync(file);
    const up = await t.api(key, 'POST', '/personas/sources/upload', { file_name: 'talk.mp4', file_size: bytes.length, content_type: 'video/mp4' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const u = new URL(up.body.upload_url);
    expect((await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': 'video/mp4' }, payload: bytes })).statusCode).toBe(
      200,
    );
    expect((await t.api(key, 'POST', '/personas/sources/upload/complete', { media_id: up.body.media_id })).status).toBe(200);
    const quote = await t.api(key, 'GET', `/personas/swap/quote?media_id=${up.body.media_id}&quality=standard&replace=head`);
    expect(quote.status).toBe(200);
    return { persona, body: { type: 'swap', media_id: up.body.media_id, quality: 'standard', replace: 'head', credits: quote.body.credits } };
  }

  it('persona_video.ready with its edit, then persona_video.failed (JOB_LOST, refunded)', async () => {
    const ws = await t.workspace({ credits: 20 });
    const hook = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['persona_video.ready', 'persona_video.failed'] });
    expect(hook.status).toBe(201);
    const { persona, body } = await swapInputs(ws.key);

    const started = await t.api(ws.key, 'POST', `/personas/${persona.id}/videos`, body);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const received = nextEvent(hook.body.secret, 300_000);
    await t.c.personaProcessor.runSwap(started.body.id, { retryCount: 0, retryLimit: 2 });
    const video = (await t.api(ws.key, 'GET', `/personas/${persona.id}/videos/${started.body.id}`)).body;
    expect(video.status, video.error_code).toBe('ready');
    expect(await received).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'persona_video.ready',
      timestamp: expect.any(String),
      workspace_id: ws.id,
      data: { id: started.body.id, persona_id: persona.id, status: 'ready', edit_id: video.edit_id },
    });
    expect(video.edit_id).toMatch(/^edit_/);

    const before = await balance(ws.key);
    const lost = await t.api(ws.key, 'POST', `/personas/${persona.id}/videos`, body);
    expect(lost.status).toBe(202);
    expect(await balance(ws.key)).toBe(before - body.credits);
    const receivedFailed = nextEvent(hook.body.secret);
    await t.c.personaProcessor.runSwap(lost.body.id, { retryCount: 2, retryLimit: 2, lost: true });
    expect(await receivedFailed).toMatchObject({
      type: 'persona_video.failed',
      workspace_id: ws.id,
      data: { id: lost.body.id, persona_id: persona.id, status: 'failed', error_code: 'JOB_LOST' },
    });
    expect(await balance(ws.key)).toBe(before);
  }, 400_000);
});

describe('edit events', () => {
  it('edit.created when an edit is derived, with its parent, clip and duration; nothing for a refused derive', async () => {
    const ws = await t.workspace();
    const hook = await t.api(ws.key, 'POST', '/webhooks', { url: rx.url, events: ['edit.created'] });
    expect(hook.status).toBe(201);
    const source = await makeVideo(path.join(fx, 'edit-source.mp4'), { seconds: 70, width: 160, height: 90, fps: 5 });
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 30 }] });
    const before = rx.received.length;
    const refused = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], trim: { start: 40, end: 50 } });
    expect(refused.status).toBe(400);
    const received = nextEvent(hook.body.secret);
    const derived = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], trim: { start: 12, end: 20 } });
    expect(derived.status, JSON.stringify(derived.body)).toBe(201);
    const event = await received;
    expect(rx.received.length).toBe(before + 1);
    expect(event).toMatchObject({
      type: 'edit.created',
      data: { id: derived.body.id, parent_edit_id: f.editIds[0], clip_id: f.clipIds[0], video_id: f.videoId, duration: derived.body.duration },
    });
  });
});
