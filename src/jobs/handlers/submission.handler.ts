import type { SubmissionPipeline } from '../../domain/submissions/pipeline.js';
import { attemptOf } from '../../domain/jobs/retry.js';
import type { JobHandler } from '../../ports/queue.js';

/** submission.process: runs the pipeline; it resumes at the stage the submission is in. */
export function submissionHandler(pipeline: SubmissionPipeline): JobHandler<'submission.process'> {
  return async (payload, ctx) => {
    await pipeline.run(payload.submissionId, attemptOf('submission.process', ctx));
  };
}
