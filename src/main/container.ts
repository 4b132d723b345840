import type { Logger } from 'pino';
import type { Config, Role } from '../config/env.js';
import { openDatabase, type Database } from '../adapters/db/database.js';
import { createTransactionRunner } from '../adapters/db/transactions.js';
import { DrizzleCreditsRepository } from '../adapters/db/repositories/credits.repository.js';
import { DrizzleClipsRepository } from '../adapters/db/repositories/clips.repository.js';
import { DrizzleSubmissionsRepository } from '../adapters/db/repositories/submissions.repository.js';
import { DrizzleTemplatesRepository } from '../adapters/db/repositories/templates.repository.js';
import { DrizzleVideosRepository } from '../adapters/db/repositories/videos.repository.js';
import { PgBossQueue } from '../adapters/queue/pgboss.queue.js';
import { ProcessHeartbeat } from '../adapters/liveness/process-heartbeat.js';
import { DrizzleIdempotencyRepository } from '../adapters/db/repositories/idempotency.repository.js';
import { createRateLimiter } from '../adapters/rate-limit/rate-limiter.factory.js';
import { PgNotifyAuthChanges } from '../adapters/auth-changes/pg-notify.auth-changes.js';
import type { PlansService } from '../domain/plans/plans.service.js';
import { CreditsService } from '../domain/credits/credits.service.js';
import type { WorkspacesService } from '../domain/workspaces/workspaces.service.js';
import type { ApiKeysService } from '../domain/auth/api-keys.service.js';
import type { AdminTokenService } from '../domain/auth/admin-token.service.js';
import { IdempotencyService } from '../domain/idempotency/idempotency.service.js';
import { createAccounts } from './accounts.wiring.js';
import type { JobQueue } from '../ports/queue.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Storage } from '../ports/storage.js';
import { createStorage, partSizeFor } from '../adapters/storage/storage.factory.js';
import { signedFilesOf } from '../adapters/storage/signed-files.js';
import type { McpEndpoint } from '../http/routes/mcp.routes.js';
import { createMcpEndpoint } from './mcp/http.js';
import type { SignedFiles } from '../ports/signed-files.js';
import type { MediaProbe } from '../ports/media.js';
import { FfprobeMediaProbe } from '../adapters/media/ffprobe.js';
import { VideosService } from '../domain/videos/videos.service.js';
import { createSourceResolvers } from '../adapters/sources/source-resolvers.js';
import { TemplatesService } from '../domain/templates/templates.service.js';
import { SubmissionsService } from '../domain/submissions/submissions.service.js';
import { SubmissionFailure } from '../domain/submissions/submission-failure.js';
import { submissionChecks } from '../domain/submissions/submission-checks.js';
import type { SubmissionPipeline } from '../domain/submissions/pipeline.js';
import type { AsrEngine } from '../ports/asr.js';
import { createAsrEngine, createPipeline } from './pipeline.wiring.js';
import { createRenders } from './renders.wiring.js';
import type { ClipEditsService } from '../domain/clips/clip-edits.service.js';
import type { EditsService } from '../domain/edits/edits.service.js';
import type { RendersService } from '../domain/renders/renders.service.js';
import type { RenderProcessor } from '../domain/renders/renders.processor.js';
import { createPosts } from './posts.wiring.js';
import type { Publisher } from '../ports/publisher.js';
import type { ConnectionsService } from '../domain/publishing/connections.service.js';
import type { PostsService } from '../domain/publishing/posts.service.js';
import type { PostItemProcessor } from '../domain/publishing/post-items.processor.js';
import { createTranscriptions } from './transcriptions.wiring.js';
import { createCompute } from './compute.wiring.js';
import type { TranscriptionsService } from '../domain/transcriptions/transcriptions.service.js';
import type { TranscriptionProcessor } from '../domain/transcriptions/transcriptions.processor.js';
import type { Vad } from '../ports/vad.js';
import type { MetricsRegistry } from '../ports/metrics.js';
import { PrometheusMetrics } from '../adapters/metrics/prometheus.metrics.js';
import { meteredAsr, reportFfmpegRuns } from '../adapters/metrics/tool.metrics.js';
import { readQueueDepth } from '../adapters/queue/queue-depth.js';
import type { SubmissionRetention } from '../domain/submissions/submissions.retention.js';
import { createRetention } from './retention.wiring.js';
import { createWebhooks } from './webhooks.wiring.js';
import type { WebhooksService } from '../domain/webhooks/webhooks.service.js';
import type { WebhookDeliveryProcessor } from '../domain/webhooks/webhook-delivery.processor.js';
import type { EventPublisher } from '../domain/webhooks/events.js';
import { createGenerations } from './generations.wiring.js';
import type { GenerationsService } from '../domain/generations/generations.service.js';
import type { GenerationProcessor } from '../domain/generations/generations.processor.js';
import { createMonitors } from './monitors.wiring.js';
import type { MonitorsService } from '../domain/monitors/monitors.service.js';
import type { MonitorPoller } from '../domain/monitors/monitor-poller.js';
import type { LiveBatchProcessor } from '../domain/monitors/live-batches.js';
import { createPersonas } from './personas.wiring.js';
import type { PersonasService } from '../domain/personas/personas.service.js';
import type { PersonaVideosService } from '../domain/personas/persona-videos.service.js';
import type { PersonaProcessor } from '../domain/personas/personas.processor.js';
import type { PersonaPricesService } from '../domain/personas/persona-prices.service.js';

