import type { SubmissionPipeline } from '../../domain/submissions/pipeline.js';
import type { JobHandler } from '../../ports/queue.js';
import { SUBMISSION_JOB_OPTIONS } from '../../domain/submissions/submissions.service.js';

/** submission.process: runs the pipeline; it resumes at the stage the submission is in. */
export function submissionHandler(pipeline: SubmissionPipeline): JobHandler<'submission.process'> {
  return async (payload, ctx) => {
    await pipeline.run(payload.submissionId, { retryCount: ctx.retryCount, retryLimit: SUBMISSION_JOB_OPTIONS.retryLimit });
  };
}
