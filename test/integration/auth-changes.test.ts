import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/adapters/db/database.js';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { AUTH_CHANGES_CHANNEL, PgNotifyAuthChanges } from '../../src/adapters/auth-changes/pg-notify.auth-changes.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { createAccounts } from '../../src/main/accounts.wiring.js';
import { openTestDatabase } from '../helpers/db.js';

/**
 * Two api processes on one PostgreSQL database, as the service wires them (createAccounts), each with
 * its own pool and its own listener connection, holding what they read for 5 minutes: a change made
 * through one reaches the other's cache only through LISTEN/NOTIFY.
 */

type Process = ReturnType<typeof createAccounts> & { database: Database; bus: PgNotifyAuthChanges };

async function startProcess(url: string): Promise<Process> {
  const database = await openDatabase({ url, poolSize: 4 });
  const tx = createTransactionRunner(database.db);
  const bus = new PgNotifyAuthChanges({ connectionString: url, sql: database.sql, retryMs: 50, maxRetryMs: 200 });
  const accounts = createAccounts(database, tx, new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: tx }), { ttlMs: 300_000, bus });
  await accounts.authCache.listen();
  return { ...accounts, database, bus };
}

/** Waits until `check` holds (a notification takes a few milliseconds to arrive), at most 5 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('the change did not reach the other process within 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('auth changes between api processes over PostgreSQL LISTEN/NOTIFY', () => {
  let scratch: Awaited<ReturnType<typeof openTestDatabase>>;
  let a: Process;
  let b: Process;

  beforeAll(async () => {
    scratch = await openTestDatabase('postgres');
    a = await startProcess(scratch.url!);
    b = await startProcess(scratch.url!);
    await a.plans.ensureDefault();
    await a.plans.create('wide', { rate_limit_per_minute: 1000 });
  });
  afterAll(async () => {
    for (const p of [a, b]) {
      await p?.bus.close();
      await p?.database.close();
    }
    await scratch?.close();
  });

  const workspaceWithKey = async () => {
    const ws = await a.workspaces.create({ name: 'Shared', plan: 'default' });
    const { id: keyId, key } = await a.apiKeys.create({ workspaceIds: [ws.workspace.id] });
    return { wsId: ws.workspace.id, keyId, key };
  };
  const heldByB = (id: string) => b.workspaces.forRequest(id, { fresh: false });

  it('a key revoked through one process is refused by the other', async () => {
    const { keyId, key } = await workspaceWithKey();
    expect(await b.apiKeys.authenticate(key)).toMatchObject({ keyId });
    // Held by b: a revocation behind both services is not seen.
    await a.database.sql.executeSql('update api_keys set revoked_at = now() where id = $1', [keyId]);
    expect(await b.apiKeys.authenticate(key)).not.toBeNull();
    await a.apiKeys.revoke(keyId);
    await eventually(async () => (await b.apiKeys.authenticate(key)) === null);
  });

  it('a workspace plan change, new plan limits and free usage reach the other process', async () => {
    const { wsId: id } = await workspaceWithKey();
    expect((await heldByB(id)).plan.rateLimitPerMinute).toBe(600);
    await a.workspaces.update(id, { plan: 'wide' });
    await eventually(async () => (await heldByB(id)).plan.rateLimitPerMinute === 1000);
    await a.plans.update('wide', { rate_limit_per_minute: 1500 });
    await eventually(async () => (await heldByB(id)).plan.rateLimitPerMinute === 1500);
    await a.workspaces.setFreeUsage(id, null);
    await eventually(async () => (await heldByB(id)).workspace.unlimited);
  });

  it('after losing its listener connection, a process forgets what it held and hears changes again', async () => {
    const { wsId: id, keyId, key } = await workspaceWithKey();
    expect((await heldByB(id)).workspace.name).toBe('Shared');
    expect(await b.apiKeys.authenticate(key)).not.toBeNull();
    // Changed behind the services (no notification), then every listener of this database is cut off.
    await a.database.sql.executeSql('update workspaces set name = $1 where id = $2', ['Missed', id]);
    await a.database.sql.executeSql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = $1`, [
      `listen ${AUTH_CHANGES_CHANNEL}`,
    ]);
    await eventually(async () => (await heldByB(id)).workspace.name === 'Missed');
    // Listening again: a revocation through a reaches b, which holds the key again.
    expect(await b.apiKeys.authenticate(key)).not.toBeNull();
    await a.apiKeys.revoke(keyId);
    await eventually(async () => (await b.apiKeys.authenticate(key)) === null);
  });
});
