import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { DrizzleWebhooksRepository } from '../../src/adapters/db/repositories/webhooks.repository.js';
import { webhookDeliveries, webhookEndpoints } from '../../src/adapters/db/schema/index.js';
import { verifyWebhook } from '../../sdk/src/index.js';
import { clipsFixture } from '../helpers/clips.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * Webhook delivery with the real queue and workers on both databases: the outbox in the caller's
 * transaction, Standard Webhooks signatures checked with the SDK, retries with backoff on a
 * configurable schedule (here 1 s then 2 s), the end of the schedule, the sweep of lost jobs.
 */

const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe.each(DB_KINDS)('webhooks on %s', (kind) => {
  let t: TestApp;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      workers: true,
      env: { CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true', CUTROOM_WEBHOOK_RETRY_SCHEDULE: '1,2', CUTROOM_WEBHOOK_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
  });

  async function receiver(...args: Parameters<typeof startReceiver>) {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  }

  const deliveriesOf = async (wsId: string, endpointId: string) => (await t.c.webhooks.deliveries(wsId, endpointId, { page: 1, limit: 100, offset: 0 })).rows;

  it('records an event in the caller’s transaction and delivers it signed once it commits; a rollback sends nothing', async () => {
    const ws = await t.workspace();
    const rx = await receiver();
    const endpoint = await t.c.webhooks.create(ws.id, { url: rx.url, events: ['render.completed'] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const tx = createTransactionRunner(t.c.database.db);

    await expect(
      tx.run(async (inTx) => {
        await t.c.events.publish(ws.id, 'render.completed', { id: 'rnd_rolled_back', status: 'completed' }, inTx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // Another type than the endpoint's, and another workspace: nothing for this endpoint.
    await t.c.events.publish(ws.id, 'submission.completed', { id: 'sub_x' });
    await t.c.events.publish((await t.workspace()).id, 'render.completed', { id: 'rnd_other' });

    await tx.run(async (inTx) => {
      await t.c.events.publish(ws.id, 'render.completed', { id: 'rnd_1', edit_id: 'edit_1', status: 'completed' }, inTx);
      // Recorded but not sent while the transaction is open.
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.received).toHaveLength(0);
    });
    const [got] = await rx.waitFor(1);
    const event = verifyWebhook<any>(got.headers as Record<string, string>, got.body, endpoint.secret!);
    expect(event).toMatchObject({ type: 'render.completed', workspace_id: ws.id, data: { id: 'rnd_1', edit_id: 'edit_1', status: 'completed' } });
    expect(got.headers['webhook-id']).toBe(event.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('Cutroom-Webhooks/1.0');
    // The wrong secret does not verify.
    expect(() => verifyWebhook(got.headers as Record<string, string>, got.body, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_INVALID' }),
    );

    const [delivery] = await until(
      () => deliveriesOf(ws.id, endpoint.id),
      (rows) => rows[0]?.status === 'delivered',
    );
    expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null, eventType: 'render.completed' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.received).toHaveLength(1);
  });

  it('retries a failing receiver with backoff (1 s, then 2 s) until it answers 2xx; every attempt signed anew with the same webhook-id', async () => {
    const ws = await t.workspace();
    const rx = await receiver((n) => (n < 2 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' }));
    const endpoint = await t.c.webhooks.create(ws.id, { url: rx.url, events: ['*'] });
    await t.c.events.publish(ws.id, 'transcription.ready', { id: 'trn_1', status: 'ready' });
    const got = await rx.waitFor(3, 30_000);
    const gap1 = got[1].at - got[0].at;
    const gap2 = got[2].at - got[1].at;
    expect(gap1).toBeGreaterThanOrEqual(900);
    expect(gap2).toBeGreaterThanOrEqual(1900);
    expect(gap2).toBeGreaterThan(gap1);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    for (const g of got) expect(verifyWebhook(g.headers as Record<string, string>, g.body, endpoint.secret!)).toMatchObject({ data: { id: 'trn_1' } });

    const [d] = await until(
      () => deliveriesOf(ws.id, endpoint.id),
      (rows) => rows[0]?.status === 'delivered',
    );
    expect(d).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null, lastResponseExcerpt: 'ok' });
    expect(d.deliveredAt).not.toBeNull();
  });

  it('fails the delivery when the schedule is spent, keeping only the first 1,024 characters of the answer; a timeout counts as a failed attempt', async () => {
    const ws = await t.workspace();
    const rx = await receiver((n) => (n === 1 ? { hang: true } : { status: 500, body: 'x'.repeat(5000) }));
    const endpoint = await t.c.webhooks.create(ws.id, { url: rx.url, events: ['post.failed'] });
    await t.c.events.publish(ws.id, 'post.failed', { id: 'post_1', status: 'failed' });
    const [d] = await until(
      () => deliveriesOf(ws.id, endpoint.id),
      (rows) => rows[0]?.status === 'failed',
      40_000,
    );
    expect(rx.received).toHaveLength(3);
    expect(d).toMatchObject({ attempts: 3, lastStatusCode: 500, lastError: 'http_status', nextAttemptAt: null });
    expect(d.lastResponseExcerpt).toBe('x'.repeat(1024));
  });

  it('the sweep sends again a delivery whose job went missing; deleting an endpoint deletes its deliveries', async () => {
    const ws = await t.workspace();
    const rx = await receiver();
    const endpoint = await t.c.webhooks.create(ws.id, { url: rx.url, events: ['submission.failed'] });
    const repo = new DrizzleWebhooksRepository(t.c.database.db);
    // A delivery recorded two minutes ago whose job never ran (the queue refused it, or its process died).
    await repo.insertDeliveries([
      {
        id: 'whd_lost',
        endpointId: endpoint.id,
        workspaceId: ws.id,
        eventId: 'evt_lost',
        eventType: 'submission.failed',
        body: JSON.stringify({ id: 'evt_lost', type: 'submission.failed', data: { id: 'sub_1' } }),
        nextAttemptAt: new Date(Date.now() - 120_000),
      },
    ]);
    expect(await t.c.webhookDelivery.sweep()).toBeGreaterThanOrEqual(1);
    const [got] = await rx.waitFor(1);
    expect(got.headers['webhook-id']).toBe('evt_lost');
    await until(
      () => deliveriesOf(ws.id, endpoint.id),
      (rows) => rows[0]?.status === 'delivered',
    );

    await t.c.webhooks.delete(ws.id, endpoint.id);
    const db = t.c.database.db;
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))).toHaveLength(0);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id))).toHaveLength(0);
  });

  it('a submission that fails announces submission.failed once, in the transaction of its failure and refund', async () => {
    const dir = tempDir('cutroom-webhooks-sub-');
    try {
      const video = await makeVideo(path.join(dir, 'v.mp4'), { seconds: 61, width: 160, height: 90 });
      const ws = await t.workspace();
      const rx = await receiver();
      const endpoint = await t.c.webhooks.create(ws.id, { url: rx.url, events: ['submission.failed', 'submission.completed'] });
      const f = await clipsFixture(t, ws.id, video, { ranges: [], status: 'transcribing' });
      await t.c.submissions.fail({ id: f.submissionId, workspaceId: ws.id }, 'NO_SPEECH');
      await t.c.submissions.fail({ id: f.submissionId, workspaceId: ws.id }, 'NO_SPEECH'); // finished already: nothing more
      const [got] = await rx.waitFor(1);
      expect(verifyWebhook<any>(got.headers as Record<string, string>, got.body, endpoint.secret)).toMatchObject({
        type: 'submission.failed',
        data: { id: f.submissionId, video_id: f.videoId, status: 'failed', error_code: 'NO_SPEECH' },
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.received).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores the signing secret sealed, never in clear', async () => {
    const ws = await t.workspace();
    const endpoint = await t.c.webhooks.create(ws.id, { url: 'http://127.0.0.1:9/hooks', events: ['*'] });
    const [row] = await t.c.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row.secretSealed).toMatch(/^v1\./);
    expect(row.secretSealed).not.toContain(endpoint.secret!.slice('whsec_'.length, 20));
  });
});
