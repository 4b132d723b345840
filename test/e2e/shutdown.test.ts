import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/adapters/db/database.js';
import { tempDir } from '../helpers/app.js';
import { freePort, runCli, waitForHttp, type Proc } from '../helpers/process.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';

const procs: Proc[] = [];
afterAll(() => {
  for (const p of procs) p.child.kill('SIGKILL');
});

const SHUTDOWN_MS = 4000;

describe('SIGTERM to a busy embedded process', () => {
  it('ends it within CUTROOM_SHUTDOWN_TIMEOUT_MS although a slow upload and a submission are running; the job goes back to the queue', async () => {
    const dataDir = tempDir();
    const talk = (await makeTalkVideo(path.join(dataDir, 'talk.mp4'), { minutes: 1 })).path;
    const port = await freePort();
    const server = runCli(['serve'], {
      CUTROOM_DATA_DIR: dataDir,
      PORT: String(port),
      CUTROOM_ADMIN_TOKEN: '',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      CUTROOM_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
    });
    procs.push(server);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 120_000);
    const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    };

    // A submission in the middle of its pipeline.
    const up = await call('POST', '/videos/upload', { file_name: 'talk.mp4', file_size: fs.statSync(talk).size, content_type: 'video/mp4' });
    await fetch(up.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: fs.readFileSync(talk) });
    await call('POST', '/videos/upload/complete', { video_id: up.video_id, file_name: 'talk.mp4' });
    const sub = await call('POST', '/clips', { video_id: up.video_id });
    let status = '';
    for (let i = 0; i < 1500 && !['transcribing', 'video_analysis', 'analyzing'].includes(status); i++) {
      status = (await call('GET', `/clips/${up.video_id}/submissions/${sub.id}`)).status;
      expect(status).not.toMatch(/^(completed|failed)$/);
      await new Promise((r) => setTimeout(r, 100));
    }

    // An upload that trickles in and would take minutes: before, it held the shutdown (and the process) forever.
    const slow = await call('POST', '/videos/upload', { file_name: 'slow.mp4', file_size: 5_000_000, content_type: 'video/mp4' });
    const url = new URL(slow.upload_url);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': 5_000_000 },
    });
    req.on('error', () => {});
    const trickle = setInterval(() => req.write(Buffer.alloc(1000)), 100);
    await new Promise((r) => setTimeout(r, 500));

    const t0 = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    const took = Date.now() - t0;
    clearInterval(trickle);
    req.destroy();
    process.stdout.write(
      `shutdown: a busy embedded process (submission ${status}, upload in flight) ended ${took} ms after SIGTERM with status ${code} (limit ${SHUTDOWN_MS} ms)\n`,
    );
    // The graceful path finished (status 0), within the limit (plus the signal's and the exit's delivery).
    expect(code).toBe(0);
    expect(took).toBeLessThan(SHUTDOWN_MS + 250);
    expect(server.output()).toMatch(/returning running jobs to the queue/);

    // The cut-off run went back to the queue, due at once; nothing is leased or claimed in the process's name.
    const db = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') });
    try {
      const { rows } = await db.sql.executeSql(
        `select state, start_after <= now() as due from pgboss.job where name = 'submission.process' and data->>'submissionId' = $1`,
        [sub.id],
      );
      expect(rows).toEqual([{ state: 'retry', due: true }]);
      expect((await db.sql.executeSql(`select count(*)::int as n from job_leases`, [])).rows[0].n).toBe(0);
      expect((await db.sql.executeSql(`select count(*)::int as n from processes`, [])).rows[0].n).toBe(0);
    } finally {
      await db.close();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 300_000);
});
