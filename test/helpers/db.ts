import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/adapters/db/database.js';
import { plans } from '../../src/adapters/db/schema/index.js';
import { TEST_PG_URL } from './global-setup.js';

export type DbKind = 'pglite' | 'postgres';
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];

/** A fresh, migrated database: in-memory PGlite, or a scratch database on the machine's PostgreSQL. */
export async function openTestDatabase(kind: DbKind): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openDatabase({});
  const name = `cutroom_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 20 });
  const close = database.close.bind(database);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await close();
      const a = new pg.Client({ connectionString: TEST_PG_URL });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** The plan `svc` the service-level tests run their workspaces on (inserted directly, no HTTP). */
export async function insertTestPlan(db: Database['db'], over: Partial<typeof plans.$inferInsert> = {}) {
  const [plan] = await db
    .insert(plans)
    .values({
      name: 'svc',
      maxVideoDuration: 3600,
      maxUploadSize: 1 << 30,
      renderExpiryHours: 24,
      maxConcurrentRenders: 2,
      dailyPostLimit: 2,
      rateLimitPerMinute: 600,
      analysisRateLimitPerMinute: 10,
      ...over,
    })
    .returning();
  return plan;
}
