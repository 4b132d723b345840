import type { Container } from '../../main/container.js';
import type { HandlerMap } from '../registry.js';
import { maintenanceHandler } from './maintenance.handler.js';
import { submissionHandler } from './submission.handler.js';
import { renderExpiryHandler, renderHandler } from './render.handler.js';
import { postItemHandler } from './post.handler.js';
import { transcriptionHandler } from './transcription.handler.js';

/** Every job's handler, built from the container. */
export function buildHandlers(c: Container): HandlerMap {
  return {
    'maintenance.purge': maintenanceHandler(c),
    'submission.process': submissionHandler(c.pipeline),
    'render.process': renderHandler(c.renderProcessor),
    'render.expire': renderExpiryHandler(c.renderProcessor),
    'post.publish_item': postItemHandler(c.postItems),
    'transcription.process': transcriptionHandler(c.transcriptionProcessor),
  };
}
