import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/env.js';
import { createContainer, type Container } from '../../src/main/container.js';
import { bootstrap } from '../../src/main/bootstrap.js';
import { buildApp } from '../../src/http/app.js';
import { backup, BackupError, restore } from '../../src/main/backup.js';
import { clips, ledgerEntries, submissions, videos, workspaces } from '../../src/adapters/db/schema/index.js';
import { newId } from '../../src/shared/ids.js';

const ADMIN_TOKEN = 'backup-test-admin-token-0123456789abcdef';
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const configOf = (dataDir: string): Config =>
  loadConfig({ CUTROOM_DATA_DIR: dataDir, CUTROOM_ADMIN_TOKEN: ADMIN_TOKEN, CUTROOM_LOG_LEVEL: 'silent', CUTROOM_COMPUTE_THREADS: '0' });
const open = (dataDir: string) => createContainer({ config: configOf(dataDir), logger: pino({ level: 'silent' }), role: 'all' });
const noLog = () => {};

/** Everything a restore must bring back: rows of each kind and the bytes of each file. */
async function snapshot(c: Container) {
  const db = c.database.db;
  const files: Record<string, string> = {};
  for (const v of await db.select().from(videos)) {
    const chunks: Buffer[] = [];
    for await (const chunk of await c.storage.read(v.storageKey!)) chunks.push(chunk as Buffer);
    files[v.storageKey!] = Buffer.concat(chunks).toString('hex');
  }
  for (const cl of await db.select().from(clips)) {
    const info = await c.storage.head(cl.previewKey!);
    files[cl.previewKey!] = String(info?.size);
  }
  const sort = <T extends { id: string }>(rows: T[]) => rows.map((r) => r.id).sort();
  return {
    workspaces: (await db.select().from(workspaces)).map((w) => ({ id: w.id, name: w.name, credits: w.credits })).sort((a, b) => a.id.localeCompare(b.id)),
    ledger: sort(await db.select().from(ledgerEntries)),
    submissions: sort(await db.select().from(submissions)),
    clips: sort(await db.select().from(clips)),
    files,
  };
}

