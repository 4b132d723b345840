import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { retryOnDeadlock, type Database } from '../db/database.js';
import type { ProcessHeartbeat } from '../liveness/process-heartbeat.js';
import { failsWhenLost, JOB_NAMES, retryLimitOf, type JobName, type JobPayloads } from '../../shared/jobs.js';
import type { JobHandler, JobQueue, SendOptions } from '../../ports/queue.js';
import { JobLeases, type JobRun } from './job-leases.js';

export interface PgBossQueueOptions {
  database: Database;
  logger: Logger;
  /** This process's heartbeat: the job runs it fetches are leased to it. */
  heartbeat: ProcessHeartbeat;
  /** Workers and the scheduler supervise (maintenance, cron, other processes' leases); pure api processes only send. */
  supervise: boolean;
  pollingIntervalSeconds?: number;
}

/** A job whose last allowed run was lost: its id, payload and run number. */
interface LostRun {
  id: string;
  data: unknown;
  run: number;
}

/** A job run in this process: settled with pg-boss when its handler ends, unless it was given up. */
interface LocalRun extends JobRun {
  done: Promise<void>;
  /** Returned to the queue by a shutdown that could not wait for it: its end changes nothing. */
  givenUp: boolean;
}

/**
 * The one job runner: pg-boss on the same database as the records. Embedded mode runs it on PGlite
 * through the database's SQL executor; distributed mode gives pg-boss its own PostgreSQL pool.
 *
 * pg-boss stores, sends and fetches the jobs; this class runs them: each fetched run is leased to this
 * process (job_leases) for as long as the process heartbeats, and settled (completed or failed) only if
 * the process still holds it. Supervising processes take over the runs of processes that stopped
 * heartbeating and return them to the queue at once, so a job lost with its worker runs again within
 * the lease instead of at its expiry.
 */
