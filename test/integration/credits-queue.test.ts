import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { DomainError } from '../../src/domain/errors.js';

describe.each(DB_KINDS)('on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: kind, startQueue: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('50 simultaneous charges against a balance covering 10 accept exactly 10', async () => {
    const ws = await t.workspace({ credits: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => t.c.credits.charge({ workspaceId: ws.id, amount: 1, reason: 'test', jobType: 'test', jobId: `job_${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect(r.reason.code).toBe('INSUFFICIENT_CREDITS');
      expect(r.reason.extra).toEqual({ credits_needed: 1, current_balance: 0 });
    }
    const { workspace } = await t.c.workspaces.get(ws.id);
    expect(workspace.credits).toBe(0);
    expect(await t.c.credits.ledgerSum(ws.id)).toBe(0);
    const { total } = await t.c.credits.history(ws.id, { page: 1, limit: 100, offset: 0 });
    expect(total).toBe(11);
  });

  it('charges and refunds a job once, however often they are retried', async () => {
    const ws = await t.workspace({ credits: 20 });
    const input = { workspaceId: ws.id, amount: 7, reason: 'clip', jobType: 'submission', jobId: 'sub_x' };
    const first = await t.c.credits.charge(input);
    const again = await t.c.credits.charge(input);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ charged: 7, waived: false, balanceAfter: 13 });
    const refunds = await Promise.all([1, 2, 3].map(() => t.c.credits.refund({ ...input, reason: 'failed' })));
    expect(new Set(refunds.map((r) => r!.id)).size).toBe(1);
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(20);
    expect(await t.c.credits.ledgerSum(ws.id)).toBe(20);
  });

  it('refuses a charge above the balance and changes nothing', async () => {
    const ws = await t.workspace({ credits: 3 });
    await expect(
      t.c.credits.charge({
        workspaceId: ws.id,
        amount: 4,
        reason: 'clip',
        jobType: 'submission',
        jobId: 's',
        insufficientExtra: { is_reclip: false, scope: 'workspace', is_owner: true },
      }),
    ).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      extra: { credits_needed: 4, current_balance: 3, is_reclip: false, scope: 'workspace', is_owner: true },
    });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(3);
    expect((await t.c.credits.history(ws.id, { page: 1, limit: 10, offset: 0 })).total).toBe(1);
  });

  it('free usage never refuses and writes waived rows; persona-style charges still take credits', async () => {
    const ws = await t.workspace({ credits: 5 });
    await t.c.workspaces.setFreeUsage(ws.id, null);
    const waived = await t.c.credits.charge({ workspaceId: ws.id, amount: 500, reason: 'clip', jobType: 'submission', jobId: 'a' });
    expect(waived).toMatchObject({ charged: 0, waived: true, balanceAfter: 5 });
    const paid = await t.c.credits.charge({ workspaceId: ws.id, amount: 2, reason: 'persona', jobType: 'persona', jobId: 'p', ignoreFreeUsage: true });
    expect(paid).toMatchObject({ charged: 2, waived: false, balanceAfter: 3 });
    const refund = await t.c.credits.refund({ workspaceId: ws.id, jobType: 'submission', jobId: 'a', reason: 'failed' });
    expect(refund).toMatchObject({ amount: 500, waived: true, balanceAfter: 3 });
    expect(await t.c.credits.ledgerSum(ws.id)).toBe(3);
  });

  it('runs queued jobs and reports ready', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: kind });

    // Expired idempotency records are purged by the maintenance job.
    await t.c.database.sql.executeSql(
      `insert into idempotency_keys (scope, key, request_hash, status_code, response_body, created_at) values ('s', 'old', 'h', 200, '{}', now() - interval '25 hours'), ('s', 'new', 'h', 200, '{}', now())`,
      [],
    );
    const { maintenanceHandler } = await import('../../src/jobs/handlers/maintenance.handler.js');
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const run = maintenanceHandler(t.c);
    // A second worker on the same queue proves delivery through the database, not a direct call.
    await t.c.queue.work('maintenance.purge', async () => {
      await run();
      done();
    });
    await t.c.queue.send('maintenance.purge', {});
    await finished;
    const rows = await t.c.database.sql.executeSql(`select key from idempotency_keys where scope = 's' order by key`, []);
    expect(rows.rows.map((r: any) => r.key)).toEqual(['new']);
  });
});
