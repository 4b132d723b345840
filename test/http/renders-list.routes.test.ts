import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renders } from '../../src/adapters/db/schema/index.js';
import { newId } from '../../src/shared/ids.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/** GET /renders: newest first, paginated, the status filter as GET /renders/{id} shows statuses, only the workspace's. */

let t: TestApp;
let dir: string;
let source: string;

beforeAll(async () => {
  dir = tempDir('cutroom-renders-list-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 160, height: 90 });
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('GET /renders', () => {
  it('lists the workspace’s renders newest first and filters by status (a completed render past its expiry is expired)', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 0, end: 20 }] });
    const g = await clipsFixture(t, other.id, source, { ranges: [{ start: 0, end: 20 }] });
    const now = Date.now();
    const row = (workspaceId: string, editId: string, status: string, ageSeconds: number, extra: Partial<typeof renders.$inferInsert> = {}) => ({
      id: newId('rnd'),
      workspaceId,
      editId,
      editHash: `h-${status}`,
      status,
      outputResolution: '1080p',
      hasWatermark: false,
      createdAt: new Date(now - ageSeconds * 1000),
      ...extra,
    });
    const rows = [
      row(ws.id, f.editIds[0], 'queued', 10),
      row(ws.id, f.editIds[0], 'active', 20, { progress: 40 }),
      row(ws.id, f.editIds[0], 'completed', 30, {
        progress: 100,
        storageKey: 'renders/x.mp4',
        completedAt: new Date(now),
        expiresAt: new Date(now + 3600_000),
      }),
      row(ws.id, f.editIds[0], 'completed', 40, {
        progress: 100,
        storageKey: 'renders/y.mp4',
        completedAt: new Date(now - 7200_000),
        expiresAt: new Date(now - 60_000),
      }),
      row(ws.id, f.editIds[0], 'failed', 50, { errorCode: 'RENDER_TIMEOUT' }),
      row(other.id, g.editIds[0], 'queued', 5),
    ];
    await t.c.database.db.insert(renders).values(rows);

    const all = await t.api(ws.key, 'GET', '/renders');
    expect(all.status).toBe(200);
    expect(all.body.renders.map((r: any) => [r.id, r.status])).toEqual([
      [rows[0].id, 'queued'],
      [rows[1].id, 'active'],
      [rows[2].id, 'completed'],
      [rows[3].id, 'expired'],
      [rows[4].id, 'failed'],
    ]);
    expect(all.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 5, has_next_page: false });
    expect(all.body.renders[2].download_url).toMatch(/^http/);
    expect(all.body.renders[3].download_url).toBeNull();

    for (const [status, expected] of [
      ['queued', [rows[0].id]],
      ['active', [rows[1].id]],
      ['completed', [rows[2].id]],
      ['expired', [rows[3].id]],
      ['failed', [rows[4].id]],
    ] as const) {
      const res = await t.api(ws.key, 'GET', `/renders?status=${status}`);
      expect(
        res.body.renders.map((r: any) => r.id),
        status,
      ).toEqual(expected);
    }
    const page = await t.api(ws.key, 'GET', '/renders?limit=2&page=2');
    expect(page.body.renders.map((r: any) => r.id)).toEqual([rows[2].id, rows[3].id]);
    expect(page.body.pagination).toEqual({ current_page: 2, total_pages: 3, total_count: 5, has_next_page: true });

    const theirs = await t.api(other.key, 'GET', '/renders');
    expect(theirs.body.renders.map((r: any) => r.id)).toEqual([rows[5].id]);
  });

  it('400 VALIDATION_ERROR for an unknown status or a bad page', async () => {
    const ws = await t.workspace();
    for (const q of ['status=done', 'limit=0', 'page=0', 'limit=101']) {
      const res = await t.api(ws.key, 'GET', `/renders?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });
});
