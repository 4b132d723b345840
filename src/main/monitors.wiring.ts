import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleMonitorsRepository } from '../adapters/db/repositories/monitors.repository.js';
import { DrizzleSubmissionsRepository } from '../adapters/db/repositories/submissions.repository.js';
import { DrizzleVideosRepository } from '../adapters/db/repositories/videos.repository.js';
import { ffmpegPath } from '../adapters/media/binaries.js';
import { HlsLiveRecorder } from '../adapters/watchers/live-recorder.js';
import { createWatchers } from '../adapters/watchers/watchers.factory.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import type { ClipEditsService } from '../domain/clips/clip-edits.service.js';
import { BroadcastEnding } from '../domain/monitors/broadcast-end.js';
import { LiveBatchProcessor } from '../domain/monitors/live-batches.js';
import { MonitorPoller } from '../domain/monitors/monitor-poller.js';
import { MonitorsService } from '../domain/monitors/monitors.service.js';
import type { RendersService } from '../domain/renders/renders.service.js';
import type { SubmissionPipeline } from '../domain/submissions/pipeline.js';
import type { SubmissionChecks, SubmissionsService } from '../domain/submissions/submissions.service.js';
import type { VideosService } from '../domain/videos/videos.service.js';
import type { WorkspacesService } from '../domain/workspaces/workspaces.service.js';
import type { MediaProbe } from '../ports/media.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';
import type { EventPublisher } from '../domain/webhooks/events.js';

export interface MonitorsWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  media: MediaProbe;
  credits: CreditsService;
  checks: SubmissionChecks;
  /** Webhook events: broadcast.started, broadcast.ended, monitor.stopped. */
  events?: EventPublisher;
  /** Late-bound: the container's services (they are built after this wiring is declared). */
  services(): {
    videos: Pick<VideosService, 'analyzeLink'>;
    submissions: Pick<SubmissionsService, 'create' | 'clipView'>;
    renders: Pick<RendersService, 'renderClip'>;
    clipEdits: Pick<ClipEditsService, 'applyTemplate'>;
    pipeline: Pick<SubmissionPipeline, 'run'>;
    workspaces: Pick<WorkspacesService, 'get'>;
  };
}

/** Monitors: the API's service, the poll job's watcher chain and the live batch job (docs/monitors.md). */
export function createMonitors(w: MonitorsWiring) {
  const cfg = w.config.monitors;
  const db = w.database.db;
  const repo = new DrizzleMonitorsRepository(db);
  const tmpDir = path.join(w.config.dataDir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const recorder = new HlsLiveRecorder({
    storage: w.storage,
    probe: w.media,
    ffmpegBinary: w.config.sources.ffmpegPath ?? ffmpegPath(),
    allowPrivate: w.config.sources.allowPrivateSources,
    tmpDir,
    maxBytes: cfg.batchMaxBytes,
  });
  const watchers = createWatchers({ sources: w.config.sources, monitors: cfg }, recorder);
  const ending = new BroadcastEnding({ repo, credits: w.credits, queue: w.queue, events: w.events });
  const monitors = new MonitorsService({
    repo,
    tx: w.transactions,
    queue: w.queue,
    classifier: watchers.classifier,
    checks: w.checks,
    ending,
    clipView: (row) => w.services().submissions.clipView(row),
    renderClip: (ctx, videoId, submissionId, clipId) => w.services().renders.renderClip(ctx, videoId, submissionId, clipId),
    applyTemplate: (ws, videoId, submissionId, templateId) => w.services().clipEdits.applyTemplate(ws, videoId, submissionId, templateId),
    batchSeconds: cfg.batchSeconds,
    events: w.events,
  });
  const monitorPoller = new MonitorPoller({
    repo,
    tx: w.transactions,
    queue: w.queue,
    credits: w.credits,
    storage: w.storage,
    logger: w.logger,
    ending,
    watcher: (p) => watchers.watcher(p),
    recorder,
    workspaces: { get: (id) => w.services().workspaces.get(id) },
    async submitUpload(ctx, monitor, entry) {
      const { videos, submissions } = w.services();
      const video = await videos.analyzeLink(ctx, entry.url);
      const existing = await repo.monitorSubmissionOfVideo(monitor.id, video.id);
      if (existing) return existing;
      const row = await submissions.create(
        ctx,
        {
          video_id: video.id,
          ...(monitor.templateId ? { template_id: monitor.templateId } : {}),
          ...(monitor.strategyId ? { strategy_id: monitor.strategyId } : {}),
          source_language: monitor.sourceLanguage,
        },
        { monitorId: monitor.id },
      );
      return row.id;
    },
    stopMonitor: (id, reason) => monitors.stopMonitor(id, reason),
    pollSeconds: cfg.pollSeconds,
    batchSeconds: cfg.batchSeconds,
    maxBatchBytes: cfg.batchMaxBytes,
    stallSeconds: cfg.stallSeconds,
    events: w.events,
  });
  const liveBatches = new LiveBatchProcessor({
    repo,
    tx: w.transactions,
    credits: w.credits,
    videos: new DrizzleVideosRepository(db),
    submissions: new DrizzleSubmissionsRepository(db),
    pipeline: { run: (id, attempt) => w.services().pipeline.run(id, attempt) },
    recorder,
    ending,
    storage: w.storage,
    workspaces: { get: (id) => w.services().workspaces.get(id) },
    logger: w.logger,
    batchSeconds: cfg.batchSeconds,
  });
  return { monitors, monitorPoller, liveBatches };
}