describe('cutroom backup and restore (embedded mode)', () => {
  let source: string;
  let expected: Awaited<ReturnType<typeof snapshot>>;
  const dirs: string[] = [];
  const dir = (prefix: string) => {
    const d = tmp(prefix);
    dirs.push(d);
    return d;
  };

  /** An installation with workspaces, ledger rows, a submission with clips and their files. */
  beforeAll(async () => {
    source = dir('cutroom-backup-src-');
    const c = await open(source);
    try {
      await bootstrap(c);
      for (const name of ['Acme', 'Globex']) {
        const ws = await c.workspaces.create({ name, plan: 'default', credits: 40 });
        await c.credits.adjust({ workspaceId: ws.workspace.id, amount: 25, reason: 'top-up' });
        await c.credits.charge({ workspaceId: ws.workspace.id, amount: 5, reason: 'clipping', jobType: 'submission', jobId: `job-${name}` });
        const videoId = newId('vid');
        const key = `uploads/${ws.workspace.id}/${videoId}/source.mp4`;
        const file = path.join(source, `${videoId}.bin`);
        fs.writeFileSync(file, randomBytes(50_000));
        await c.storage.putFile(key, file, 'video/mp4');
        fs.rmSync(file);
        await c.database.db.insert(videos).values({
          id: videoId,
          workspaceId: ws.workspace.id,
          source: 'upload',
          status: 'ready',
          platform: 'upload',
          title: 'Talk',
          author: '',
          storageKey: key,
        });
        const subId = newId('sub');
        await c.database.db.insert(submissions).values({
          id: subId,
          workspaceId: ws.workspace.id,
          videoId,
          status: 'completed',
          timeframeStart: 0,
          timeframeEnd: 600,
          sourceKey: key,
          finishedAt: new Date(),
        });
        for (const position of [0, 1, 2]) {
          const clipId = newId('clip');
          const previewKey = `previews/${ws.workspace.id}/${clipId}.mp4`;
          const preview = path.join(source, `${clipId}.bin`);
          fs.writeFileSync(preview, randomBytes(1000 + position));
          await c.storage.putFile(previewKey, preview, 'video/mp4');
          fs.rmSync(preview);
          await c.database.db.insert(clips).values({
            id: clipId,
            workspaceId: ws.workspace.id,
            submissionId: subId,
            position,
            title: `Clip ${position}`,
            rating: 5,
            startTime: position,
            endTime: position + 30,
            language: 'en',
            previewKey,
          });
        }
      }
      expected = await snapshot(c);
    } finally {
      await c.close();
    }
    expect(expected.workspaces).toHaveLength(3);
    expect(expected.clips).toHaveLength(6);
    expect(Object.keys(expected.files)).toHaveLength(8);
  });
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('stopped: backs up the database and the files, and a restore into a fresh data dir finds every workspace, ledger row, clip and file', async () => {
    const out = path.join(dir('cutroom-backup-out-'), 'b1');
    const manifest = await backup(configOf(source), out, { fetchDump: () => Promise.reject(new Error('not running')), log: noLog });
    expect(manifest).toMatchObject({ format: 1, mode: 'offline', storage: 'local', files: { count: 8 }, secrets: ['api-key'] });
    expect((fs.statSync(path.join(out, 'secrets', 'api-key')).mode & 0o777).toString(8)).toBe('600');

    const target = dir('cutroom-restore-');
    await restore(configOf(target), out, { log: noLog });
    expect(fs.readFileSync(path.join(target, 'api-key'), 'utf8')).toBe(fs.readFileSync(path.join(source, 'api-key'), 'utf8'));
    const c = await open(target);
    try {
      expect(await snapshot(c)).toEqual(expected);
    } finally {
      await c.close();
    }
    // A second restore into the same data dir is refused: it holds a database now.
    await expect(restore(configOf(target), out, { log: noLog })).rejects.toThrow(BackupError);
  });

  it('running: the service dumps its database (GET /admin/v1/backup/database) and the restore finds everything', async () => {
    const c = await open(source);
    await bootstrap(c);
    // The service's lock, as another live process holds it (the backup cannot open the database itself).
    const holder = spawn('sleep', ['120'], { stdio: 'ignore' });
    fs.writeFileSync(path.join(source, 'cutroom.lock'), String(holder.pid));
    const app = await buildApp(c, { logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/admin/v1/backup/database' })).statusCode).toBe(401);
      const out = path.join(dir('cutroom-backup-out-'), 'b2');
      const manifest = await backup(configOf(source), out, {
        async fetchDump() {
          const res = await app.inject({ method: 'GET', url: '/admin/v1/backup/database', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('application/gzip');
          return new Uint8Array(res.rawPayload);
        },
        log: noLog,
      });
      expect(manifest).toMatchObject({ mode: 'online', files: { count: 8 } });
      // The running service still owns its data directory.
      expect(fs.readFileSync(path.join(source, 'cutroom.lock'), 'utf8')).toBe(String(holder.pid));

      const target = dir('cutroom-restore-');
      await restore(configOf(target), out, { log: noLog });
      const restored = await open(target);
      try {
        expect(await snapshot(restored)).toEqual(expected);
      } finally {
        await restored.close();
      }
    } finally {
      await app.close();
      await c.close();
      holder.kill();
      fs.rmSync(path.join(source, 'cutroom.lock'), { force: true });
    }
  });

  it('refuses the distributed mode, a non-empty target and a folder that is not a backup', async () => {
    const distributed = { ...configOf(source), databaseUrl: 'postgres://db/cutroom' };
    await expect(backup(distributed, dir('cutroom-x-'), { fetchDump: async () => new Uint8Array(), log: noLog })).rejects.toThrow(/pg_dump/);
    const full = dir('cutroom-full-');
    fs.writeFileSync(path.join(full, 'something'), 'x');
    await expect(backup(configOf(source), full, { fetchDump: async () => new Uint8Array(), log: noLog })).rejects.toThrow(/not empty/);
    await expect(restore(configOf(dir('cutroom-fresh-')), dir('cutroom-nobackup-'), { log: noLog })).rejects.toThrow(/not a Cutroom backup/);
  });
});
