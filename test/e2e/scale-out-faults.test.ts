import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { openTestDatabase } from '../helpers/db.js';
import { freePort, runCli, waitForHttp, type Proc } from '../helpers/process.js';
import { makeTalkVideo, makeTalkWav } from '../helpers/speech-fixtures.js';

/**
 * Scale-out under faults, on the machine's PostgreSQL and a local S3 server (s3rver), all on loopback:
 * two api and two worker processes run the whole flow (upload through both api nodes, clips,
 * transcription, render, a post to the `local` network) while the test SIGKILLs one api process in the
 * middle of POST /clips (the client retries with the same Idempotency-Key on the other one) and the
 * worker running the submission in the middle of its pipeline. A short lease (8 s) bounds the recovery.
 */
const LEASE_SECONDS = 8;
const SHUTDOWN_MS = 5000;
const BUCKET = 'cutroom-faults';
const ADMIN = 'adm-test-faults-0123456789abcdef0123';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: http.Server;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: Record<string, unknown>) => S3rverInstance;

const procs: Proc[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const p of procs) p.child.kill('SIGKILL');
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

const log = (line: string) => process.stdout.write(`scale-out: ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}
async function call(
  base: string,
  method: string,
  url: string,
  opts: { key?: string; admin?: boolean; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers['x-api-key'] = opts.key;
  if (opts.admin) headers.authorization = `Bearer ${ADMIN}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text, headers: res.headers };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