export interface Container {
  config: Config;
  logger: Logger;
  database: Database;
  /** This process's row among the heartbeating processes (job leases and idempotency claims are held in its name). */
  heartbeat: ProcessHeartbeat;
  queue: JobQueue;
  rateLimiter: RateLimiter;
  storage: Storage;
  /** The storage's signed URLs the service answers itself (local driver); null for S3. */
  signedFiles: SignedFiles | null;
  media: MediaProbe;
  videos: VideosService;
  plans: PlansService;
  credits: CreditsService;
  workspaces: WorkspacesService;
  apiKeys: ApiKeysService;
  adminToken: AdminTokenService;
  idempotency: IdempotencyService;
  asr: AsrEngine;
  submissions: SubmissionsService;
  /** Runs submissions through their stages (used by workers). */
  pipeline: SubmissionPipeline;
  templates: TemplatesService;
  /** A clip's current edit and apply_template. */
  clipEdits: ClipEditsService;
  /** Edits as documents, their versions and derived edits (/edits). */
  edits: EditsService;
  renders: RendersService;
  /** Runs renders and the expiry sweep (used by workers). */
  renderProcessor: RenderProcessor;
  /** Publishers by lowercase network name (local, youtube, tiktok, instagram). */
  publishers: ReadonlyMap<string, Publisher>;
  /** Publishing accounts (admin API, GET /connections). */
  connections: ConnectionsService;
  posts: PostsService;
  /** Runs post items (job post.publish_item, used by workers). */
  postItems: PostItemProcessor;
  /** Standalone transcription: uploads, cache, Transcription and Transcript objects. */
  transcriptions: TranscriptionsService;
  /** Runs transcription jobs (used by workers). */
  transcriptionProcessor: TranscriptionProcessor;
  /** Generations: the model catalog, reference images, priced generations. */
  generations: GenerationsService;
  /** Runs generation jobs (used by workers). */
  generationProcessor: GenerationProcessor;
  /** Voice activity detection (Silero VAD, loaded on first use). */
  vad: Vad;
  /** This process's Prometheus metrics (GET /metrics). */
  metrics: MetricsRegistry;
  /** Purges finished submissions past their plan's retention (job submission.expire, used by workers). */
  submissionRetention: SubmissionRetention;
  /** Webhook endpoints (POST/GET/DELETE /webhooks) and their deliveries. */
  webhooks: WebhooksService;
  /** How every service announces its events (webhooks: docs/webhooks.md); the same object as `webhooks`. */
  events: EventPublisher;
  /** Sends webhook deliveries (jobs webhook.deliver, webhook.dispatch; used by workers). */
  webhookDelivery: WebhookDeliveryProcessor;
  /** Channel monitors, their broadcasts and clips (docs/monitors.md). */
  monitors: MonitorsService;
  /** Watches monitors' channels and records live broadcasts (jobs monitor.poll, monitor.revive; used by workers). */
  monitorPoller: MonitorPoller;
  /** Clips live batches (job monitor.batch; used by workers). */
  liveBatches: LiveBatchProcessor;
  /** Personas: catalog, faces, portraits, versions, presets (docs/personas.md). */
  personas: PersonasService;
  /** Persona sources, swap quotes and persona videos. */
  personaVideos: PersonaVideosService;
  /** Runs persona portraits and swaps (jobs persona.portrait, persona.swap; used by workers). */
  personaProcessor: PersonaProcessor;
  /** The operator's persona prices (admin API). */
  personaPrices: PersonaPricesService;
  /** The embedded database's dump for `cutroom backup` against a running service; null on PostgreSQL. */
  databaseDump: { dump(): Promise<Uint8Array> } | null;
  /** `/mcp`, the MCP server over Streamable HTTP; null when CUTROOM_MCP=off (docs/mcp.md). */
  mcp: McpEndpoint | null;
  close(): Promise<void>;
}

