import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleGenerationsRepository } from '../../src/adapters/db/repositories/generations.repository.js';
import { generations, ledgerEntries, plans, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { NodeLocalFiles } from '../../src/adapters/files/local-files.js';
import { createHostedClient } from '../../src/adapters/generation/hosted-client.factory.js';
import { SafeOutputFetcher } from '../../src/adapters/generation/output-fetcher.js';
import { SharpImageInspector } from '../../src/adapters/images/image-inspector.js';
import { FfprobeMediaProbe } from '../../src/adapters/media/ffprobe.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { PricedCharges } from '../../src/domain/credits/priced-charge.js';
import { GenerationProcessor } from '../../src/domain/generations/generations.processor.js';
import { GenerationsService } from '../../src/domain/generations/generations.service.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.records.js';
import type { EmbeddedGenerator } from '../../src/ports/images.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeFal, FakeOpenAi } from '../helpers/fake-generation-providers.js';
import { FakeQueue } from '../helpers/fake-queue.js';
import { pattern } from '../helpers/generation-fixtures.js';

/**
 * GenerationsService and GenerationProcessor on a real database (PGlite and PostgreSQL), no HTTP and no
 * queue worker: the charge and the generation commit together; a queue that refuses leaves the
 * generation failed with QUEUE_UNAVAILABLE and refunded; a run that is retried after the provider took
 * the job polls that job instead of submitting again; finishing twice changes nothing; a failed run is
 * refunded once; an output on an address the service may not fetch fails with OUTPUT_INVALID; a job
 * without a result in time (a queue job still queued, a synchronous request unanswered) fails with
 * GENERATION_TIMEOUT, a model deleted before its job ran with MODEL_UNAVAILABLE, each refunded.
 */

let dir: string;
let fal: FakeFal;
let openai: FakeOpenAi;
let png: Buffer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-gen-svc-'));
  png = await pattern(32, 24, 'png');
  fal = await new FakeFal({ image: png, video: Buffer.alloc(0) }).start();
  openai = await new FakeOpenAi({ image: png, video: Buffer.alloc(0) }).start();
}, 60_000);

