import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import type { EventPublisher } from '../../src/domain/webhooks/events.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { insertLiveMonitor, livePoller, LiveStand } from '../helpers/live-monitor-stand.js';

/**
 * The live monitor's webhook events (docs/webhooks.md), with the channel and its playlist played by a
 * stand-in (test/helpers/live-monitor-stand.ts) and the events recorded as published: a stream going on air
 * announces broadcast.started; a batch the balance cannot pay stops the monitor, announcing
 * monitor.stopped (INSUFFICIENT_CREDITS) and, nothing being left to clip, broadcast.ended (STOPPED); a
 * stop asked by the user (POST …/stop) announces no monitor.stopped, one the service decides does.
 */

type Published = { workspaceId: string; type: string; data: Record<string, unknown> };

describe.each(DB_KINDS)('monitor and broadcast events on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let credits: CreditsService;
  let runner: ReturnType<typeof createTransactionRunner>;
  let repo: DrizzleMonitorsRepository;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertTestPlan(database.db);
    runner = createTransactionRunner(database.db);
    credits = new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: runner });
    repo = new DrizzleMonitorsRepository(database.db);
  }, 120_000);
  afterAll(async () => database?.close());

  /** The chain over the shared database (test/helpers/live-monitor-stand.ts), its events recorded. */
  function chain(stand: LiveStand, batchSeconds: number) {
    const published: Published[] = [];
    const events: EventPublisher = {
      publish: async (workspaceId, type, data) => {
        published.push({ workspaceId, type, data });
      },
    };
    const { service, pollNow } = livePoller({ database, repo, runner, credits }, stand, { batchSeconds, events });
    return { published, service, pollNow };
  }

  const liveMonitor = (balance: number) => insertLiveMonitor(database.db, { ws: `ws_evt_${kind}_${++n}`, id: `mon_evt_${kind}_${n}` }, { balance });

  it('broadcast.started, then monitor.stopped INSUFFICIENT_CREDITS and broadcast.ended when a batch cannot be paid', async () => {
    const stand = new LiveStand('Launch show');
    stand.window(0, 4);
    const { ws, id } = await liveMonitor(1);
    const c = chain(stand, 120); // one batch costs 2 credits
    await c.pollNow(id);
    const broadcast = c.published.find((e) => e.type === 'broadcast.started')?.data.id as string;
    expect(broadcast).toMatch(/^bc_/);
    expect(c.published).toEqual([
      { workspaceId: ws, type: 'broadcast.started', data: { id: broadcast, monitor_id: id, title: 'Launch show', status: 'live' } },
      { workspaceId: ws, type: 'monitor.stopped', data: { id, status: 'stopped', stop_reason: 'INSUFFICIENT_CREDITS' } },
      // The broadcast ends because its monitor stopped (STOPPED); monitor.stopped says why.
      { workspaceId: ws, type: 'broadcast.ended', data: { id: broadcast, monitor_id: id, status: 'ended', end_reason: 'STOPPED' } },
    ]);
    // The chain is over: its next run announces nothing.
    await c.pollNow(id);
    expect(c.published).toHaveLength(3);
  });

  it('a stop asked by the user (POST …/stop) announces no monitor.stopped; one the service decides (SOURCE_GONE) does', async () => {
    const stand = new LiveStand('Launch show');
    stand.window(0, 2);
    const user = await liveMonitor(10);
    const c = chain(stand, 20);
    await c.pollNow(user.id);
    expect(c.published.map((e) => e.type)).toEqual(['broadcast.started']);
    await c.service.stopMonitor(user.id, 'USER');
    expect(await repo.get(user.id)).toMatchObject({ status: 'stopped', stopReason: 'USER' });
    // The recorded batch is cut and sent to its job: the broadcast ends (and is announced) once it is clipped.
    expect(c.published.map((e) => e.type)).toEqual(['broadcast.started']);

    const gone = await liveMonitor(10);
    await c.service.stopMonitor(gone.id, 'SOURCE_GONE');
    expect(c.published.slice(1)).toEqual([
      { workspaceId: gone.ws, type: 'monitor.stopped', data: { id: gone.id, status: 'stopped', stop_reason: 'SOURCE_GONE' } },
    ]);
    // Stopping a stopped monitor again changes and announces nothing.
    await c.service.stopMonitor(gone.id, 'SOURCE_GONE');
    expect(c.published).toHaveLength(2);
  });
});
