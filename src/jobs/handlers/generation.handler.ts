import { attemptOf } from '../../domain/jobs/retry.js';
import type { GenerationProcessor } from '../../domain/generations/generations.processor.js';
import type { JobHandler } from '../../ports/queue.js';

/** generation.process: runs one generation; a retried job resumes a hosted provider's job. */
export function generationHandler(processor: GenerationProcessor): JobHandler<'generation.process'> {
  return async (payload, ctx) => {
    if (typeof payload?.generationId !== 'string') return;
    await processor.run(payload.generationId, attemptOf('generation.process', ctx));
  };
}
