import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { retryOnDeadlock, type Database } from '../db/database.js';
import { JOB_NAMES, type JobName, type JobPayloads } from '../../shared/jobs.js';
import type { JobHandler, JobQueue, SendOptions } from '../../ports/queue.js';

export interface PgBossQueueOptions {
  database: Database;
  logger: Logger;
  /** Workers and the scheduler supervise (maintenance, cron); pure api processes only send. */
  supervise: boolean;
  pollingIntervalSeconds?: number;
}

/**
 * The one job runner: pg-boss on the same database as the records. Embedded mode runs it on PGlite
 * through the database's SQL executor; distributed mode gives pg-boss its own PostgreSQL pool.
 */
export class PgBossQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly logger: Logger;
  private readonly inProcess: boolean;
  private readonly polling: number;
  private readonly workerIds = new Map<JobName, string[]>();

  private readonly database: Database;

  constructor(opts: PgBossQueueOptions) {
    this.logger = opts.logger;
    this.database = opts.database;
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
  }

  async stop(opts: { graceful: boolean; timeoutMs: number }): Promise<void> {
    await this.boss.stop({ graceful: opts.graceful, timeout: opts.timeoutMs, wait: true, close: true });
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], opts: SendOptions = {}): Promise<string | null> {
    const options: PgBoss.SendOptions = {};
    if (opts.startAfter) options.startAfter = opts.startAfter;
    if (opts.singletonKey) options.singletonKey = opts.singletonKey;
    if (opts.retryLimit !== undefined) options.retryLimit = opts.retryLimit;
    if (opts.retryDelaySeconds !== undefined) options.retryDelay = opts.retryDelaySeconds;
    if (opts.expireInSeconds !== undefined) options.expireInSeconds = opts.expireInSeconds;
    const id = await this.boss.send(name, payload as object, options);
    // pg-boss polls; a job sent in this process wakes its local workers at once.
    for (const wid of this.workerIds.get(name) ?? []) this.boss.notifyWorker(wid);
    return id;
  }

  async work<N extends JobName>(name: N, handler: JobHandler<N>, opts: { concurrency?: number } = {}): Promise<void> {
    const ids: string[] = [];
    for (let i = 0; i < (opts.concurrency ?? 1); i++) {
      const id = await this.boss.work<JobPayloads[N]>(
        name,
        { pollingIntervalSeconds: this.polling, batchSize: 1, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs as PgBoss.JobWithMetadata<JobPayloads[N]>[]) {
            await handler(job.data, { id: job.id, name, retryCount: job.retryCount });
          }
        },
      );
      ids.push(id);
    }
    this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), ...ids]);
  }

  async schedule(name: JobName, cron: string): Promise<void> {
    await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
  }

  async recoverOrphans(): Promise<number> {
    const { rows } = await this.database.sql.executeSql(`select id, name from pgboss.job where state = 'active'`, []);
    const byName = new Map<string, string[]>();
    for (const r of rows as Array<{ id: string; name: string }>) byName.set(r.name, [...(byName.get(r.name) ?? []), r.id]);
    for (const [name, ids] of byName) await this.boss.fail(name, ids);
    return rows.length;
  }

  async ping(): Promise<void> {
    await this.boss.getQueue(JOB_NAMES[0]);
  }
}
