import { attemptOf } from '../../domain/jobs/retry.js';
import type { PersonaProcessor } from '../../domain/personas/personas.processor.js';
import type { JobHandler } from '../../ports/queue.js';

/** persona.portrait: makes one portrait (a new current version, or failed with a refund). */
export function personaPortraitHandler(processor: PersonaProcessor): JobHandler<'persona.portrait'> {
  return async (payload, ctx) => {
    if (typeof payload?.portraitId !== 'string') return;
    await processor.runPortrait(payload.portraitId, attemptOf('persona.portrait', ctx));
  };
}

/** persona.swap: makes one persona video (its MP4 and edit, or failed with a refund). */
export function personaSwapHandler(processor: PersonaProcessor): JobHandler<'persona.swap'> {
  return async (payload, ctx) => {
    if (typeof payload?.videoId !== 'string') return;
    await processor.runSwap(payload.videoId, attemptOf('persona.swap', ctx));
  };
}
