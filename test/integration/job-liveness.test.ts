import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/adapters/db/database.js';
import { DrizzleIdempotencyRepository } from '../../src/adapters/db/repositories/idempotency.repository.js';
import { ProcessHeartbeat } from '../../src/adapters/liveness/process-heartbeat.js';
import { PgBossQueue } from '../../src/adapters/queue/pgboss.queue.js';
import { IdempotencyService } from '../../src/domain/idempotency/idempotency.service.js';
import { openTestDatabase } from '../helpers/db.js';

/**
 * Job liveness and idempotency claims across processes on one PostgreSQL database. Each "process" has
 * its own connections: one for its heartbeat, one for its queue and records. A crash closes both (the
 * process is silent and its handler never ends); a stall closes only the heartbeat's (the process is
 * taken for dead but still runs). The lease is short (4 s: silent after 2 s).
 */
const LEASE_SECONDS = 4;
const logger = pino({ level: 'silent' });

let scratch: Database & { url?: string };
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  scratch = await openTestDatabase('postgres');
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => {});
});
afterAll(async () => {
  await scratch.close();
});

interface Proc {
  heartbeat: ProcessHeartbeat;
  queue: PgBossQueue;
  records: Database;
  idempotency: IdempotencyService;
  /** The process dies: no heartbeat, no query, its handlers never end. */
  crash(): Promise<void>;
  /** Its heartbeats stop reaching the database; the rest of it works. */
  stall(): Promise<void>;
}

async function startProcess(): Promise<Proc> {
  const beat = await openDatabase({ url: scratch.url, poolSize: 2 });
  const records = await openDatabase({ url: scratch.url, poolSize: 5 });
  const heartbeat = new ProcessHeartbeat({ db: beat.db, logger, role: 'worker', leaseSeconds: LEASE_SECONDS });
  await heartbeat.start();
  const queue = new PgBossQueue({ database: records, logger, heartbeat, supervise: true, pollingIntervalSeconds: 0.5 });
  await queue.start();
  let closed = false;
  const proc: Proc = {
    heartbeat,
    queue,
    records,
    idempotency: new IdempotencyService({ repo: new DrizzleIdempotencyRepository(records.db), owner: heartbeat.id }),
    async crash() {
      closed = true;
      await beat.close();
      await records.close();
    },
    async stall() {
      await beat.close();
    },
  };
  open.push({
    async close() {
      if (!closed) await queue.stop({ graceful: false, timeoutMs: 0 });
      else await queue.stop({ graceful: false, timeoutMs: 0 }).catch(() => {});
      if (!closed) await heartbeat.stop().catch(() => {});
      await beat.close();
      await records.close();
    },
  });
  return proc;
}

