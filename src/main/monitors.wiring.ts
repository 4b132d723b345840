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
import { MonitorUploads } from '../domain/monitors/monitor-uploads.js';
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
  videos: Pick<VideosService, 'analyzeLink'>;
  submissions: Pick<SubmissionsService, 'create' | 'clipView'>;
  renders: Pick<RendersService, 'renderClip'>;
  clipEdits: Pick<ClipEditsService, 'applyTemplate'>;
  /** Clips the live batches (job monitor.batch). */
  pipeline: Pick<SubmissionPipeline, 'run'>;
  workspaces: Pick<WorkspacesService, 'get'>;
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
    clipView: (row) => w.submissions.clipView(row),
    renderClip: (ctx, videoId, submissionId, clipId) => w.renders.renderClip(ctx, videoId, submissionId, clipId),
    applyTemplate: (ws, videoId, submissionId, templateId) => w.clipEdits.applyTemplate(ws, videoId, submissionId, templateId),
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
    workspaces: w.workspaces,
    uploads: new MonitorUploads({ repo, videos: w.videos, submissions: w.submissions }),
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
    pipeline: w.pipeline,
    recorder,
    ending,
    storage: w.storage,
    workspaces: w.workspaces,
    logger: w.logger,
    batchSeconds: cfg.batchSeconds,
  });
  return { monitors, monitorPoller, liveBatches };
}
