import pino from 'pino';
import type { DrizzleMonitorsRepository } from '../../src/adapters/db/repositories/monitors.repository.js';
import { DrizzleWorkspacesRepository } from '../../src/adapters/db/repositories/workspaces.repository.js';
import { monitors, workspaces } from '../../src/adapters/db/schema/index.js';
import type { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import type { CreditsService } from '../../src/domain/credits/credits.service.js';
import { BroadcastEnding } from '../../src/domain/monitors/broadcast-end.js';
import { MonitorPoller } from '../../src/domain/monitors/monitor-poller.js';
import { MonitorsService, type MonitorsServiceDeps } from '../../src/domain/monitors/monitors.service.js';
import type { EventPublisher } from '../../src/domain/webhooks/events.js';
import type { ChannelWatcher, LivePlaylist, LiveRecorder, LiveSegment } from '../../src/ports/channel-watcher.js';
import type { Storage } from '../../src/ports/storage.js';
import type { openTestDatabase } from './db.js';
import { FakeQueue } from './fake-queue.js';

/** A live playlist and channel under the test's control; every stored chunk is remembered. */
export class LiveStand {
  onAir = true;
  playlist: LivePlaylist = { ended: false, targetDuration: 2, segments: [] };
  stored: Array<{ key: string; sequences: number[] }> = [];
  /** The stream's address the channel answers (a loopback server's, with a real recorder). */
  playlistUrl = 'https://live.example/stream.m3u8';
  /** What a stored chunk measures: by default what its segments declare (an honest stream), 1 byte. */
  measure: (segments: readonly LiveSegment[]) => { seconds: number; bytes: number } = (segments) => ({
    seconds: segments.reduce((s, x) => s + x.duration, 0),
    bytes: 1,
  });

  constructor(readonly title = 'Show') {}

  /** Segments `from`..`to` (2 s each) are the playlist's window. */
  window(from: number, to: number): void {
    this.playlist.segments = Array.from({ length: to - from + 1 }, (_, i): LiveSegment => ({ sequence: from + i, duration: 2, source: null }));
  }

  watcher: ChannelWatcher = {
    platform: 'hls',
    uploads: async () => [],
    live: async () => (this.onAir ? { live: true, id: 'stream-1', title: this.title, playlistUrl: this.playlistUrl } : { live: false }),
  } as ChannelWatcher;

  recorder: LiveRecorder = {
    readPlaylist: async () => structuredClone({ ...this.playlist, segments: this.playlist.segments.map((s) => ({ ...s })) }),
    storeChunk: async (segments, key) => {
      this.stored.push({ key, sequences: segments.map((s) => s.sequence) });
      return this.measure(segments);
    },
    cutBatch: async () => {
      throw new Error('not here: the batch job is not run by these tests');
    },
  };
}

export interface LiveWorld {
  database: Awaited<ReturnType<typeof openTestDatabase>>;
  repo: DrizzleMonitorsRepository;
  runner: ReturnType<typeof createTransactionRunner>;
  credits: CreditsService;
}

/** One process's view of a live monitor: its own queue, ending, service and poller over the shared
 * database, watching `stand`; `pollNow` runs the chain's next poll as the monitor.poll job would. A real
 * recorder and storage may replace the stand's (`recorder`, `storage`). */
export function livePoller(
  world: LiveWorld,
  stand: LiveStand,
  opts: {
    batchSeconds?: number;
    stallSeconds?: number;
    maxBatchBytes?: number;
    events?: EventPublisher;
    recorder?: LiveRecorder;
    storage?: Pick<Storage, 'delete'>;
  } = {},
) {
  const { repo, runner, credits, database } = world;
  const events = opts.events ? { events: opts.events } : {};
  const batchSeconds = opts.batchSeconds ?? 20;
  const queue = new FakeQueue();
  const ending = new BroadcastEnding({ repo, credits, queue, ...events });
  const service = new MonitorsService({ repo, tx: runner, queue, ending, batchSeconds, ...events } as unknown as MonitorsServiceDeps);
  const workspacesRepo = new DrizzleWorkspacesRepository(database.db, database.sql);
  const poller = new MonitorPoller({
    repo,
    tx: runner,
    queue,
    credits,
    storage: opts.storage ?? { delete: async () => {} },
    logger: pino({ level: 'silent' }),
    ending,
    ...events,
    watcher: () => stand.watcher,
    recorder: opts.recorder ?? stand.recorder,
    workspaces: { get: async (id) => (await workspacesRepo.findWithPlan(id))! },
    uploads: {
      submit: async () => {
        throw new Error('no uploads here');
      },
    },
    stopMonitor: (id, reason) => service.stopMonitor(id, reason),
    pollSeconds: 1,
    batchSeconds,
    maxBatchBytes: opts.maxBatchBytes ?? 1 << 30,
    stallSeconds: opts.stallSeconds ?? 30,
  });
  const pollNow = async (id: string) => poller.poll(id, (await repo.get(id))!.pollSeq);
  return { queue, service, poller, pollNow };
}

/** A workspace with `balance` credits and its live monitor, on and watching the stand's playlist. */
export async function insertLiveMonitor(
  db: LiveWorld['database']['db'],
  ids: { ws: string; id: string },
  o: { balance: number; plan?: string; unlimited?: boolean },
): Promise<{ ws: string; id: string }> {
  await db.insert(workspaces).values({ id: ids.ws, name: ids.ws, planName: o.plan ?? 'svc', credits: o.balance, unlimited: o.unlimited ?? false });
  await db.insert(monitors).values({
    id: ids.id,
    workspaceId: ids.ws,
    type: 'live',
    name: 'm',
    url: 'https://live.example/stream.m3u8',
    platform: 'hls',
    watchUrl: 'https://live.example/stream.m3u8',
    status: 'watching',
    pollSeq: 1,
    startedAt: new Date(),
  });
  return ids;
}
