import type { Database } from '../db/database.js';
import { JOB_NAMES, type JobName } from '../../shared/jobs.js';

export interface QueueDepth {
  job: JobName;
  /** `queued`: created or waiting for a retry; `active`: being run. */
  state: 'queued' | 'active';
  count: number;
}

/** Jobs waiting and running, by name, read from pg-boss's table (the metrics' `cutroom_queue_jobs`). */
export async function readQueueDepth(database: Pick<Database, 'sql'>): Promise<QueueDepth[]> {
  const { rows } = await database.sql.executeSql(
    `select name, case when state = 'active' then 'active' else 'queued' end as state, count(*)::int as count
       from pgboss.job where state in ('created', 'retry', 'active') group by 1, 2`,
    [],
  );
  const known = new Set<string>(JOB_NAMES);
  return (rows as Array<{ name: string; state: QueueDepth['state']; count: number | string }>)
    .filter((r) => known.has(r.name))
    .map((r) => ({ job: r.name as JobName, state: r.state, count: Number(r.count) }));
}