describe('two api and two worker processes on PostgreSQL and S3, with a worker and an api process killed', () => {
  it('every job completes, charged once, no duplicates; a killed request is retried once on the other api; the surviving api answers throughout', async () => {
    const started = Date.now();
    const dir = tempDir('cutroom-faults-');
    const talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1 })).path;
    const speech = (await makeTalkWav(path.join(dir, 'speech.wav'), { minutes: 0.25 })).path;

    // Storage: s3rver on loopback. Records and jobs: a scratch PostgreSQL database.
    const s3dir = path.join(dir, 's3');
    const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: s3dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port: s3port } = await s3rver.run();
    cleanups.push(async () => {
      s3rver.httpServer?.closeAllConnections();
      await s3rver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const scratch = await openTestDatabase('postgres');
    cleanups.push(() => scratch.close());
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    cleanups.push(() => db.end());
    const q = async (text: string, values: unknown[] = []) => (await db.query(text, values)).rows;

    const [apiPort1, apiPort2, workerPort1, workerPort2] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const base1 = `http://127.0.0.1:${apiPort1}`;
    const base2 = `http://127.0.0.1:${apiPort2}`;
    const env = {
      DATABASE_URL: scratch.url!,
      CUTROOM_DATA_DIR: path.join(dir, 'data'),
      CUTROOM_ADMIN_TOKEN: ADMIN,
      PUBLIC_BASE_URL: base2,
      CUTROOM_RATE_LIMIT_STORE: 'database',
      CUTROOM_STORAGE: 's3',
      CUTROOM_S3_BUCKET: BUCKET,
      CUTROOM_S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
      CUTROOM_S3_FORCE_PATH_STYLE: 'true',
      CUTROOM_S3_ACCESS_KEY_ID: 'S3RVER',
      CUTROOM_S3_SECRET_ACCESS_KEY: 'S3RVER',
      CUTROOM_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      CUTROOM_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
      CUTROOM_COMPUTE_THREADS: '1',
    };
    const start = (role: 'api' | 'worker', port: number) => {
      const p = runCli(['serve', '--role', role], { ...env, PORT: String(port) });
      procs.push(p);
      return p;
    };
    const api1 = start('api', apiPort1);
    const api2 = start('api', apiPort2);
    const workers = [start('worker', workerPort1), start('worker', workerPort2)];
    for (const port of [apiPort1, apiPort2, workerPort1, workerPort2]) await waitForHttp(`http://127.0.0.1:${port}/readyz`, 120_000);
    const processRow = async (p: Proc) => (await q(`select id from processes where pid = $1`, [p.child.pid]))[0]?.id as string | undefined;
    log(`4 processes up after ${Date.now() - started} ms (lease ${LEASE_SECONDS} s)`);

    // The surviving api answers throughout: /readyz (database included) every 250 ms until the end.
    const outages: string[] = [];
    let probes = 0;
    let probing = true;
    const prober = (async () => {
      while (probing) {
        probes++;
        const r = await fetch(`${base2}/readyz`).then(
          (x) => x.status,
          (e: Error) => e.message,
        );
        if (r !== 200) outages.push(`${new Date().toISOString()} ${r}`);
        await sleep(250);
      }
    })();

    // A workspace, a key and a `local` account, through both api nodes.
    const ws = (await call(base1, 'POST', '/admin/v1/workspaces', { admin: true, body: { name: 'Faults', credits: 20 } })).body;
    const key = (await call(base2, 'POST', '/admin/v1/keys', { admin: true, body: { workspace_ids: [ws.id] } })).body.key as string;
    const con = (await call(base1, 'POST', `/admin/v1/workspaces/${ws.id}/connections`, { admin: true, body: { platform: 'local', account_name: 'faults' } }))
      .body;

    // The rate-limit counter is shared by the api nodes.
    const r1 = await call(base1, 'GET', '/api/v1/balance', { key });
    const r2 = await call(base2, 'GET', '/api/v1/balance', { key });
    expect(r2.body).toEqual({ balance: 20, unlimited: false, unlimited_until: null });
    if (r1.headers.get('x-ratelimit-reset') === r2.headers.get('x-ratelimit-reset')) {
      expect(Number(r2.headers.get('x-ratelimit-remaining'))).toBe(Number(r1.headers.get('x-ratelimit-remaining')) - 1);
    }

    // Upload through api 1, completion through api 2 (the bytes go to S3 directly).
    const size = fs.statSync(talk).size;
    const up = (await call(base1, 'POST', '/api/v1/videos/upload', { key, body: { file_name: 'talk.mp4', file_size: size, content_type: 'video/mp4' } })).body;
    expect((await fetch(up.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: fs.readFileSync(talk) })).status).toBe(200);
    const video = await call(base2, 'POST', '/api/v1/videos/upload/complete', { key, body: { video_id: up.video_id, file_name: 'talk.mp4' } });
    expect(video.status).toBe(200);

    // POST /clips on api 1 while the test holds the workspace row: the request has claimed its
    // Idempotency-Key and waits for the credits lock when api 1 is killed.
    const idemKey = 'faults-clips-1';
    const clipsBody = { video_id: up.video_id, source_language: 'en' };
    await q('begin');
    await q(`select id from workspaces where id = $1 for update`, [ws.id]);
    const api1Id = await processRow(api1);
    const lost = call(base1, 'POST', '/api/v1/clips', { key, body: clipsBody, headers: { 'idempotency-key': idemKey } }).then(
      (a) => `answered ${a.status}`,
      (e: Error) => `no answer (${e.message})`,
    );
    const claim = await until(
      'the claim of api 1',
      async () => (await q(`select owner, status_code from idempotency_keys where key = $1`, [idemKey]))[0],
      10_000,
      20,
    );
    expect(claim).toEqual({ owner: api1Id, status_code: null });
    api1.child.kill('SIGKILL');
    const apiKilledAt = Date.now();
    await api1.exited;
    await q('rollback');
    log(`killed api 1 (pid ${api1.child.pid}) during POST /clips: the client got ${await lost}`);

    // The client retries the same request with the same key on api 2 until it is answered.
    let conflicts = 0;
    let sub: Answer;
    for (;;) {
      sub = await call(base2, 'POST', '/api/v1/clips', { key, body: clipsBody, headers: { 'idempotency-key': idemKey } });
      if (sub.status !== 409) break;
      expect(sub.body.code).toBe('REQUEST_IN_PROGRESS');
      conflicts++;
      await sleep(500);
    }
    const apiRecovery = Date.now() - apiKilledAt;
    expect(sub.status).toBe(201);
    expect(apiRecovery).toBeLessThanOrEqual(LEASE_SECONDS * 1000 + 1000);
    const replay = await call(base2, 'POST', '/api/v1/clips', { key, body: clipsBody, headers: { 'idempotency-key': idemKey } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(sub.body.id);
    log(`the retry on api 2 was answered 201 ${apiRecovery} ms after the kill (${conflicts} × 409 REQUEST_IN_PROGRESS before); a second retry replayed it`);

    // A standalone transcription of 15 s of speech, running beside the submission.
    const media = (
      await call(base2, 'POST', '/api/v1/transcriptions/upload', {
        key,
        body: { file_name: 'speech.wav', file_size: fs.statSync(speech).size, content_type: 'audio/wav' },
      })
    ).body;
    expect((await fetch(media.upload_url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: fs.readFileSync(speech) })).status).toBe(200);
    const trn = (await call(base2, 'POST', '/api/v1/transcriptions', { key, body: { media_id: media.media_id, source_language: 'en' } })).body;
    expect(trn.status).toBe('processing');

    // Kill the worker running the submission in the middle of its pipeline, once its transcript is kept.
    const subUrl = `/api/v1/clips/${up.video_id}/submissions/${sub.body.id}`;
    const stages: string[] = [];
    const stageOf = async () => {
      const s = (await call(base2, 'GET', subUrl, { key })).body.status as string;
      if (stages.at(-1) !== s) stages.push(s);
      return s;
    };
    const stage = await until(
      'a stage after the transcription',
      async () => {
        const s = await stageOf();
        expect(s).not.toMatch(/^(completed|failed)$/);
        return ['video_analysis', 'analyzing'].includes(s) ? s : undefined;
      },
      240_000,
      100,
    );
    log(`submission stages so far: ${stages.join(' → ')} (${Date.now() - started} ms into the run)`);
    const lease = async () =>
      (await q(`select l.process_id, p.pid from job_leases l left join processes p on p.id = l.process_id where l.job_name = 'submission.process'`))[0];
    const holder = await lease();
    const victim = workers.find((w) => w.child.pid === holder.pid)!;
    expect(victim).toBeDefined();
    const survivor = workers.find((w) => w !== victim)!;
    const survivorId = await processRow(survivor);
    const taken = (await q(`select job_name from job_leases where process_id = $1`, [holder.process_id])).map((r) => r.job_name);
    victim.child.kill('SIGKILL');
    const workerKilledAt = Date.now();
    await victim.exited;
    log(`killed the worker (pid ${victim.child.pid}) running the submission at stage ${stage}; it held: ${taken.join(', ')}`);
    await until(
      'the submission leased by the surviving worker',
      async () => ((await lease())?.process_id === survivorId ? true : undefined),
      LEASE_SECONDS * 1000 + 5000,
      100,
    );
    const workerRecovery = Date.now() - workerKilledAt;
    log(`the surviving worker took the submission over ${workerRecovery} ms after the kill`);
    expect(workerRecovery).toBeLessThanOrEqual(LEASE_SECONDS * 1000);

    const done = await until(
      'the submission',
      async () => {
        const s = (await call(base2, 'GET', subUrl, { key })).body;
        return s.status === 'completed' || s.status === 'failed' ? s : undefined;
      },
      240_000,
      500,
    ).catch(async (err) => {
      log(
        `the submission did not finish: ${JSON.stringify(await q(`select name, state, retry_count, output from pgboss.job where name = 'submission.process'`))}\n${survivor.output().slice(-4000)}`,
      );
      throw err;
    });
    expect(done).toMatchObject({ status: 'completed', error_code: null, credits_charged: video.body.credits_cost });
    log(`submission completed ${Date.now() - workerKilledAt} ms after the worker was killed, with ${done.clips_count} clips`);
    const clips = (await call(base2, 'GET', `${subUrl}/clips?limit=100&sort=rating&order=desc`, { key })).body;
    expect(clips.pagination.total_count).toBe(done.clips_count);
    const spans = clips.clips.map((c: any) => `${c.start_time}-${c.end_time}`);
    expect(new Set(spans).size).toBe(spans.length);
    const subs = (await call(base2, 'GET', `/api/v1/clips?video_id=${up.video_id}`, { key })).body;
    expect(subs.pagination.total_count).toBe(1);

    // Render the best clip and post it to the `local` account.
    const best = clips.clips[0];
    const render = await call(base2, 'POST', '/api/v1/renders', { key, body: { edit_id: best.edit_id } });
    expect([200, 202]).toContain(render.status);
    const rendered = await until(
      'the render',
      async () => {
        const r = (await call(base2, 'GET', `/api/v1/renders/${render.body.id}`, { key })).body;
        return r.status === 'completed' || r.status === 'failed' ? r : undefined;
      },
      120_000,
      500,
    );
    expect(rendered.status).toBe('completed');
    const post = await call(base2, 'POST', '/api/v1/posts', {
      key,
      body: { videos: [{ edit_id: best.edit_id, targets: [{ connection_id: con.id, metadata: { local: { title: 'Faults' } } }] }] },
    });
    expect(post.status).toBe(201);
    const posted = await until(
      'the post',
      async () => {
        const p = (await call(base2, 'GET', `/api/v1/posts/${post.body.id}`, { key })).body;
        return p.items.every((i: any) => i.status === 'published' || i.status === 'failed') ? p : undefined;
      },
      120_000,
      500,
    );
    expect(posted.items.map((i: any) => [i.status, i.render_id])).toEqual([['published', render.body.id]]);
    const transcription = await until(
      'the transcription',
      async () => {
        const t = (await call(base2, 'GET', `/api/v1/transcriptions/${trn.id}`, { key })).body;
        return t.status === 'processing' ? undefined : t;
      },
      120_000,
      500,
    );
    expect(transcription.status).toBe('ready');

    // Exactly one charge per job and no refund; no duplicate files.
    const ledger = (await call(base2, 'GET', '/api/v1/balance/history?limit=100', { key })).body.entries as any[];
    const charges = ledger.filter((e) => e.kind === 'charge');
    expect(ledger.filter((e) => e.kind === 'refund')).toEqual([]);
    expect(charges.filter((e) => e.job_id === sub.body.id).map((e) => e.amount)).toEqual([-video.body.credits_cost]);
    expect(charges.filter((e) => e.job_id === trn.id)).toHaveLength(1);
    expect(new Set(charges.map((e) => e.job_id)).size).toBe(charges.length);
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${s3port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const keys = ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!);
    s3.destroy();
    expect(keys.filter((k) => k.startsWith(`previews/${ws.id}/`))).toHaveLength(done.clips_count);
    expect(keys.filter((k) => k.startsWith(`renders/${ws.id}/`))).toEqual([`renders/${ws.id}/${render.body.id}.mp4`]);
    expect(fs.readdirSync(path.join(env.CUTROOM_DATA_DIR, 'published', 'faults')).filter((f) => f.endsWith('.mp4'))).toHaveLength(1);
    const jobNames = ['submission.process', 'transcription.process', 'render.process', 'post.publish_item'];
    expect(await q(`select name, state from pgboss.job where name = any($1) and state <> 'completed'`, [jobNames])).toEqual([]);

    probing = false;
    await prober;
    expect(outages).toEqual([]);
    log(`api 2 answered all ${probes} readiness probes`);

    // The survivors stop on SIGTERM within CUTROOM_SHUTDOWN_TIMEOUT_MS.
    const t0 = Date.now();
    api2.child.kill('SIGTERM');
    survivor.child.kill('SIGTERM');
    expect(await Promise.all([api2.exited, survivor.exited])).toEqual([0, 0]);
    expect(Date.now() - t0).toBeLessThan(SHUTDOWN_MS + 250);
    // Only the killed processes' rows are left (deleted a day later); the stopped ones removed theirs.
    expect((await q(`select pid from processes order by pid`)).map((r) => r.pid)).toEqual([api1.child.pid, victim.child.pid].sort((a, b) => a! - b!));
    log(`api 2 and the surviving worker stopped ${Date.now() - t0} ms after SIGTERM; the whole run took ${Date.now() - started} ms`);
  }, 600_000);
});
