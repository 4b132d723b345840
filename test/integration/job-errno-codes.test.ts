import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleTranscriptionsRepository } from '../../src/adapters/db/repositories/transcriptions.repository.js';
import { ledgerEntries, plans, transcriptions, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { NodeLocalFiles } from '../../src/adapters/files/local-files.js';
import { FfprobeMediaProbe } from '../../src/adapters/media/ffprobe.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { TranscriptionProcessor } from '../../src/domain/transcriptions/transcriptions.processor.js';
import { TranscriptionsService } from '../../src/domain/transcriptions/transcriptions.service.js';
import type { EventPublisher } from '../../src/domain/webhooks/events.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.service.js';
import type { AsrEngine } from '../../src/ports/asr.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * Security audit 2, finding 7, through the real failure path of a job: a transcription whose run
 * meets a system error the kernel raised — ENOSPC writing its audio (/dev/full refuses every write),
 * ECONNRESET from its speech server (a loopback server that resets the connection) — is recorded
 * `failed` with the stable code (STORAGE_FAILED, NETWORK_ERROR), refunded, and its webhook event
 * carries the same code; the errno is in the log line only. On both databases.
 */

let dir: string;
let wav: string;
let resetter: http.Server;
let resetUrl: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-errno-'));
  wav = path.join(dir, 'tone.wav');
  await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3:sample_rate=16000', '-ac', '1', '-c:a', 'pcm_s16le', wav]);
  // A speech server that drops every connection with a TCP reset.
  resetter = http.createServer((req) => req.socket.resetAndDestroy());
  await new Promise<void>((r) => resetter.listen(0, '127.0.0.1', r));
  resetUrl = `http://127.0.0.1:${(resetter.address() as AddressInfo).port}/v1/audio/transcriptions`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((r) => (resetter ? resetter.close(() => r()) : r()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** An ASR engine that posts the audio to `url` over real HTTP. */
const httpAsr = (url: string): AsrEngine => ({
  name: 'http',
  supportsLanguage: () => true,
  transcribe: (wavPath) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { 'content-type': 'audio/wav' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ language: 'en', words: [], segments: [] }));
      });
      req.on('error', reject);
      req.end(fs.readFileSync(wavPath));
    }),
});

describe.each(DB_KINDS)('a job failing with a system error records a stable code on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let storage: LocalStorage;
  let n = 0;
  const lines: Array<Record<string, any>> = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
        done();
      },
    }),
  );
  const published: Array<{ type: string; data: Record<string, unknown> }> = [];
  const events: EventPublisher = {
    async publish(_ws, type, data) {
      published.push({ type, data });
    },
  };

  const serviceOf = () => {
    const transactions = createTransactionRunner(database.db);
    return new TranscriptionsService({
      repo: new DrizzleTranscriptionsRepository(database.db),
      transactions,
      storage,
      files: new NodeLocalFiles(os.tmpdir()),
      probe: new FfprobeMediaProbe(),
      credits: new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: transactions }),
      queue: new FakeQueue(),
      supportsLanguage: () => true,
      hasSpeech: async () => true,
      singleUploadMaxBytes: 1 << 30,
      events,
    });
  };

  const processorOf = (extractAudio: (input: string, output: string) => Promise<boolean>, asr: AsrEngine) =>
    new TranscriptionProcessor({
      repo: new DrizzleTranscriptionsRepository(database.db),
      storage,
      transcriptions: serviceOf(),
      logger,
      files: new NodeLocalFiles(dir),
      extractAudio,
      vad: { name: 'whole-file', detect: async () => [{ start: 0, end: 3 }], close: async () => {} },
      asr,
      diarizer: { diarize: async () => [] },
    });

  /** A transcription of the 3-second WAV, charged and processing: its id and workspace. */
  async function processing(): Promise<{ id: string; workspaceId: string }> {
    const [plan] = await database.db.select().from(plans).where(eq(plans.name, 'svc'));
    const [ws] = await database.db
      .insert(workspaces)
      .values({ id: `ws_errno_${kind}_${++n}`, name: 'svc', planName: 'svc', credits: 10 })
      .returning();
    const ctx: WorkspaceWithPlan = { workspace: ws, plan };
    const up = await serviceOf().createUpload(ctx, { file_name: 'tone.wav', file_size: fs.statSync(wav).size, content_type: 'audio/wav' });
    const m = await serviceOf().getMedia(ws.id, up.media_id);
    await storage.putFile(m.storageKey, wav, 'audio/wav');
    const created = await serviceOf().create(ctx, { media_id: up.media_id });
    expect(created.transcription).toMatchObject({ status: 'processing', credits_charged: 1 });
    return { id: created.transcription.id, workspaceId: ws.id };
  }

  async function outcome(t: { id: string; workspaceId: string }) {
    const [row] = await database.db.select().from(transcriptions).where(eq(transcriptions.id, t.id));
    const ledger = (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.workspaceId, t.workspaceId)).orderBy(ledgerEntries.seq)).map((e) => [
      e.kind,
      e.amount,
    ]);
    const event = published.find((e) => e.data.id === t.id);
    const log = lines.find((l) => l.transcriptionId === t.id);
    return { status: row.status, errorCode: row.errorCode, ledger, event, log };
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    storage = new LocalStorage({ dataDir: path.join(dir, kind), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });
    await insertTestPlan(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('a full disk (a real ENOSPC) is recorded as STORAGE_FAILED, refunded; the errno is only logged', async () => {
    const t = await processing();
    const diskFull = async (_input: string, _output: string) => {
      await fs.promises.writeFile('/dev/full', fs.readFileSync(wav)); // the audio written to a full disk
      return true;
    };
    await processorOf(diskFull, httpAsr(resetUrl)).run(t.id, { retryCount: 0, retryLimit: 2 });
    const o = await outcome(t);
    expect([o.status, o.errorCode]).toEqual(['failed', 'STORAGE_FAILED']);
    expect(o.ledger).toEqual([
      ['charge', -1],
      ['refund', 1],
    ]);
    expect(o.event).toEqual({ type: 'transcription.failed', data: expect.objectContaining({ id: t.id, status: 'failed', error_code: 'STORAGE_FAILED' }) });
    expect(o.log).toMatchObject({ msg: 'transcription failed', code: 'STORAGE_FAILED', err: { code: 'ENOSPC' } });
  }, 60_000);

  it('a speech server that resets the connection (a real ECONNRESET) is recorded as NETWORK_ERROR', async () => {
    const t = await processing();
    const copy = async (input: string, output: string) => {
      await fs.promises.copyFile(input, output);
      return true;
    };
    await processorOf(copy, httpAsr(resetUrl)).run(t.id, { retryCount: 0, retryLimit: 2 });
    const o = await outcome(t);
    expect([o.status, o.errorCode]).toEqual(['failed', 'NETWORK_ERROR']);
    expect(o.ledger).toEqual([
      ['charge', -1],
      ['refund', 1],
    ]);
    expect(o.event?.data).toMatchObject({ error_code: 'NETWORK_ERROR' });
    expect(o.log).toMatchObject({ code: 'NETWORK_ERROR', err: { code: 'ECONNRESET' } });
  }, 60_000);
});
