import type { SubmissionPipeline } from '../../domain/submissions/pipeline.js';
import type { RenderProcessor } from '../../domain/renders/renders.processor.js';
import type { PostItemProcessor } from '../../domain/publishing/post-items.processor.js';
import type { TranscriptionProcessor } from '../../domain/transcriptions/transcriptions.processor.js';
import type { HandlerMap } from '../registry.js';
import { maintenanceHandler, type MaintenanceHandlerDeps } from './maintenance.handler.js';
import { submissionHandler } from './submission.handler.js';
import { renderExpiryHandler, renderHandler } from './render.handler.js';
import { postItemHandler } from './post.handler.js';
import { transcriptionHandler } from './transcription.handler.js';

/** What the job handlers run on (the container in src/main provides it). */
export interface HandlersDeps extends MaintenanceHandlerDeps {
  pipeline: SubmissionPipeline;
  renderProcessor: RenderProcessor;
  postItems: PostItemProcessor;
  transcriptionProcessor: TranscriptionProcessor;
}

/** Every job's handler, built from its deps. */
export function buildHandlers(deps: HandlersDeps): HandlerMap {
  return {
    'maintenance.purge': maintenanceHandler(deps),
    'submission.process': submissionHandler(deps.pipeline),
    'render.process': renderHandler(deps.renderProcessor),
    'render.expire': renderExpiryHandler(deps.renderProcessor),
    'post.publish_item': postItemHandler(deps.postItems),
    'transcription.process': transcriptionHandler(deps.transcriptionProcessor),
  };
}
