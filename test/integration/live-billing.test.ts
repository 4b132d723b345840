import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { broadcastBatches, broadcasts, monitors, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { BroadcastEnding } from '../../src/domain/monitors/broadcast-end.js';
import { MonitorPoller } from '../../src/domain/monitors/monitor-poller.js';
import { batchJobId } from '../../src/domain/monitors/monitor.rules.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';
import { CHARGE_TYPE } from '../../src/domain/credits/charge-types.js';

/**
 * Live billing primitives on both databases: a batch's charge is refunded in part (a shorter batch) or
 * in whole (no clips), once whatever happens, waived under free usage; a broadcast that ends with a
 * batch that recorded nothing refunds it at once and is `ended`; one with a recorded batch sends its
 * job and stays `processing` until that batch is settled.
 */

describe.each(DB_KINDS)('live batch billing on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let credits: CreditsService;
  let runner: ReturnType<typeof createTransactionRunner>;
  let n = 0;

  async function workspace(balance: number, unlimited = false): Promise<string> {
    const id = `ws_live_${kind}_${++n}`;
    await database.db.insert(workspaces).values({ id, name: id, planName: 'svc', credits: balance, unlimited });
    return id;
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertTestPlan(database.db);
    runner = createTransactionRunner(database.db);
    credits = new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: runner });
  }, 120_000);
  afterAll(async () => database?.close());

  it('refunds part of a charge once, never more than was charged; waived under free usage', async () => {
    const ws = await workspace(20);
    const job = { workspaceId: ws, jobType: CHARGE_TYPE.liveBatch, jobId: batchJobId('bc_x', 2), reason: 'live batch' };
    await credits.charge({ ...job, amount: 10 });
    const [a, b] = await Promise.all([credits.refund({ ...job, amount: 3 }), credits.refund({ ...job, amount: 3 })]);
    expect(a!.id).toBe(b!.id);
    expect(a).toMatchObject({ kind: 'refund', amount: 3, balanceAfter: 13, jobId: 'bc_x:2' });
    expect(await credits.refund(job)).toMatchObject({ id: a!.id, amount: 3 });
    expect(await credits.ledgerSum(ws)).toBe(-7);

    const big = { ...job, jobId: batchJobId('bc_x', 3) };
    await credits.charge({ ...big, amount: 2 });
    expect(await credits.refund({ ...big, amount: 50 })).toMatchObject({ amount: 2 });
    expect(() => credits.refund({ ...big, jobId: 'bc_x:4', amount: -1 })).toThrow(/non-negative/);

    const free = await workspace(0, true);
    const w = { workspaceId: free, jobType: CHARGE_TYPE.liveBatch, jobId: 'bc_y:0', reason: 'live batch' };
    expect(await credits.charge({ ...w, amount: 10 })).toMatchObject({ charged: 0, waived: true });
    expect(await credits.refund({ ...w, amount: 4 })).toMatchObject({ waived: true, amount: 4, balanceAfter: 0 });
  });

  it('ends a broadcast: an empty batch is refunded at once, a recorded one is sent to its job', async () => {
    const ws = await workspace(5);
    const repo = new DrizzleMonitorsRepository(database.db);
    const queue = new FakeQueue();
    const ending = new BroadcastEnding({ repo, credits, queue });
    const at = new Date();
    await database.db.insert(monitors).values({
      id: `mon_${kind}`,
      workspaceId: ws,
      type: 'live',
      name: 'm',
      url: 'https://a.example/x.m3u8',
      platform: 'hls',
      watchUrl: 'https://a.example/x.m3u8',
      status: 'live',
    });
    const bc = {
      workspaceId: ws,
      monitorId: `mon_${kind}`,
      title: 't',
      status: 'live',
      externalId: 'x',
      playlistUrl: 'https://a.example/x.m3u8',
      startedAt: at,
    };
    await database.db.insert(broadcasts).values([{ ...bc, id: `bc_empty_${kind}` }]);
    await credits.charge({ workspaceId: ws, amount: 1, reason: 'live batch', jobType: CHARGE_TYPE.liveBatch, jobId: batchJobId(`bc_empty_${kind}`, 0) });
    await database.db.insert(broadcastBatches).values({
      id: `batch_e_${kind}`,
      workspaceId: ws,
      broadcastId: `bc_empty_${kind}`,
      index: 0,
      status: 'recording',
      offsetSeconds: 0,
      chunks: [],
      creditsCharged: 1,
      startedAt: at,
    });
    const b = (await repo.getBroadcast(`bc_empty_${kind}`))!;
    const sent = await runner.run((tx) => ending.endInTx(tx, b, 'STOPPED', new Date()));
    expect(sent).toBeUndefined();
    await ending.afterEnd(b.id, sent);
    expect((await repo.getBroadcast(b.id))!).toMatchObject({ status: 'ended', endReason: 'STOPPED' });
    expect((await repo.getBatch(`batch_e_${kind}`))!).toMatchObject({ status: 'done', creditsCharged: 0 });
    expect(await credits.ledgerSum(ws)).toBe(0);

    // A second broadcast of the monitor, with a recorded chunk: cut, its job sent, `processing` until settled.
    await database.db.insert(broadcasts).values({ ...bc, id: `bc_full_${kind}` });
    await database.db.insert(broadcastBatches).values({
      id: `batch_f_${kind}`,
      workspaceId: ws,
      broadcastId: `bc_full_${kind}`,
      index: 0,
      status: 'recording',
      offsetSeconds: 0,
      seconds: 4,
      chunks: [{ key: 'live/x/0.chunk', seconds: 4, firstSequence: 0, lastSequence: 1 }],
      creditsCharged: 1,
      startedAt: at,
    });
    const full = (await repo.getBroadcast(`bc_full_${kind}`))!;
    const batchId = await runner.run((tx) => ending.endInTx(tx, full, 'ENDLIST', new Date()));
    expect(batchId).toBe(`batch_f_${kind}`);
    await ending.afterEnd(full.id, batchId);
    expect(queue.sent.map((j) => [j.name, j.payload])).toContainEqual(['monitor.batch', { batchId }]);
    expect((await repo.getBroadcast(full.id))!.status).toBe('processing');
    expect((await repo.getBatch(batchId!))!.status).toBe('recorded');
    await runner.run((tx) => repo.finishBatch(tx, batchId!, { clipsCount: 1, creditsCharged: 1, errorCode: null }, new Date()));
    await ending.finishIfDone(full.id);
    expect((await repo.getBroadcast(full.id))!.status).toBe('ended');
    // Ending again changes nothing.
    expect(await runner.run((tx) => ending.endInTx(tx, full, 'ENDLIST', new Date()))).toBeUndefined();

    // Two runs storing the same segments (a slow one whose lease ran out, and the one that took over): one moves the broadcast on.
    await database.db.insert(broadcasts).values({ ...bc, id: `bc_race_${kind}` });
    const moved = await Promise.all([1, 2].map(() => runner.run((tx) => repo.advanceBroadcast(tx, `bc_race_${kind}`, 7, 10, new Date()))));
    expect(moved.filter(Boolean)).toHaveLength(1);
    expect((await repo.getBroadcast(`bc_race_${kind}`))!.nextSequence).toBe(10);
    expect(await runner.run((tx) => repo.advanceBroadcast(tx, `bc_race_${kind}`, 9, 12, new Date()))).toBe(false);
    expect(await runner.run((tx) => repo.advanceBroadcast(tx, `bc_race_${kind}`, 10, 12, new Date()))).toBe(true);
  });

  it('revives the watching chain of a monitor that is on but was not checked for long (its poll job lost)', async () => {
    const ws = await workspace(1);
    const repo = new DrizzleMonitorsRepository(database.db);
    const queue = new FakeQueue();
    const poller = new MonitorPoller({ repo, queue, pollSeconds: 60 } as unknown as ConstructorParameters<typeof MonitorPoller>[0]);
    const old = new Date(Date.now() - 3600_000);
    const base = {
      workspaceId: ws,
      type: 'video',
      name: 'm',
      url: 'https://a.example/f.xml',
      platform: 'feed',
      watchUrl: 'https://a.example/f.xml',
      pollSeq: 4,
    };
    await database.db.insert(monitors).values([
      { ...base, id: `mon_lost_${kind}`, status: 'watching', lastCheckedAt: old, startedAt: old },
      { ...base, id: `mon_fine_${kind}`, status: 'watching', lastCheckedAt: new Date(), startedAt: old },
      { ...base, id: `mon_off_${kind}`, status: 'stopped', lastCheckedAt: old, startedAt: old },
    ]);
    await poller.revive();
    const polls = queue.sent.filter((j) => j.name === 'monitor.poll').map((j) => j.payload);
    expect(polls).toContainEqual({ monitorId: `mon_lost_${kind}`, seq: 5 });
    expect(polls.some((p: any) => p.monitorId !== `mon_lost_${kind}` && String(p.monitorId).endsWith(kind) && /fine|off/.test(p.monitorId))).toBe(false);
    expect((await repo.get(`mon_lost_${kind}`))!.pollSeq).toBe(5);
  });
});
