import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleTranscriptionsRepository } from '../../src/adapters/db/repositories/transcriptions.repository.js';
import { ledgerEntries, plans, transcriptions, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { NodeLocalFiles } from '../../src/adapters/files/local-files.js';
import { FfprobeMediaProbe } from '../../src/adapters/media/ffprobe.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { TranscriptionsService } from '../../src/domain/transcriptions/transcriptions.service.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.service.js';
import { DB_KINDS, openTestDatabase, insertTestPlan } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * TranscriptionsService on a real database, no HTTP and no worker: the charge, its ledger row and the
 * transcription commit together under the workspace's row lock, then the job is sent; a queue that
 * refuses leaves the transcription failed with QUEUE_UNAVAILABLE and refunded; a charge refused
 * creates nothing.
 */

let dir: string;
let wav: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-trn-svc-'));
  wav = path.join(dir, 'tone.wav');
  await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3:sample_rate=16000', '-ac', '1', '-c:a', 'pcm_s16le', wav]);
}, 60_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(DB_KINDS)('transcriptions service on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let storage: LocalStorage;
  let n = 0;

  const serviceOf = (queue: FakeQueue) => {
    const transactions = createTransactionRunner(database.db);
    return new TranscriptionsService({
      repo: new DrizzleTranscriptionsRepository(database.db),
      transactions,
      storage,
      files: new NodeLocalFiles(os.tmpdir()),
      probe: new FfprobeMediaProbe(),
      credits: new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: transactions }),
      queue,
      supportsLanguage: () => true,
      hasSpeech: async () => true,
      singleUploadMaxBytes: 1 << 30,
    });
  };

  /** A workspace with `credits`, on the plan `svc` (1 credit per started minute, 1 more with labels). */
  async function workspace(credits: number): Promise<WorkspaceWithPlan> {
    const [plan] = await database.db.select().from(plans).where(eq(plans.name, 'svc'));
    const [ws] = await database.db
      .insert(workspaces)
      .values({ id: `ws_${kind}_${++n}`, name: 'svc', planName: 'svc', credits })
      .returning();
    return { workspace: ws, plan };
  }

  /** An uploaded media of the 3-second WAV: its id. */
  async function uploaded(ctx: WorkspaceWithPlan, queue: FakeQueue): Promise<string> {
    const up = await serviceOf(queue).createUpload(ctx, { file_name: 'tone.wav', file_size: fs.statSync(wav).size, content_type: 'audio/wav' });
    const m = await serviceOf(queue).getMedia(ctx.workspace.id, up.media_id);
    await storage.putFile(m.storageKey, wav, 'audio/wav');
    return up.media_id;
  }

  const ledgerOf = async (workspaceId: string) =>
    (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.workspaceId, workspaceId)).orderBy(ledgerEntries.seq)).map((e) => [
      e.kind,
      e.amount,
    ]);
  const balanceOf = async (workspaceId: string) => (await database.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0].credits;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    storage = new LocalStorage({ dataDir: path.join(dir, kind), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });
    await insertTestPlan(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('two identical requests at once: one charge and one job, both answer the same transcription', async () => {
    const ctx = await workspace(10);
    const queue = new FakeQueue();
    const mediaId = await uploaded(ctx, queue);
    const first = await serviceOf(queue).create(ctx, { media_id: mediaId });
    expect(first).toMatchObject({ started: true, transcription: { status: 'processing', credits_charged: 1, speaker_labels: false } });

    // Labels asked: the run without them does not serve, so both requests compete for the one charge.
    const [a, b] = await Promise.all([0, 1].map(() => serviceOf(queue).create(ctx, { media_id: mediaId, speaker_labels: true })));
    expect(a.transcription.id).toBe(b.transcription.id);
    expect([a, b].map((x) => [x.started, x.transcription.status])).toEqual([
      [true, 'processing'],
      [true, 'processing'],
    ]);
    expect(queue.sent.map((s) => s.payload)).toEqual([{ transcriptionId: first.transcription.id }, { transcriptionId: a.transcription.id }]);
    expect(queue.sent[0].opts).toEqual({ expireInSeconds: 4 * 3600, retryLimit: 2, retryDelaySeconds: 2 });
    expect(await ledgerOf(ctx.workspace.id)).toEqual([
      ['charge', -1],
      ['charge', -2],
    ]);
    expect(await balanceOf(ctx.workspace.id)).toBe(7);
  }, 60_000);

  it('a transcription the queue refuses ends failed with QUEUE_UNAVAILABLE and refunded; the caller gets the queue’s error', async () => {
    const ctx = await workspace(10);
    const mediaId = await uploaded(ctx, new FakeQueue());
    await expect(serviceOf(new FakeQueue(1)).create(ctx, { media_id: mediaId })).rejects.toThrow('queue down');
    const rows = await database.db.select().from(transcriptions).where(eq(transcriptions.workspaceId, ctx.workspace.id));
    expect(rows.map((r) => [r.status, r.errorCode, r.creditsCharged])).toEqual([['failed', 'QUEUE_UNAVAILABLE', 0]]);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([
      ['charge', -1],
      ['refund', 1],
    ]);
    expect(await balanceOf(ctx.workspace.id)).toBe(10);
  }, 60_000);

  it('a refused charge creates nothing', async () => {
    const ctx = await workspace(0);
    const queue = new FakeQueue();
    const mediaId = await uploaded(ctx, queue);
    await expect(serviceOf(queue).create(ctx, { media_id: mediaId })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(await database.db.select().from(transcriptions).where(eq(transcriptions.workspaceId, ctx.workspace.id))).toEqual([]);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([]);
    expect(queue.sent).toEqual([]);
  }, 60_000);
});
