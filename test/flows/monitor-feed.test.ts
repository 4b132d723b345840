import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorEntries } from '../../src/adapters/db/schema/index.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { pollSubmission } from '../helpers/videos.js';

/**
 * A video monitor on an RSS feed of uploads, with the job runner on each database: the entries present
 * at start are the baseline (not clipped); a new entry becomes exactly one submission, charged like
 * POST /clips, that completes and lists under the monitor (`monitor_id`, GET /clips?monitor_id=), even
 * with two poll runs racing and after a restart; out of credits the monitor stops with INSUFFICIENT_CREDITS.
 */

let dir: string;
let srv: StaticServer;
let talk: string;

function rss(items: string[]): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Talks</title>${items
    .map((name) => `<item><title>${name}</title><guid>${name}</guid><enclosure url="${srv.url}/${name}.mp4" type="video/mp4"/></item>`)
    .join('')}</channel></rss>`;
}

beforeAll(async () => {
  dir = tempDir('cutroom-feed-');
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  for (const name of ['old1', 'old2', 'new1', 'new2', 'new3']) fs.copyFileSync(talk, path.join(dir, `${name}.mp4`));
  fs.writeFileSync(path.join(dir, 'feed.xml'), '');
  srv = await startStaticServer(dir);
}, 300_000);

afterAll(async () => {
  await srv?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe.each(DB_KINDS)('a video monitor on a feed (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, workers: true, env: { CUTROOM_ALLOW_PRIVATE_SOURCES: 'true', CUTROOM_MONITOR_POLL_SECONDS: '1' } });
  });
  afterAll(async () => t?.close());

  it('clips each new entry exactly once, not the baseline, and lists it under the monitor', async () => {
    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['old2', 'old1']));
    const ws = await t.workspace({ credits: 5 });
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/feed.xml`, strategy_id: 'str_short', source_language: 'en' })).body;
    expect(m).toMatchObject({ platform: 'feed', status: 'stopped' });
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/start`)).body.status).toBe('watching');
    await until('the baseline', async () => (await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body.last_checked_at);

    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['new1', 'old2', 'old1']));
    const listed = await until('the submission', async () => {
      const r = await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`);
      return r.body.submissions.length > 0 ? r.body : undefined;
    });
    expect(listed.submissions).toHaveLength(1);
    const sub = listed.submissions[0];
    expect(sub).toMatchObject({ monitor_id: m.id, credits_charged: 2 });
    const done = await pollSubmission(t, ws.key, sub.video_id, sub.id, (s) => s.status === 'completed' || s.status === 'failed');
    expect(done.status).toBe('completed');
    expect(done.monitor_id).toBe(m.id);

    // Two runs of the same poll racing (a duplicate after a crash, or two workers): still one submission per entry.
    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['new2', 'new1', 'old2', 'old1']));
    const cur = (await t.c.monitors.get(ws.id, m.id)).pollSeq;
    await Promise.all([t.c.monitorPoller.poll(m.id, cur), t.c.monitorPoller.poll(m.id, cur)]);
    await until('the second submission', async () => (await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions.length >= 2);
    await new Promise((r) => setTimeout(r, 3000));
    const all = (await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions;
    expect(all).toHaveLength(2);
    expect(new Set(all.map((s: any) => s.video_id)).size).toBe(2);
    // Other submissions are not the monitor's; the filter and the field say so.
    expect((await t.api(ws.key, 'GET', '/clips')).body.submissions.every((s: any) => s.monitor_id === m.id)).toBe(true);

    // Stopped, a new upload appears; after a restart it is part of the new baseline: not clipped.
    expect((await t.api(ws.key, 'POST', `/monitors/${m.id}/stop`)).body.stop_reason).toBe('USER');
    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['new3', 'new2', 'new1', 'old2', 'old1']));
    const restarted = await t.api(ws.key, 'POST', `/monitors/${m.id}/start`);
    expect(restarted.body.status).toBe('watching');
    await until('the new baseline', async () => {
      const rows = await t.c.database.db.select().from(monitorEntries);
      return rows.some((r) => r.monitorId === m.id && r.entryId === 'new3');
    });
    await new Promise((r) => setTimeout(r, 2500));
    expect((await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions).toHaveLength(2);
    const entries = (await t.c.database.db.select().from(monitorEntries)).filter((r) => r.monitorId === m.id);
    expect(
      entries
        .filter((e) => e.status === 'submitted')
        .map((e) => e.entryId)
        .sort(),
    ).toEqual(['new1', 'new2']);
    expect(
      entries
        .filter((e) => e.baseline)
        .map((e) => e.entryId)
        .sort(),
    ).toEqual(['new3', 'old1', 'old2']);
    await t.api(ws.key, 'POST', `/monitors/${m.id}/stop`);
  }, 600_000);

  it('stops with INSUFFICIENT_CREDITS when an upload cannot be paid', async () => {
    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['old1']));
    const ws = await t.workspace({ credits: 1 });
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/feed.xml` })).body;
    await t.api(ws.key, 'POST', `/monitors/${m.id}/start`);
    await until('the baseline', async () => (await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body.last_checked_at);
    fs.writeFileSync(path.join(dir, 'feed.xml'), rss(['new1', 'old1']));
    const stopped = await until('the stop', async () => {
      const r = (await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body;
      return r.status === 'stopped' ? r : undefined;
    });
    expect(stopped.stop_reason).toBe('INSUFFICIENT_CREDITS');
    expect((await t.api(ws.key, 'GET', `/clips?monitor_id=${m.id}`)).body.submissions).toEqual([]);
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(1);
  }, 120_000);

  it('stops with SOURCE_GONE when the feed is gone', async () => {
    fs.writeFileSync(path.join(dir, 'gone.xml'), rss(['old1']));
    const ws = await t.workspace({ credits: 1 });
    const m = (await t.api(ws.key, 'POST', '/monitors', { type: 'video', url: `${srv.url}/gone.xml` })).body;
    await t.api(ws.key, 'POST', `/monitors/${m.id}/start`);
    await until('the baseline', async () => (await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body.last_checked_at);
    fs.rmSync(path.join(dir, 'gone.xml'));
    const stopped = await until('the stop', async () => {
      const r = (await t.api(ws.key, 'GET', `/monitors/${m.id}`)).body;
      return r.status === 'stopped' ? r : undefined;
    });
    expect(stopped.stop_reason).toBe('SOURCE_GONE');
  }, 60_000);
});
