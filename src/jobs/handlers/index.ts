import type { SubmissionPipeline } from '../../domain/submissions/pipeline.js';
import type { SubmissionRetention } from '../../domain/submissions/submissions.retention.js';
import type { RenderProcessor } from '../../domain/renders/renders.processor.js';
import type { PostItemProcessor } from '../../domain/publishing/post-items.processor.js';
import type { TranscriptionProcessor } from '../../domain/transcriptions/transcriptions.processor.js';
import type { WebhookDeliveryProcessor } from '../../domain/webhooks/webhook-delivery.processor.js';
import type { MonitorPoller } from '../../domain/monitors/monitor-poller.js';
import type { LiveBatchProcessor } from '../../domain/monitors/live-batches.js';
import type { GenerationProcessor } from '../../domain/generations/generations.processor.js';
import type { PersonaProcessor } from '../../domain/personas/personas.processor.js';
import type { Metrics } from '../../ports/metrics.js';
import type { JobHandler } from '../../ports/queue.js';
import type { JobName } from '../../shared/jobs.js';
import type { HandlerMap } from '../registry.js';
import { metered } from '../metered.js';
import { maintenanceHandler, type MaintenanceHandlerDeps } from './maintenance.handler.js';
import { submissionHandler } from './submission.handler.js';
import { submissionExpiryHandler } from './retention.handler.js';
import { renderExpiryHandler, renderHandler } from './render.handler.js';
import { postItemHandler } from './post.handler.js';
import { transcriptionHandler } from './transcription.handler.js';
import { webhookDeliverHandler, webhookDispatchHandler } from './webhook.handler.js';
import { monitorBatchHandler, monitorPollHandler, monitorReviveHandler } from './monitor.handler.js';
import { generationHandler } from './generation.handler.js';
import { personaPortraitHandler, personaSwapHandler } from './persona.handler.js';

/** What the job handlers run on (the container in src/main provides it). */
export interface HandlersDeps extends MaintenanceHandlerDeps {
  pipeline: SubmissionPipeline;
  submissionRetention: Pick<SubmissionRetention, 'sweep'>;
  renderProcessor: RenderProcessor;
  postItems: PostItemProcessor;
  transcriptionProcessor: TranscriptionProcessor;
  /** Webhook deliveries (jobs webhook.deliver, webhook.dispatch). */
  webhookDelivery: Pick<WebhookDeliveryProcessor, 'deliver' | 'sweep'>;
  /** Watches monitors' channels and records live broadcasts (jobs monitor.poll, monitor.revive). */
  monitorPoller: MonitorPoller;
  /** Clips live batches (job monitor.batch). */
  liveBatches: LiveBatchProcessor;
  /** Runs generations (job generation.process). */
  generationProcessor: GenerationProcessor;
  /** Runs persona portraits and swaps (jobs persona.portrait, persona.swap). */
  personaProcessor: PersonaProcessor;
  /** Each run is timed and counted by outcome (src/jobs/metered.ts). */
  metrics: Metrics;
}

/** Every job's handler, built from its deps, each run timed and counted. */
export function buildHandlers(deps: HandlersDeps): HandlerMap {
  const handlers: HandlerMap = {
    'maintenance.purge': maintenanceHandler(deps),
    'submission.process': submissionHandler(deps.pipeline),
    'submission.expire': submissionExpiryHandler(deps.submissionRetention),
    'render.process': renderHandler(deps.renderProcessor),
    'render.expire': renderExpiryHandler(deps.renderProcessor),
    'post.publish_item': postItemHandler(deps.postItems),
    'transcription.process': transcriptionHandler(deps.transcriptionProcessor),
    'webhook.deliver': webhookDeliverHandler(deps.webhookDelivery),
    'webhook.dispatch': webhookDispatchHandler(deps.webhookDelivery),
    'monitor.poll': monitorPollHandler(deps.monitorPoller),
    'monitor.revive': monitorReviveHandler(deps.monitorPoller),
    'monitor.batch': monitorBatchHandler(deps.liveBatches),
    'generation.process': generationHandler(deps.generationProcessor),
    'persona.portrait': personaPortraitHandler(deps.personaProcessor),
    'persona.swap': personaSwapHandler(deps.personaProcessor),
  };
  const wrap = <N extends JobName>(name: N) => metered(name, handlers[name] as JobHandler<N>, deps.metrics);
  return Object.fromEntries(Object.keys(handlers).map((name) => [name, wrap(name as JobName)])) as HandlerMap;
}
