import type { SqlExecutor } from '../db/database.js';
import { HEARD_WITHIN_HALF_LEASE } from '../liveness/process-heartbeat.js';

/** One run of a job: pg-boss's id and its retry count when it was fetched (each run has its own). */
export interface JobRun {
  id: string;
  name: string;
  run: number;
}

/**
 * The job runs each worker process holds (table `job_leases`, beside pg-boss's `pgboss.job`). A run
 * is leased by the process that fetched it until the process has settled it with pg-boss; the lease
 * lasts as long as the process heartbeats (src/adapters/liveness/process-heartbeat.ts). Taking a lease
 * over deletes or replaces its row in one statement, so one process only takes each run over.
 */
export class JobLeases {
  constructor(private readonly sql: SqlExecutor) {}

  /** This process runs `run` now (a new fetch of a job replaces the lease of an earlier run of it). */
  async hold(run: JobRun, processId: string): Promise<void> {
    await this.sql.executeSql(
      `insert into job_leases (job_id, job_name, run, process_id) values ($1, $2, $3, $4)
       on conflict (job_id) do update set job_name = excluded.job_name, run = excluded.run, process_id = excluded.process_id`,
      [run.id, run.name, run.run, processId],
    );
  }

  /** Whether this process still holds `run` (false once another process took it over). */
  async held(run: JobRun, processId: string): Promise<boolean> {
    const { rows } = await this.sql.executeSql(`select 1 from job_leases where job_id = $1 and run = $2 and process_id = $3`, [run.id, run.run, processId]);
    return rows.length > 0;
  }

  async release(run: JobRun, processId: string): Promise<void> {
    await this.sql.executeSql(`delete from job_leases where job_id = $1 and run = $2 and process_id = $3`, [run.id, run.run, processId]);
  }

  /**
   * Deletes the leases of processes that are silent (no heartbeat within half their lease) or gone,
   * and returns those whose run is still active in pg-boss: nobody runs them any more.
   */
  async takeFromSilent(): Promise<JobRun[]> {
    const { rows } = await this.sql.executeSql(
      `with taken as (
         delete from job_leases l
         where not exists (select 1 from processes p where p.id = l.process_id and ${HEARD_WITHIN_HALF_LEASE('p')})
         returning l.job_id, l.job_name, l.run
       )
       select j.id, j.name, t.run from taken t
       join pgboss.job j on j.name = t.job_name and j.id = t.job_id and j.retry_count = t.run
       where j.state = 'active'`,
      [],
    );
    return rows as JobRun[];
  }

  /**
   * Active runs of `names` that no process leased although they started more than `silenceMs` ago: the
   * process that fetched them died before recording its lease. Each is leased to `processId` (the
   * caller, which returns it to the queue and then releases it).
   */
  async takeUnleased(names: readonly string[], silenceMs: number, processId: string): Promise<JobRun[]> {
    const { rows } = await this.sql.executeSql(
      `insert into job_leases (job_id, job_name, run, process_id)
       select j.id, j.name, j.retry_count, $3 from pgboss.job j
       where j.name = any($1::text[]) and j.state = 'active' and j.started_on < now() - $2::float8 * interval '1 millisecond'
         and not exists (select 1 from job_leases l where l.job_id = j.id)
       on conflict (job_id) do nothing
       returning job_id as id, job_name as name, run`,
      [names, Math.round(silenceMs), processId],
    );
    return rows as JobRun[];
  }

  /** Deletes every lease: the embedded mode's one process starts after any earlier run ended. */
  async clear(): Promise<void> {
    await this.sql.executeSql(`delete from job_leases`, []);
  }
}