afterAll(async () => {
  await fal?.close();
  await openai?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const noEmbedded: EmbeddedGenerator = {
  run: async () => {
    throw new Error('no embedded engine in this test');
  },
};

describe.each(DB_KINDS)('generations service on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let storage: LocalStorage;
  let n = 0;

  function build(queue: FakeQueue, maxOutputBytes = 1 << 20, timeoutMs = 10_000) {
    const transactions = createTransactionRunner(database.db);
    const repo = new DrizzleGenerationsRepository(database.db);
    const files = new NodeLocalFiles(os.tmpdir());
    const service = new GenerationsService({
      repo,
      transactions,
      storage,
      priced: new PricedCharges({ credits: new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: transactions }), topUpUrl: null }),
      queue,
      images: new SharpImageInspector(),
      sealer: { seal: async (c) => JSON.stringify(c), open: async (s) => JSON.parse(s) },
      putBytes: async (key, bytes, ct) => {
        const f = path.join(dir, `put-${Math.random()}`);
        fs.writeFileSync(f, bytes);
        await storage.putFile(key, f, ct);
      },
      maxImageBytes: 1 << 20,
    });
    const processor = new GenerationProcessor({
      repo,
      storage,
      generations: service,
      logger: pino({ level: 'silent' }),
      files,
      embedded: noEmbedded,
      hosted: createHostedClient,
      fetcher: new SafeOutputFetcher({ allowPrivate: false }),
      images: new SharpImageInspector(),
      probe: new FfprobeMediaProbe(),
      pollMs: 5,
      timeoutMs,
      maxOutputBytes,
    });
    return { service, processor, repo };
  }

  async function workspace(credits: number): Promise<WorkspaceWithPlan> {
    const [plan] = await database.db.select().from(plans).where(eq(plans.name, 'svc'));
    const [ws] = await database.db
      .insert(workspaces)
      .values({ id: `ws_gen_${kind}_${++n}`, name: 'svc', planName: 'svc', credits })
      .returning();
    return { workspace: ws, plan };
  }

  const ledgerOf = async (workspaceId: string) =>
    (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.workspaceId, workspaceId)).orderBy(ledgerEntries.seq)).map((e) => [
      e.kind,
      e.amount,
    ]);
  const balanceOf = async (workspaceId: string) => (await database.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0].credits;
  const attempt = { retryCount: 2, retryLimit: 2 };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    storage = new LocalStorage({ dataDir: path.join(dir, kind), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });
    await insertTestPlan(database.db);
    const { service } = build(new FakeQueue());
    await service.seedEmbedded();
    await service.adminPut('fal-img', {
      name: 'fal',
      kind: 'image',
      provider: 'fal',
      provider_model: 'fal-ai/flux/dev',
      base_url: fal.url,
      api_key: fal.key,
      price: { per_image: 3 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 1 } },
    });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('commits the charge with the generation and sends its job; a queue that refuses leaves it failed and refunded', async () => {
    const ctx = await workspace(10);
    const queue = new FakeQueue();
    const g = await build(queue).service.create(ctx, { model_id: 'fal-img', prompt: 'a fox', credits: 3 });
    expect(g).toMatchObject({ status: 'queued', credits_charged: 3 });
    expect(queue.sent.map((s) => [s.name, s.payload])).toEqual([['generation.process', { generationId: g.id }]]);
    expect(queue.sent[0].opts).toMatchObject({ retryLimit: 2, singletonKey: `generation:${g.id}` });
    await expect(build(new FakeQueue(1)).service.create(ctx, { model_id: 'fal-img', prompt: 'a fox', credits: 3 })).rejects.toThrow('queue down');
    const rows = await database.db.select().from(generations).where(eq(generations.workspaceId, ctx.workspace.id));
    expect(rows.map((r) => [r.status, r.errorCode, r.creditsCharged]).sort()).toEqual([
      ['failed', 'QUEUE_UNAVAILABLE', 0],
      ['queued', null, 3],
    ]);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([
      ['charge', -3],
      ['charge', -3],
      ['refund', 3],
    ]);
    expect(await balanceOf(ctx.workspace.id)).toBe(7);
  });

  it('a retried run resumes the provider job it stored instead of submitting again, and a second finish changes nothing', async () => {
    const ctx = await workspace(10);
    const { service, processor, repo } = build(new FakeQueue());
    const g = await service.create(ctx, { model_id: 'fal-img', prompt: 'a field', credits: 3 });
    // The provider took the job before the worker died.
    const submitted = await createHostedClient({ provider: 'fal', baseUrl: fal.url, apiKey: fal.key }).submit({
      providerModel: 'fal-ai/flux/dev',
      kind: 'image',
      prompt: 'a field',
      images: [],
      options: {},
    });
    await repo.setProviderJob(g.id, submitted.jobId);
    const posts = fal.requests.filter((r) => r.method === 'POST').length;
    await processor.run(g.id, { retryCount: 1, retryLimit: 2 });
    expect(fal.requests.filter((r) => r.method === 'POST').length).toBe(posts);
    const ready = await service.get(ctx.workspace.id, g.id);
    expect(ready).toMatchObject({ status: 'ready', credits_charged: 3, output: { content_type: 'image/png', width: 32, height: 24 } });
    await processor.run(g.id, attempt);
    await service.fail({ id: g.id, workspaceId: ctx.workspace.id, modelId: 'fal-img' }, 'PROVIDER_FAILED');
    expect((await service.get(ctx.workspace.id, g.id)).status).toBe('ready');
    expect(await ledgerOf(ctx.workspace.id)).toEqual([['charge', -3]]);
    // The output image is an image of the workspace.
    expect((await repo.findImages(ctx.workspace.id, [ready.output!.image_id!]))[0]).toMatchObject({ generationId: g.id, width: 32 });
  });

  it('a failed run is refunded once; an output the service may not fetch, or above the cap, fails with OUTPUT_INVALID', async () => {
    const ctx = await workspace(10);
    const { service, processor } = build(new FakeQueue());
    const g = await service.create(ctx, { model_id: 'fal-img', prompt: 'x [refuse]', credits: 3 });
    await processor.run(g.id, attempt);
    await processor.run(g.id, attempt);
    expect(await service.get(ctx.workspace.id, g.id)).toMatchObject({ status: 'failed', error_code: 'CONTENT_POLICY_REFUSED', credits_charged: 0 });
    // A model whose outputs are served from another origin than its base URL (here: the same server under another name).
    await service.adminPut('fal-elsewhere', {
      name: 'x',
      kind: 'image',
      provider: 'fal',
      provider_model: 'fal-ai/flux/dev',
      base_url: fal.url.replace('127.0.0.1', 'localhost'),
      api_key: fal.key,
      price: { per_image: 1 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 0 } },
    });
    const h = await service.create(ctx, { model_id: 'fal-elsewhere', prompt: 'x', credits: 1 });
    await processor.run(h.id, attempt);
    expect(await service.get(ctx.workspace.id, h.id)).toMatchObject({ status: 'failed', error_code: 'OUTPUT_INVALID', credits_charged: 0 });
    // An output above the download cap.
    const small = build(new FakeQueue(), 100);
    const big = await small.service.create(ctx, { model_id: 'fal-img', prompt: 'x', credits: 3 });
    await small.processor.run(big.id, attempt);
    expect(await service.get(ctx.workspace.id, big.id)).toMatchObject({ status: 'failed', error_code: 'OUTPUT_INVALID' });
    expect(await ledgerOf(ctx.workspace.id)).toEqual([
      ['charge', -3],
      ['refund', 3],
      ['charge', -1],
      ['refund', 1],
      ['charge', -3],
      ['refund', 3],
    ]);
    expect(await balanceOf(ctx.workspace.id)).toBe(10);
  });

  it('a job without a result in time fails with GENERATION_TIMEOUT (the queue job cancelled, the synchronous request not sent again), a deleted model with MODEL_UNAVAILABLE; each refunded', async () => {
    const ctx = await workspace(20);
    const { service } = build(new FakeQueue());
    await service.adminPut('oai-img', {
      name: 'oai',
      kind: 'image',
      provider: 'openai',
      provider_model: 'gpt-image-1',
      base_url: openai.url,
      api_key: openai.key,
      price: { per_image: 2 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 0 } },
    });
    const slow = build(new FakeQueue(), 1 << 20, 300);
    // fal: still queued at the deadline.
    fal.defaultPolls = 1000;
    try {
      const g = await slow.service.create(ctx, { model_id: 'fal-img', prompt: 'a slow field', credits: 3 });
      await slow.processor.run(g.id, { retryCount: 0, retryLimit: 2 });
      expect(await service.get(ctx.workspace.id, g.id)).toMatchObject({ status: 'failed', error_code: 'GENERATION_TIMEOUT', credits_charged: 0 });
      const jobId = (await slow.repo.get(g.id))!.providerJobId!;
      expect(fal.requests.at(-1)).toMatchObject({ method: 'PUT', path: `/${jobId}/cancel` });
    } finally {
      fal.defaultPolls = 1;
    }
    // OpenAI-compatible: the one synchronous request unanswered within the limit, on the job's first run.
    openai.delayMs = 1500;
    try {
      const posts = openai.requests.length;
      const g = await slow.service.create(ctx, { model_id: 'oai-img', prompt: 'a slow lamp', credits: 2 });
      await slow.processor.run(g.id, { retryCount: 0, retryLimit: 2 });
      expect(await service.get(ctx.workspace.id, g.id)).toMatchObject({ status: 'failed', error_code: 'GENERATION_TIMEOUT', credits_charged: 0 });
      expect(openai.requests.length - posts).toBe(1);
    } finally {
      openai.delayMs = 0;
    }
    // A model deleted between the POST and its job.
    await service.adminPut('doomed', {
      name: 'd',
      kind: 'image',
      provider: 'fal',
      provider_model: 'fal-ai/flux/dev',
      base_url: fal.url,
      api_key: fal.key,
      price: { per_image: 1 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 0 } },
    });
    const d = await service.create(ctx, { model_id: 'doomed', prompt: 'x', credits: 1 });
    await service.adminDelete('doomed');
    const posts = fal.requests.filter((r) => r.method === 'POST').length;
    await build(new FakeQueue()).processor.run(d.id, { retryCount: 0, retryLimit: 2 });
    expect(await service.get(ctx.workspace.id, d.id)).toMatchObject({ status: 'failed', error_code: 'MODEL_UNAVAILABLE', credits_charged: 0 });
    expect(fal.requests.filter((r) => r.method === 'POST').length).toBe(posts);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([
      ['charge', -3],
      ['refund', 3],
      ['charge', -2],
      ['refund', 2],
      ['charge', -1],
      ['refund', 1],
    ]);
    expect(await balanceOf(ctx.workspace.id)).toBe(20);
  });
});
