import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleClipsRepository } from '../../src/adapters/db/repositories/clips.repository.js';
import { DrizzleRendersRepository } from '../../src/adapters/db/repositories/renders.repository.js';
import { edits, renders, workspaces } from '../../src/adapters/db/schema/index.js';
import { NodeLocalFiles } from '../../src/adapters/files/local-files.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { RenderProcessor, type RenderEngine } from '../../src/domain/renders/renders.processor.js';
import type { EventPublisher } from '../../src/domain/webhooks/events.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';

/**
 * `render.failed` and `render.completed` from the render worker (RenderProcessor) on a real database:
 * each ending is announced once, after it is stored, with the render's id, edit, status and (for a
 * failure) its error code; a run that may be retried announces nothing; a render given up by the
 * sweeper (RENDER_LOST) is announced too.
 */
describe.each(DB_KINDS)('render webhook events on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let dir: string;
  let storage: LocalStorage;
  const ws = `ws_rev_${kind}`;
  const published: Array<{ workspaceId: string; type: string; data: Record<string, unknown> }> = [];
  const events: EventPublisher = {
    async publish(workspaceId, type, data) {
      published.push({ workspaceId, type, data });
    },
  };
  let engineCalls = 0;
  let engineFailure: Error | undefined;
  const engine: RenderEngine = {
    async render(_edit, io) {
      engineCalls++;
      if (engineFailure) throw engineFailure;
      await fs.writeFile(io.outputPath, 'rendered bytes');
      return { sizeBytes: 14 };
    },
  };
  let processor: RenderProcessor;
  let n = 0;

  async function newRender(sourceKey: string, createdAt?: Date): Promise<{ id: string; editId: string }> {
    const editId = `edit_rev_${kind}_${++n}`;
    await database.db.insert(edits).values({
      id: editId,
      workspaceId: ws,
      hash: `hash_${n}`,
      spec: { source: { key: sourceKey, duration: 10, width: 1280, height: 720 }, in: 0, out: 5, resolution: '720p', watermark: false },
    });
    const id = `rnd_rev_${kind}_${n}`;
    await database.db.insert(renders).values({
      id,
      workspaceId: ws,
      editId,
      editHash: `hash_${n}`,
      status: 'queued',
      outputResolution: '720p',
      hasWatermark: false,
      ...(createdAt ? { createdAt } : {}),
    });
    return { id, editId };
  }

  const statusOf = async (id: string) => (await database.db.select().from(renders).where(eq(renders.id, id)))[0];
  const lastAttempt = { retryCount: 2, retryLimit: 2 };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertTestPlan(database.db);
    await database.db.insert(workspaces).values({ id: ws, name: 'render events', planName: 'svc' });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-events-'));
    storage = new LocalStorage({ dataDir: dir, publicBaseUrl: 'http://localhost:8080', signingSecret: 'render-events-secret' });
    await fs.writeFile(path.join(dir, 'source.mp4'), 'source bytes');
    await storage.putFile('videos/source.mp4', path.join(dir, 'source.mp4'), 'video/mp4');
    processor = new RenderProcessor({
      repo: new DrizzleRendersRepository(database.db),
      edits: new DrizzleClipsRepository(database.db),
      storage,
      files: new NodeLocalFiles(dir),
      engine,
      logger: pino({ level: 'silent' }),
      events,
    });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('a render whose source file is gone fails at once (SOURCE_NOT_FOUND) and announces render.failed once', async () => {
    published.length = 0;
    const r = await newRender('videos/missing.mp4');
    await processor.process(r.id, { retryCount: 0, retryLimit: 2 });
    expect(await statusOf(r.id)).toMatchObject({ status: 'failed', errorCode: 'SOURCE_NOT_FOUND' });
    expect(published).toEqual([
      { workspaceId: ws, type: 'render.failed', data: { id: r.id, edit_id: r.editId, status: 'failed', error_code: 'SOURCE_NOT_FOUND' } },
    ]);
    // The job delivered twice: the render has ended, nothing runs and nothing is announced again.
    await processor.process(r.id, lastAttempt);
    expect(published).toHaveLength(1);
  });

  it('an engine failure with retries left announces nothing; the last attempt fails the render and announces it', async () => {
    published.length = 0;
    engineCalls = 0;
    engineFailure = new Error('ffmpeg crashed');
    try {
      const r = await newRender('videos/source.mp4');
      await expect(processor.process(r.id, { retryCount: 0, retryLimit: 2 })).rejects.toThrow('ffmpeg crashed');
      expect(published).toEqual([]);
      expect((await statusOf(r.id)).status).toBe('active');
      await processor.process(r.id, lastAttempt);
      expect(engineCalls).toBe(2);
      expect(await statusOf(r.id)).toMatchObject({ status: 'failed', errorCode: 'RENDER_FAILED' });
      expect(published).toEqual([
        { workspaceId: ws, type: 'render.failed', data: { id: r.id, edit_id: r.editId, status: 'failed', error_code: 'RENDER_FAILED' } },
      ]);
    } finally {
      engineFailure = undefined;
    }
  });

  it('a completed render announces render.completed, never render.failed', async () => {
    published.length = 0;
    const r = await newRender('videos/source.mp4');
    await processor.process(r.id, { retryCount: 0, retryLimit: 2 });
    expect((await statusOf(r.id)).status).toBe('completed');
    expect(published).toEqual([{ workspaceId: ws, type: 'render.completed', data: { id: r.id, edit_id: r.editId, status: 'completed' } }]);
  });

  it('the sweeper gives up a render queued for more than a day (RENDER_LOST) and announces it', async () => {
    published.length = 0;
    const old = await newRender('videos/source.mp4', new Date(Date.now() - 25 * 3600 * 1000));
    const recent = await newRender('videos/source.mp4');
    const swept = await processor.expire();
    expect(swept.lost).toBe(1);
    expect(await statusOf(old.id)).toMatchObject({ status: 'failed', errorCode: 'RENDER_LOST' });
    expect((await statusOf(recent.id)).status).toBe('queued');
    expect(published).toEqual([
      { workspaceId: ws, type: 'render.failed', data: { id: old.id, edit_id: old.editId, status: 'failed', error_code: 'RENDER_LOST' } },
    ]);
    expect((await processor.expire()).lost).toBe(0);
    expect(published).toHaveLength(1);
  });
});
