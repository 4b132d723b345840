import { execSync } from 'node:child_process';
import pg from 'pg';

export const TEST_PG_URL = process.env.CUTROOM_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function answers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The suite runs its database and queue tests on PostgreSQL too: start the machine's cluster if it is down. */
export default async function setup() {
  if (await answers()) return;
  try {
    execSync('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start', { stdio: 'inherit', shell: '/bin/bash' });
  } catch (err) {
    throw new Error(`PostgreSQL at ${TEST_PG_URL} is not answering and could not be started: ${String(err)}`);
  }
  for (let i = 0; i < 30; i++) {
    if (await answers()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`PostgreSQL at ${TEST_PG_URL} did not come up`);
}
