import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clips, edits, renders, submissions, videos } from '../../src/adapters/db/schema/index.js';
import { newId } from '../../src/shared/ids.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { DbKind } from '../helpers/db.js';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: http.Server;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: Record<string, unknown>) => S3rverInstance;
const BUCKET = 'cutroom-retention';
const HOUR = 3600_000;

/** Bytes of every file under `dir` (what the storage really holds on disk). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

interface Driver {
  env: Record<string, string>;
  /** The folder the store keeps its bytes in. */
  dir(t: TestApp): string;
  close(): Promise<void>;
}

async function localDriver(): Promise<Driver> {
  return { env: {}, dir: (t) => path.join(t.dataDir, 'files'), close: async () => {} };
}

async function s3Driver(): Promise<Driver> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-s3rver-'));
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3rver.run();
  return {
    env: {
      CUTROOM_STORAGE: 's3',
      CUTROOM_S3_BUCKET: BUCKET,
      CUTROOM_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      CUTROOM_S3_FORCE_PATH_STYLE: 'true',
      CUTROOM_S3_ACCESS_KEY_ID: 'S3RVER',
      CUTROOM_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    dir: () => directory,
    async close() {
      s3rver.httpServer?.closeAllConnections();
      await s3rver.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

const drivers: Array<[string, () => Promise<Driver>, DbKind]> = [
  ['local storage, PGlite', localDriver, 'pglite'],
  ['s3 storage, PGlite', s3Driver, 'pglite'],
  ['local storage, PostgreSQL', localDriver, 'postgres'],
];

describe.each(drivers)('submission retention on %s', (_name, start, db) => {
  let driver: Driver;
  let t: TestApp;
  let scratch: string;

  beforeAll(async () => {
    driver = await start();
    t = await createTestApp({ env: driver.env, db });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-retention-'));
    await t.c.plans.create('short_keep', { submission_retention_hours: 1 });
  });
  afterAll(async () => {
    await t?.close();
    await driver?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Stores `size` random bytes under `key` through the service's storage. */
  async function put(key: string, size = 200_000): Promise<void> {
    const file = path.join(scratch, randomBytes(6).toString('hex'));
    fs.writeFileSync(file, randomBytes(size));
    await t.c.storage.putFile(key, file, 'video/mp4');
  }

  /** An uploaded video with its source in storage. */
  async function video(workspaceId: string): Promise<{ id: string; key: string }> {
    const id = newId('vid');
    const key = `uploads/${workspaceId}/${id}/source-${randomBytes(4).toString('hex')}.mp4`;
    await put(key);
    await t.c.database.db.insert(videos).values({
      id,
      workspaceId,
      source: 'upload',
      status: 'ready',
      platform: 'upload',
      title: 'Talk',
      author: '',
      duration: 600,
      width: 1280,
      height: 720,
      hasAudio: true,
      storageKey: key,
    });
    return { id, key };
  }

  /** A submission of the video finished `hoursAgo`, with two clips, their previews in storage and an edit each. */
  async function finished(workspaceId: string, v: { id: string; key: string }, hoursAgo: number) {
    const db = t.c.database.db;
    const id = newId('sub');
    await db.insert(submissions).values({
      id,
      workspaceId,
      videoId: v.id,
      status: 'completed',
      timeframeStart: 0,
      timeframeEnd: 600,
      sourceKey: v.key,
      language: 'en',
      clipsCount: 2,
      transcript: { language: 'en', words: [{ start: 1, end: 2, text: 'hello' }] },
      analysis: { duration: 600 },
      finishedAt: new Date(Date.now() - hoursAgo * HOUR),
    });
    const clipIds: string[] = [];
    const previews: string[] = [];
    const editIds: string[] = [];
    for (const position of [0, 1]) {
      const clipId = newId('clip');
      const previewKey = `previews/${workspaceId}/${clipId}.mp4`;
      await put(previewKey, 100_000);
      const editId = newId('edit');
      await db.insert(edits).values({ id: editId, workspaceId, clipId, hash: `h-${editId}`, spec: { source: { key: v.key } }, templateId: null });
      await db.insert(clips).values({
        id: clipId,
        workspaceId,
        submissionId: id,
        position,
        title: `Clip ${position}`,
        rating: 5,
        startTime: position * 60,
        endTime: position * 60 + 30,
        language: 'en',
        previewKey,
        editId,
      });
      clipIds.push(clipId);
      previews.push(previewKey);
      editIds.push(editId);
    }
    return { id, clipIds, previews, editIds };
  }

  it('after the plan’s retention: previews and the source are deleted and their space freed; the submission and its clip routes answer 410', async () => {
    const ws = await t.workspace({ plan: 'short_keep', credits: 100 });
    const v = await video(ws.id);
    const sub = await finished(ws.id, v, 2);
    // A render of one of its edits keeps its own expiry.
    const renderKey = `renders/${ws.id}/rnd_keep.mp4`;
    await put(renderKey, 50_000);
    const renderId = newId('rnd');
    await t.c.database.db.insert(renders).values({
      id: renderId,
      workspaceId: ws.id,
      editId: sub.editIds[0],
      editHash: 'h',
      status: 'completed',
      progress: 100,
      outputResolution: '1080p',
      hasWatermark: false,
      storageKey: renderKey,
      size: 50_000,
      completedAt: new Date(),
      expiresAt: new Date(Date.now() + 72 * HOUR),
    });
    const base = `/clips/${v.id}/submissions/${sub.id}`;
    expect((await t.api(ws.key, 'GET', base)).status).toBe(200);
    expect((await t.api(ws.key, 'GET', `${base}/clips`)).body.clips).toHaveLength(2);

    const before = bytesUnder(driver.dir(t));
    const swept = await t.c.submissionRetention.sweep();
    expect(swept).toEqual({ expired: 1, filesDeleted: 3 });
    for (const key of [...sub.previews, v.key]) expect(await t.c.storage.head(key), key).toBeNull();
    // 200 kB of source and 2 × 100 kB of previews are really gone from the disk.
    expect(before - bytesUnder(driver.dir(t))).toBeGreaterThanOrEqual(400_000);

    const expired = await t.api(ws.key, 'GET', base);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'SUBMISSION_EXPIRED' });
    expect(new Date(expired.body.extra.expired_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.api(ws.key, 'GET', `${base}/clips`)).body.code).toBe('SUBMISSION_EXPIRED');
    expect((await t.api(ws.key, 'DELETE', base)).status).toBe(410);
    expect((await t.api(ws.key, 'POST', `${base}/apply_template`, { template_id: 'tpl_default' })).status).toBe(410);
    expect((await t.api(ws.key, 'POST', `${base}/clips/${sub.clipIds[0]}/render`)).status).toBe(410);
    // Another workspace still gets 404 for it.
    const other = await t.workspace();
    expect((await t.api(other.key, 'GET', base)).status).toBe(404);

    // Stage results are dropped; the ledger, the edits and the render stay.
    const [row] = await t.c.database.db.select().from(submissions).where(eq(submissions.id, sub.id));
    expect(row).toMatchObject({ transcript: null, analysis: null, status: 'completed' });
    expect(await t.c.database.db.select().from(edits).where(eq(edits.clipId, sub.clipIds[0]))).toHaveLength(1);
    expect((await t.api(ws.key, 'GET', `/renders/${renderId}/download`)).status).toBe(200);
    expect(await t.c.storage.head(renderKey)).not.toBeNull();
    // The uploaded video's file is gone: a new submission of it is refused.
    expect((await t.api(ws.key, 'POST', '/clips', { video_id: v.id })).body.code).toBe('FILE_NOT_FOUND');
    // A second sweep finds nothing more.
    expect(await t.c.submissionRetention.sweep()).toEqual({ expired: 0, filesDeleted: 0 });
  });

  it('keeps the source while another submission of the video is within its retention, and submissions of longer plans', async () => {
    const ws = await t.workspace({ plan: 'short_keep' });
    const v = await video(ws.id);
    const old = await finished(ws.id, v, 3);
    const recent = await finished(ws.id, v, 0.1);
    const long = await t.workspace();
    const lv = await video(long.id);
    const kept = await finished(long.id, lv, 30 * 24 - 1);

    expect(await t.c.submissionRetention.sweep()).toEqual({ expired: 1, filesDeleted: 2 });
    expect(await t.c.storage.head(v.key)).not.toBeNull();
    expect((await t.api(ws.key, 'GET', `/clips/${v.id}/submissions/${old.id}`)).status).toBe(410);
    expect((await t.api(ws.key, 'GET', `/clips/${v.id}/submissions/${recent.id}/clips`)).status).toBe(200);
    expect((await t.api(long.key, 'GET', `/clips/${lv.id}/submissions/${kept.id}`)).status).toBe(200);
    for (const key of [...recent.previews, ...kept.previews, lv.key]) expect(await t.c.storage.head(key), key).not.toBeNull();

    // Once the last one is past its retention too, the source goes with it.
    await t.c.database.db
      .update(submissions)
      .set({ finishedAt: new Date(Date.now() - 2 * HOUR) })
      .where(eq(submissions.id, recent.id));
    expect(await t.c.submissionRetention.sweep()).toEqual({ expired: 1, filesDeleted: 3 });
    expect(await t.c.storage.head(v.key)).toBeNull();
  });

  it('the retention is a plan setting of the admin API (default 720 hours)', async () => {
    expect((await t.admin('GET', '/plans/default')).body.submission_retention_hours).toBe(720);
    const r = await t.admin('PATCH', '/plans/short_keep', { submission_retention_hours: 0.5 });
    expect(r.body.submission_retention_hours).toBe(0.5);
    const bad = await t.admin('PATCH', '/plans/short_keep', { submission_retention_hours: 0 });
    expect(bad.status).toBe(400);
  });
});
