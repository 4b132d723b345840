import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';
import { PgliteStatements } from './pglite-statements.js';
import type { ParsedJson } from '../../shared/json.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** Anything queries can run on: the database or an open transaction. */
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** The raw SQL executor pg-boss runs on: `{ rows }` for every statement. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: ParsedJson[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlExecutor;
  /** Present in distributed mode; pg-boss opens its own pool from it. */
  connectionString?: string;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Embedded only: a gzipped tar of the PGlite data directory, taken while no transaction is open (the
   * database is consistent; writes wait for the dump). `cutroom backup`; restored with `loadDataDir`.
   */
  dump?(): Promise<Uint8Array>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_FOLDER = path.resolve(here, '../../../drizzle');
const MIGRATION_LOCK = 727_001;

export interface OpenDatabaseOptions {
  /** postgres:// URL, or absent for embedded PGlite. */
  url?: string;
  /** PGlite data directory; absent means in memory (tests). */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts.poolSize ?? 10) : openPglite(opts.dataDir);
}

async function openPglite(dataDir?: string): Promise<Database> {
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder: MIGRATIONS_FOLDER });
  // Parameterised raw queries (the balance read, the queue's) run as held prepared statements.
  const statements = new PgliteStatements(client);
  return {
    kind: 'pglite',
    db,
    sql: {
      async executeSql(text, values) {
        if (values && values.length > 0) return statements.query(text, values);
        const results = await client.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      },
    },
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!client.closed) await client.close();
    },
    async dump() {
      const tarball = await client.transaction(() => client.dumpDataDir('gzip'));
      return new Uint8Array(await tarball.arrayBuffer());
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // Migrations run on one session under an advisory lock, so api and worker processes may start together.
  const migrator = new pg.Client({ connectionString: url });
  await migrator.connect();
  try {
    await migrator.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(migrator, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await migrator.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await migrator.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {
    /* idle client errors are reported by the next query */
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'postgres',
    db,
    connectionString: url,
    sql: {
      async executeSql(text, values) {
        return pool.query(text, values);
      },
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** PostgreSQL chose this transaction as a deadlock victim (40P01) or a serialisation failure (40001). */
export function isRetryableTxError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return code === '40P01' || code === '40001' || /deadlock detected/.test(String((err as Error)?.message));
}

/**
 * Runs an idempotent step again when PostgreSQL aborts it as a deadlock victim, which happens when
 * several processes of a deployment start at once and create the same rows and tables.
 */
export async function retryOnDeadlock<T>(fn: () => Promise<T>, attempts = 6): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || !isRetryableTxError(err)) throw err;
      await new Promise((r) => setTimeout(r, 50 * i + Math.floor(Math.random() * 200)));
    }
  }
}
