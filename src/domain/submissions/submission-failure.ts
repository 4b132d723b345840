import type { TransactionRunner } from '../../ports/transactions.js';
import type { CreditsService } from '../credits/credits.service.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import type { SubmissionRow, SubmissionsRepository } from './submissions.records.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

export interface SubmissionFailureDeps {
  repo: Pick<SubmissionsRepository, 'failIfUnfinished'>;
  transactions: TransactionRunner;
  credits: Pick<CreditsService, 'refund'>;
  /** Announces `submission.failed` (webhooks). */
  events?: EventPublisher;
}

/**
 * How a submission fails, wherever it fails: at creation when the queue refuses its job
 * (SubmissionsService), or in a run that gives up (SubmissionPipeline). One transaction ends it in
 * `failed` with its code, gives its credits back (once) and announces `submission.failed` (not for a
 * live batch's submission: its broadcast announces itself, docs/monitors.md).
 */
export class SubmissionFailure {
  constructor(private readonly d: SubmissionFailureDeps) {}

  /** Ends a submission in `failed` with a code and gives its credits back (once). */
  async fail(row: Pick<SubmissionRow, 'id' | 'workspaceId'>, errorCode: string): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      const failed = await this.d.repo.failIfUnfinished(tx, row.id, errorCode, new Date());
      await this.d.credits.refund(
        { workspaceId: row.workspaceId, jobType: CHARGE_TYPE.submission, jobId: row.id, reason: `submission failed: ${errorCode}` },
        tx,
      );
      if (failed && !failed.liveBatch) {
        const data = { id: row.id, video_id: failed.videoId, status: 'failed', error_code: errorCode };
        await (this.d.events ?? noEvents).publish(row.workspaceId, 'submission.failed', data, tx);
      }
    });
  }
}
