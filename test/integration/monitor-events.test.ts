import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { DrizzleWorkspacesRepository } from '../../src/adapters/db/repositories/workspaces.repository.js';
import { monitors, workspaces } from '../../src/adapters/db/schema.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { BroadcastEnding } from '../../src/domain/monitors/broadcast-end.js';
import { MonitorPoller } from '../../src/domain/monitors/monitor-poller.js';
import { MonitorsService, type MonitorsServiceDeps } from '../../src/domain/monitors/monitors.service.js';
import type { EventPublisher } from '../../src/domain/webhooks/events.js';
import type { ChannelWatcher, LivePlaylist, LiveRecorder, LiveSegment } from '../../src/ports/channel-watcher.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';

/**
 * The live monitor's webhook events (docs/webhooks.md), with the channel and its playlist played by a
 * stand-in (as in monitor-poller.test.ts) and the events recorded as published: a stream going on air
 * announces broadcast.started; a batch the balance cannot pay stops the monitor, announcing
 * monitor.stopped (INSUFFICIENT_CREDITS) and, nothing being left to clip, broadcast.ended (STOPPED); a
 * stop asked by the user (POST …/stop) announces no monitor.stopped, one the service decides does.
 */

class Stand {
  playlist: LivePlaylist = { ended: false, targetDuration: 2, segments: [] };

  window(from: number, to: number): void {
    this.playlist.segments = Array.from({ length: to - from + 1 }, (_, i): LiveSegment => ({ sequence: from + i, duration: 2, source: null }));
  }

  watcher = {
    platform: 'hls',
    uploads: async () => [],
    live: async () => ({ live: true, id: 'stream-1', title: 'Launch show', playlistUrl: 'https://live.example/stream.m3u8' }),
  } as unknown as ChannelWatcher;

  recorder: LiveRecorder = {
    readPlaylist: async () => structuredClone(this.playlist),
    storeChunk: async () => ({ bytes: 1 }),
    cutBatch: async () => {
      throw new Error('the batch job is not run by these tests');
    },
  };
}

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
    credits = new CreditsService(new DrizzleCreditsRepository(database.db), runner);
    repo = new DrizzleMonitorsRepository(database.db);
  }, 120_000);
  afterAll(async () => database?.close());

  function chain(stand: Stand, batchSeconds: number) {
    const published: Published[] = [];
    const events: EventPublisher = {
      publish: async (workspaceId, type, data) => {
        published.push({ workspaceId, type, data });
      },
    };
    const queue = new FakeQueue();
    const ending = new BroadcastEnding({ repo, credits, queue, events });
    const service = new MonitorsService({ repo, tx: runner, queue, ending, events, batchSeconds } as unknown as MonitorsServiceDeps);
    const workspacesRepo = new DrizzleWorkspacesRepository(database.db, database.sql);
    const poller = new MonitorPoller({
      repo,
      tx: runner,
      queue,
      credits,
      storage: { delete: async () => {} },
      logger: pino({ level: 'silent' }),
      ending,
      events,
      watcher: () => stand.watcher,
      recorder: stand.recorder,
      workspaces: { get: async (id) => (await workspacesRepo.findWithPlan(id))! },
      submitUpload: async () => {
        throw new Error('no uploads here');
      },
      stopMonitor: (id, reason) => service.stopMonitor(id, reason),
      pollSeconds: 1,
      batchSeconds,
      stallSeconds: 30,
    });
    const pollNow = async (id: string) => poller.poll(id, (await repo.get(id))!.pollSeq);
    return { published, service, pollNow };
  }

  async function liveMonitor(balance: number): Promise<{ ws: string; id: string }> {
    const ws = `ws_evt_${kind}_${++n}`;
    await database.db.insert(workspaces).values({ id: ws, name: ws, planName: 'svc', credits: balance });
    const id = `mon_evt_${kind}_${n}`;
    await database.db.insert(monitors).values({
      id, workspaceId: ws, type: 'live', name: 'm', url: 'https://live.example/stream.m3u8', platform: 'hls', watchUrl: 'https://live.example/stream.m3u8',
      status: 'watching', pollSeq: 1, startedAt: new Date(),
    });
    return { ws, id };
  }

  it('broadcast.started, then monitor.stopped INSUFFICIENT_CREDITS and broadcast.ended when a batch cannot be paid', async () => {
    const stand = new Stand();
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
    const stand = new Stand();
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
    expect(c.published.slice(1)).toEqual([{ workspaceId: gone.ws, type: 'monitor.stopped', data: { id: gone.id, status: 'stopped', stop_reason: 'SOURCE_GONE' } }]);
    // Stopping a stopped monitor again changes and announces nothing.
    await c.service.stopMonitor(gone.id, 'SOURCE_GONE');
    expect(c.published).toHaveLength(2);
  });
});