export class PgBossQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly logger: Logger;
  private readonly inProcess: boolean;
  private readonly polling: number;
  private readonly database: Database;
  private readonly heartbeat: ProcessHeartbeat;
  private readonly supervise: boolean;
  private readonly leases: JobLeases;
  /** Wakes the idle fetch loops of a job name. */
  private readonly wakers = new Map<JobName, Set<() => void>>();
  private readonly runs = new Set<LocalRun>();
  /** The handlers this process runs, by job name (a lost last run is handed back to its job's). */
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  /** Lost last runs found before their handler was registered (embedded start: orphans are returned first). */
  private readonly pendingLost = new Map<JobName, LostRun[]>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private stopping = false;

  constructor(opts: PgBossQueueOptions) {
    this.logger = opts.logger;
    this.database = opts.database;
    this.heartbeat = opts.heartbeat;
    this.supervise = opts.supervise;
    this.leases = new JobLeases(opts.database.sql);
    this.polling = opts.pollingIntervalSeconds ?? 2;
    const common = {
      supervise: opts.supervise,
      schedule: opts.supervise,
      migrate: true,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
    };
    this.inProcess = opts.database.kind === 'pglite';
    this.boss = this.inProcess
      ? new PgBoss({ ...common, db: opts.database.sql as PgBoss.Db })
      : new PgBoss({ ...common, connectionString: opts.database.connectionString, max: 5 });
    this.boss.on('error', (err) => this.logger.error({ err }, 'queue error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of JOB_NAMES) {
      // Processes starting together race to create the same queues: a loser retries or finds it made.
      await retryOnDeadlock(async () => {
        if (await this.boss.getQueue(name)) return;
        await this.boss.createQueue(name).catch(async (err) => {
          if (!(await this.boss.getQueue(name))) throw err;
        });
      });
    }
    if (this.supervise) {
      // Spread the processes' sweeps over the interval.
      const every = this.heartbeat.intervalMs * (0.8 + Math.random() * 0.4);
      this.sweepTimer = setInterval(() => void (this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined))), every);
      this.sweepTimer.unref();
    }
  }

  /**
   * Stops fetching. With `graceful`, running jobs get `timeoutMs` to finish; the runs still going then
   * are returned to the queue (retried at once, by another worker) and their ends change nothing.
   */
  async stop(opts: { graceful: boolean; timeoutMs: number }): Promise<void> {
    this.stopping = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const wakers of this.wakers.values()) for (const wake of wakers) wake();
    if (opts.graceful && this.runs.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, opts.timeoutMs)));
      await Promise.race([Promise.all([...this.runs].map((r) => r.done)), timeout]);
      clearTimeout(timer);
    }
    await this.sweeping;
    const left = [...this.runs];
    for (const run of left) run.givenUp = true;
    if (left.length > 0) {
      this.logger.warn({ jobs: left.map((r) => `${r.name}:${r.id}`) }, 'returning running jobs to the queue');
      await this.returnHeld(left, 'the worker process shut down while the job ran').catch((err) =>
        this.logger.error({ err }, 'could not return running jobs to the queue'),
      );
    }
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], opts: SendOptions = {}): Promise<string | null> {
    const options: PgBoss.SendOptions = {};
    if (opts.startAfter) options.startAfter = opts.startAfter;
    if (opts.singletonKey) options.singletonKey = opts.singletonKey;
    if (opts.retryLimit !== undefined) options.retryLimit = opts.retryLimit;
    if (opts.retryDelaySeconds !== undefined) options.retryDelay = opts.retryDelaySeconds;
    if (opts.expireInSeconds !== undefined) options.expireInSeconds = opts.expireInSeconds;
    const id = await this.boss.send(name, payload as object, options);
    // Workers poll; a job sent in this process wakes its local ones at once.
    this.wake(name);
    return id;
  }

  async work<N extends JobName>(name: N, handler: JobHandler<N>, opts: { concurrency?: number } = {}): Promise<void> {
    this.handlers.set(name, handler as unknown as JobHandler<JobName>);
    const pending = this.pendingLost.get(name);
    this.pendingLost.delete(name);
    if (pending) await this.handLost(name, pending);
    for (let i = 0; i < (opts.concurrency ?? 1); i++) {
      void this.loop(name, handler).catch((err) => this.logger.error({ err, queue: name }, 'job loop ended'));
    }
  }

  async schedule(name: JobName, cron: string): Promise<void> {
    await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
  }

  async recoverOrphans(): Promise<number> {
    const { rows } = await this.database.sql.executeSql(`select id, name, retry_count as run from pgboss.job where state = 'active'`, []);
    await this.returnToQueue(rows as JobRun[], 'the process running the job ended');
    await this.leases.clear();
    return rows.length;
  }

  async ping(): Promise<void> {
    await this.boss.getQueue(JOB_NAMES[0]);
  }

  /** One fetch loop: takes a job when one is due, else waits for the polling interval or a wake-up. */
  private async loop<N extends JobName>(name: N, handler: JobHandler<N>): Promise<void> {
    while (!this.stopping) {
      let job: PgBoss.JobWithMetadata<JobPayloads[N]> | undefined;
      try {
        [job] = await this.boss.fetch<JobPayloads[N]>(name, { batchSize: 1, includeMetadata: true });
      } catch (err) {
        this.logger.warn({ err, queue: name }, 'job fetch failed');
      }
      if (!job) await this.idle(name);
      else if (this.stopping) await this.returnHeld([{ id: job.id, name, run: job.retryCount }], 'fetched while the worker process shut down', false);
      else await this.run(name, job, handler);
    }
  }

  private async run<N extends JobName>(name: N, job: PgBoss.JobWithMetadata<JobPayloads[N]>, handler: JobHandler<N>): Promise<void> {
    let finish!: () => void;
    const run: LocalRun = { id: job.id, name, run: job.retryCount, givenUp: false, done: new Promise<void>((r) => (finish = r)) };
    this.runs.add(run);
    try {
      await this.leases.hold(run, this.heartbeat.id).catch((err) => this.logger.warn({ err, job: job.id }, 'could not lease the job run'));
      let failure: { err: unknown } | undefined;
      try {
        await withinSeconds(handler(job.data, { id: job.id, name, retryCount: job.retryCount }), Number(job.expireInSeconds));
      } catch (err) {
        failure = { err };
      }
      await this.settle(run, failure).catch((err) => this.logger.warn({ err, job: job.id }, 'could not settle the job run'));
    } finally {
      this.runs.delete(run);
      finish();
    }
  }

  /** Completes or fails the run in pg-boss, unless it was given up or another process took it over. */
  private async settle(run: LocalRun, failure: { err: unknown } | undefined): Promise<void> {
    if (run.givenUp) return;
    if (!(await this.leases.held(run, this.heartbeat.id))) {
      this.logger.warn({ job: run.id, queue: run.name }, 'job run was taken over by another process (this one was silent too long); its end is not recorded');
      return;
    }
    if (failure) {
      this.logger.warn({ err: failure.err, job: run.id, queue: run.name }, 'job run failed');
      await this.boss.fail(run.name, run.id, failure.err as object);
    } else {
      await this.boss.complete(run.name, run.id);
    }
    await this.leases.release(run, this.heartbeat.id);
  }

  /**
   * Takes over the runs of processes that stopped heartbeating (and runs nobody leased) and returns
   * them to the queue. Only a process heard from without a gap for a whole silence window judges
   * others: after a database outage everyone was silent and nobody is dead.
   */
  private async sweep(): Promise<void> {
    if (this.stopping || this.heartbeat.heardForMs() < this.heartbeat.silenceMs) return;
    try {
      const silent = await this.leases.takeFromSilent();
      const unleased = await this.leases.takeUnleased(JOB_NAMES, this.heartbeat.silenceMs, this.heartbeat.id);
      const taken = [...silent, ...unleased];
      if (taken.length === 0) return;
      this.logger.warn({ jobs: taken.map((r) => `${r.name}:${r.id}`) }, 'taking over the jobs of a process that stopped heartbeating');
      await this.returnToQueue(taken, 'the worker process running the job stopped heartbeating');
    } catch (err) {
      this.logger.warn({ err }, 'job lease sweep failed');
    }
  }

  /**
   * Fails the runs (a lost run counts as one attempt; the job is retried while it has retries left),
   * makes the retries due now rather than after the retry delay, frees their leases and wakes the
   * local workers.
   */
  private async returnToQueue(runs: readonly JobRun[], reason: string): Promise<void> {
    const byName = new Map<JobName, JobRun[]>();
    for (const r of runs) byName.set(r.name as JobName, [...(byName.get(r.name as JobName) ?? []), r]);
    for (const [name, list] of byName) {
      const ids = list.map((r) => r.id);
      for (const id of ids) await this.boss.fail(name, id, { message: reason });
      await this.database.sql.executeSql(`update pgboss.job set start_after = now() where name = $1 and id = any($2::uuid[]) and state = 'retry'`, [name, ids]);
      for (const r of list) await this.leases.release(r, this.heartbeat.id);
      this.wake(name);
      if (failsWhenLost(name)) await this.recordLost(name, ids);
    }
  }

  /**
   * The runs among `ids` that were their job's last allowed one ended the job `failed`: its record would
   * stay unfinished. Each goes to the job's handler once more with `lost` set, which records the failure
   * (JOB_LOST, refund included) without doing the work (src/domain/jobs/retry.ts). One process fails a
   * run (its lease is taken once), so one process makes this call.
   */
  private async recordLost(name: JobName, ids: string[]): Promise<void> {
    const { rows } = await this.database.sql.executeSql(
      `select id, data, retry_count as run from pgboss.job where name = $1 and id = any($2::uuid[]) and state = 'failed'`,
      [name, ids],
    );
    if (rows.length === 0) return;
    if (!this.handlers.has(name)) {
      // Only a process that runs jobs returns runs to the queue; its handlers come right after (serve.ts).
      this.pendingLost.set(name, [...(this.pendingLost.get(name) ?? []), ...(rows as LostRun[])]);
      return;
    }
    await this.handLost(name, rows as LostRun[]);
  }

  private async handLost(name: JobName, rows: LostRun[]): Promise<void> {
    const handler = this.handlers.get(name)!;
    for (const row of rows) {
      this.logger.warn({ job: `${name}:${row.id}` }, 'a job was lost on its last allowed run: recording its failure');
      try {
        await handler(row.data as JobPayloads[JobName], { id: row.id, name, retryCount: Math.max(row.run, retryLimitOf(name)), lost: true });
      } catch (err) {
        this.logger.error({ err, job: `${name}:${row.id}` }, 'could not record the failure of a lost job');
      }
    }
  }

  /** Returns the runs this process still holds to the queue (a run taken over by another process stays theirs). */
  private async returnHeld(runs: readonly JobRun[], reason: string, leased = true): Promise<void> {
    const held: JobRun[] = [];
    for (const r of runs) if (!leased || (await this.leases.held(r, this.heartbeat.id))) held.push(r);
    await this.returnToQueue(held, reason);
  }

  private wake(name: JobName): void {
    for (const wake of this.wakers.get(name) ?? []) wake();
  }

  private async idle(name: JobName): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((r) => (wake = r));
    const timer = setTimeout(wake, this.polling * 1000);
    const set = this.wakers.get(name) ?? new Set();
    this.wakers.set(name, set.add(wake));
    await woken;
    clearTimeout(timer);
    set.delete(wake);
  }
}

/** The handler's promise, or a rejection once `seconds` passed (the job's expiry; the handler is not stopped). */
async function withinSeconds(work: Promise<void>, seconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the job ran past its expiry (${seconds} s)`)), Math.max(1, seconds) * 1000);
  });
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