export interface ContainerOptions {
  config: Config;
  logger: Logger;
  role: Role;
  /** Tests pass an open database (in-memory PGlite or a scratch PostgreSQL database). */
  database?: Database;
  /** PGlite directory; defaults to `<dataDir>/pgdata`. */
  pgliteDir?: string;
  queuePollingSeconds?: number;
}

/** Wires env → adapters → services. The caller starts http and workers. */
export async function createContainer(opts: ContainerOptions): Promise<Container> {
  const { config, logger } = opts;
  const database =
    opts.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : (opts.pgliteDir ?? `${config.dataDir}/pgdata`) }));
  const db = database.db;
  const heartbeat = new ProcessHeartbeat({ db, logger, role: opts.role, leaseSeconds: config.jobLeaseSeconds });
  await heartbeat.start();
  const queue = new PgBossQueue({
    database,
    logger,
    heartbeat,
    supervise: opts.role !== 'api',
    pollingIntervalSeconds: opts.queuePollingSeconds,
  });
  const metrics = new PrometheusMetrics({
    queueDepth: () => readQueueDepth(database),
    onCollectError: (err) => logger.warn({ err }, 'queue depth for metrics'),
  });
  const stopFfmpegReports = reportFfmpegRuns(metrics);
  const transactions = createTransactionRunner(db);
  const credits = new CreditsService({ repo: new DrizzleCreditsRepository(db), tx: transactions, metrics });
  // Distributed mode: auth changes reach the other processes over LISTEN/NOTIFY (embedded: one process).
  const authChanges = database.connectionString
    ? new PgNotifyAuthChanges({
        connectionString: database.connectionString,
        sql: database.sql,
        onError: (err) => logger.warn({ err }, 'auth change listener'),
      })
    : undefined;
  const { signingSecret, authCache, ...accounts } = createAccounts(database, transactions, credits, { ttlMs: config.authCacheMs, bus: authChanges });
  if (opts.role !== 'worker') await authCache.listen();
  const rateLimits = createRateLimiter({
    store: config.rateLimitStore,
    redisUrl: config.redisUrl,
    db,
    onError: (err) => logger.warn({ err }, 'rate-limit store'),
  });
  const storage = await createStorage({
    storage: config.storage,
    dataDir: config.dataDir,
    publicBaseUrl: config.publicBaseUrl,
    storedSigningSecret: () => signingSecret.resolve(),
  });
  const media = new FfprobeMediaProbe({ timeoutMs: config.sources.probeTimeoutMs });
  const resolvers = createSourceResolvers(config.sources, { probe: media });
  // Faces, voice detection and diarization run in worker threads (CUTROOM_COMPUTE_THREADS; 0: on the event loop).
  const compute = createCompute(config.computeThreads);
  const asr = meteredAsr(createAsrEngine(config.asr, { vad: compute.vad }), metrics);
  const templates = new TemplatesService({ repo: new DrizzleTemplatesRepository(db), tx: transactions });
  const videos = new VideosService({
    repo: new DrizzleVideosRepository(db),
    storage,
    media,
    resolvers,
    limits: {
      multipartThreshold: config.multipartThresholdBytes,
      partSize: (size) => partSizeFor(size, config.multipartPartSizeBytes),
    },
  });
  // What every area's wiring is given.
  const areaBase = { config, logger, database, storage, queue, transactions };
  // Events are announced through the webhooks' publisher, built before the services that announce them.
  const { webhooks, webhookDelivery } = createWebhooks({ config, logger, database, queue, transactions });
  const events: EventPublisher = webhooks;
  // Built once, used by POST /clips and by the monitors (their options and their uploads' submissions).
  const checks = submissionChecks(templates, asr);
  const submissionRows = new DrizzleSubmissionsRepository(db);
  const submissionFailure = new SubmissionFailure({ repo: submissionRows, transactions, credits, events });
  const submissions = new SubmissionsService({
    repo: submissionRows,
    clips: new DrizzleClipsRepository(db),
    tx: transactions,
    videos,
    credits,
    queue,
    checks,
    storage,
    failure: submissionFailure,
  });
  const { workspaces } = accounts;
  const idempotency = new IdempotencyService({ repo: new DrizzleIdempotencyRepository(db), owner: heartbeat.id });
  const pipeline = createPipeline({
    ...areaBase,
    media,
    asr,
    failure: submissionFailure,
    templates,
    workspaces,
    faces: compute.faces,
    highlights: compute.highlights,
    events,
  });
  const rendersArea = createRenders({ ...areaBase, submissions, templates, vad: compute.vad, events });
  const postsArea = createPosts({ ...areaBase, renders: rendersArea.renders, workspaces, events });
  const transcriptionsArea = createTranscriptions({
    ...areaBase,
    media,
    credits,
    asr,
    vad: compute.vad,
    diarizer: compute.diarizer,
    events,
  });
  const generationsArea = createGenerations({ ...areaBase, media, credits, pool: compute.pool, events });
  const submissionRetention = createRetention({ database, storage, transactions, logger });
  const monitorsArea = createMonitors({
    ...areaBase,
    media,
    credits,
    checks,
    videos,
    submissions,
    renders: rendersArea.renders,
    clipEdits: rendersArea.clipEdits,
    pipeline,
    workspaces,
    events,
  });
  const personasArea = createPersonas({
    ...areaBase,
    media,
    credits,
    transcriptions: transcriptionsArea.transcriptions,
    videos,
    events,
    pool: compute.pool,
  });
  return {
    config,
    logger,
    database,
    heartbeat,
    queue,
    rateLimiter: rateLimits.limiter,
    storage,
    signedFiles: signedFilesOf(storage),
    media,
    videos,
    credits,
    ...accounts,
    idempotency,
    templates,
    asr,
    submissions,
    pipeline,
    ...rendersArea,
    ...postsArea,
    ...transcriptionsArea,
    ...generationsArea,
    metrics,
    submissionRetention,
    webhooks,
    events,
    webhookDelivery,
    ...monitorsArea,
    ...personasArea,
    databaseDump: database.dump ? { dump: () => database.dump!() } : null,
    mcp: config.mcp ? createMcpEndpoint({ publicBaseUrl: config.publicBaseUrl, allowPrivateLinks: config.sources.allowPrivateSources }) : null,
    async close() {
      stopFfmpegReports();
      await compute.close();
      await authChanges?.close();
      await rateLimits.close();
      await heartbeat.stop();
      await database.close();
    },
  };
}