/** A handler that records its runs and ends only when told. */
function blockingHandler(label: string, runs: string[]) {
  const releases: Array<(err?: Error) => void> = [];
  let started!: () => void;
  const firstStart = new Promise<void>((r) => (started = r));
  const handler = async () => {
    runs.push(label);
    started();
    await new Promise<void>((resolve, reject) => releases.push((err) => (err ? reject(err) : resolve())));
  };
  return { handler, firstStart, release: (err?: Error) => releases.forEach((r) => r(err)) };
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const jobRow = async (id: string) =>
  (await scratch.sql.executeSql(`select state, retry_count from pgboss.job where id = $1`, [id])).rows[0] as { state: string; retry_count: number };

describe('job liveness across worker processes (PostgreSQL)', () => {
  it('a job whose worker died runs again on another worker within the lease, and completes once', async () => {
    const b = await startProcess();
    const a = await startProcess();
    const runs: string[] = [];
    const onA = blockingHandler('a', runs);
    await a.queue.work('maintenance.purge', onA.handler);
    const id = (await a.queue.send('maintenance.purge', {}))!;
    await onA.firstStart;
    let bStarted = 0;
    await b.queue.work('maintenance.purge', async () => {
      bStarted = Date.now();
      runs.push('b');
    });

    const killedAt = Date.now();
    await a.crash();
    await waitFor('the job on the other worker', () => (bStarted ? bStarted : undefined), LEASE_SECONDS * 1000 + 2000);
    const recovery = bStarted - killedAt;
    expect(recovery).toBeLessThanOrEqual(LEASE_SECONDS * 1000);
    await waitFor('completed', async () => ((await jobRow(id)).state === 'completed' ? true : undefined), 5000);
    expect(runs).toEqual(['a', 'b']);
    // The lost run counted as one attempt; the lease of the dead process is gone.
    expect((await jobRow(id)).retry_count).toBe(1);
    expect((await scratch.sql.executeSql(`select count(*)::int as n from job_leases`, [])).rows[0].n).toBe(0);
    process.stdout.write(`job liveness: the job of a crashed worker ran again on the other worker ${recovery} ms after the crash (lease ${LEASE_SECONDS} s)\n`);
  }, 60_000);

  it('a worker taken for dead while still running does not undo the run that replaced it', async () => {
    const b = await startProcess();
    const a = await startProcess();
    const runs: string[] = [];
    const onA = blockingHandler('a', runs);
    await a.queue.work('maintenance.purge', onA.handler);
    const id = (await a.queue.send('maintenance.purge', {}))!;
    await onA.firstStart;
    const onB = blockingHandler('b', runs);
    await b.queue.work('maintenance.purge', onB.handler);

    await a.stall();
    await waitFor('the run on the other worker', () => (runs.includes('b') ? true : undefined), LEASE_SECONDS * 1000 + 2000);
    // The stalled worker's run now ends in failure: the job is B's, so nothing is recorded for it.
    onA.release(new Error('late failure'));
    await new Promise((r) => setTimeout(r, 1000));
    expect(await jobRow(id)).toEqual({ state: 'active', retry_count: 1 });
    onB.release();
    await waitFor('completed', async () => ((await jobRow(id)).state === 'completed' ? true : undefined), 5000);
    expect(runs).toEqual(['a', 'b']);
  }, 60_000);

  it('a graceful stop returns the running job to the queue at once, for another worker', async () => {
    const b = await startProcess();
    const a = await startProcess();
    const runs: string[] = [];
    const onA = blockingHandler('a', runs);
    await a.queue.work('maintenance.purge', onA.handler);
    const id = (await a.queue.send('maintenance.purge', {}))!;
    await onA.firstStart;
    let bStarted = 0;
    await b.queue.work('maintenance.purge', async () => {
      bStarted = Date.now();
      runs.push('b');
    });
    const stoppedAt = Date.now();
    await a.queue.stop({ graceful: true, timeoutMs: 300 });
    await waitFor('the job on the other worker', () => (bStarted ? bStarted : undefined), 3000);
    // Picked up at B's next poll (0.5 s), long before any lease runs out.
    expect(bStarted - stoppedAt).toBeLessThan(2000);
    onA.release();
    await waitFor('completed', async () => ((await jobRow(id)).state === 'completed' ? true : undefined), 5000);
    expect(runs).toEqual(['a', 'b']);
  }, 60_000);
});

describe('Idempotency-Key claims across api processes (PostgreSQL)', () => {
  const answer = { statusCode: 201, body: '{"id":"x"}', headers: { 'content-type': 'application/json' } };

  it('a live process keeps its claim past the lease; the waiting retry replays its answer', async () => {
    const x = await startProcess();
    const y = await startProcess();
    expect(await x.idempotency.begin('scope', 'k-live', 'fp')).toEqual({});
    const retry = y.idempotency.begin('scope', 'k-live', 'fp');
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 500));
    await x.idempotency.complete('scope', 'k-live', answer);
    expect(await retry).toEqual({ replay: answer });
  }, 60_000);

  it('the claim of a crashed process is released within the lease and the retry runs once', async () => {
    const x = await startProcess();
    const y = await startProcess();
    expect(await x.idempotency.begin('scope', 'k-crash', 'fp')).toEqual({});
    const crashedAt = Date.now();
    await x.crash();
    expect(await y.idempotency.begin('scope', 'k-crash', 'fp')).toEqual({});
    const released = Date.now() - crashedAt;
    expect(released).toBeLessThanOrEqual(LEASE_SECONDS * 1000);
    // The retry's claim is Y's now: a third request waits for its answer and replays it.
    const third = y.idempotency.begin('scope', 'k-crash', 'fp');
    await y.idempotency.complete('scope', 'k-crash', answer);
    expect(await third).toEqual({ replay: answer });
    process.stdout.write(`idempotency: the claim of a crashed api process was released after ${released} ms (lease ${LEASE_SECONDS} s)\n`);
  }, 60_000);

  it('the claims of a process that stopped are released at once', async () => {
    const x = await startProcess();
    const y = await startProcess();
    expect(await x.idempotency.begin('scope', 'k-stop', 'fp')).toEqual({});
    await x.heartbeat.stop();
    const t0 = Date.now();
    expect(await y.idempotency.begin('scope', 'k-stop', 'fp')).toEqual({});
    expect(Date.now() - t0).toBeLessThan(1000);
  }, 60_000);
});
