import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { DomainError } from '../../src/domain/errors.js';
import { DB_KINDS, openTestDatabase, insertTestPlan } from '../helpers/db.js';

/**
 * CreditsService on a real database, no HTTP in between: the ledger and the balance move together,
 * under the workspace's row lock, at most one charge and one refund per job, rolled back with the
 * caller's transaction.
 */

describe.each(DB_KINDS)('CreditsService on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let credits: CreditsService;
  let runner: ReturnType<typeof createTransactionRunner>;
  let n = 0;

  async function workspace(balance: number, unlimited = false): Promise<string> {
    const id = `ws_svc_${kind}_${++n}`;
    await database.db.insert(workspaces).values({ id, name: id, planName: 'svc', credits: balance, unlimited });
    return id;
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertTestPlan(database.db, { dailyPostLimit: 10 });
    runner = createTransactionRunner(database.db);
    credits = new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: runner });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('charges once per job and refunds once, each with its ledger row and balance_after', async () => {
    const ws = await workspace(10);
    const job = { workspaceId: ws, amount: 4, reason: 'clip', jobType: 'submission', jobId: 'sub_a' };
    const first = await credits.charge(job);
    const again = await credits.charge(job);
    expect(first).toMatchObject({ charged: 4, waived: false, balanceAfter: 6 });
    expect(again.entryId).toBe(first.entryId);
    const refunds = await Promise.all([1, 2].map(() => credits.refund({ ...job, reason: 'failed' })));
    expect(refunds[0]!.id).toBe(refunds[1]!.id);
    expect(refunds[0]).toMatchObject({ kind: 'refund', amount: 4, balanceAfter: 10 });
    const { rows, total } = await credits.history(ws, { page: 1, limit: 10, offset: 0 });
    expect(total).toBe(2);
    expect(rows.map((r) => r.kind)).toEqual(['refund', 'charge']);
    expect(await credits.ledgerSum(ws)).toBe(0);
  });

  it('refuses a charge over the balance with 402 extra and writes nothing', async () => {
    const ws = await workspace(3);
    const err = await credits.charge({ workspaceId: ws, amount: 5, reason: 'clip', jobType: 'submission', jobId: 'sub_b' }).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'INSUFFICIENT_CREDITS', extra: { credits_needed: 5, current_balance: 3 } });
    expect((await credits.history(ws, { page: 1, limit: 10, offset: 0 })).total).toBe(0);
  });

  it('waives charges under free usage but not those that ignore it', async () => {
    const ws = await workspace(5, true);
    expect(await credits.charge({ workspaceId: ws, amount: 50, reason: 'clip', jobType: 'submission', jobId: 's' })).toMatchObject({
      charged: 0,
      waived: true,
      balanceAfter: 5,
    });
    expect(await credits.charge({ workspaceId: ws, amount: 2, reason: 'persona', jobType: 'persona', jobId: 'p', ignoreFreeUsage: true })).toMatchObject({
      charged: 2,
      waived: false,
      balanceAfter: 3,
    });
    expect(await credits.ledgerSum(ws)).toBe(-2);
  });

  it('rolls back with the caller transaction', async () => {
    const ws = await workspace(10);
    await expect(
      runner.run(async (tx) => {
        await credits.charge({ workspaceId: ws, amount: 7, reason: 'clip', jobType: 'submission', jobId: 'sub_c' }, tx);
        throw new Error('the job row could not be written');
      }),
    ).rejects.toThrow(/job row/);
    expect((await credits.history(ws, { page: 1, limit: 10, offset: 0 })).total).toBe(0);
    const ok = await credits.charge({ workspaceId: ws, amount: 7, reason: 'clip', jobType: 'submission', jobId: 'sub_c' });
    expect(ok.balanceAfter).toBe(3);
  });

  it('accepts exactly as many concurrent charges as the balance pays for', async () => {
    const ws = await workspace(10);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => credits.charge({ workspaceId: ws, amount: 1, reason: 'clip', jobType: 'submission', jobId: `c_${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(await credits.ledgerSum(ws)).toBe(-10);
  });

  it('never takes a debit below zero and caps grants at the integer range', async () => {
    const ws = await workspace(2);
    await expect(credits.adjust({ workspaceId: ws, amount: -3, reason: 'debit' })).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    await expect(credits.adjust({ workspaceId: ws, amount: 2147483647, reason: 'grant' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await credits.adjust({ workspaceId: ws, amount: -2, reason: 'debit' })).toMatchObject({ kind: 'debit', balanceAfter: 0 });
    await expect(credits.charge({ workspaceId: 'ws_missing', amount: 1, reason: 'x', jobType: 't', jobId: 'j' })).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });
  });
});
