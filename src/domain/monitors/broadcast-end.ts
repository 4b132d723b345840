import type { CreditsService } from '../credits/credits.service.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import { sendJob } from '../jobs/enqueue.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Tx } from '../../ports/transactions.js';
import { batchJobId } from './monitor.rules.js';
import type { BatchChunk, BroadcastRow, MonitorsRepository } from './monitors.records.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

/**
 * Ending a broadcast, shared by the recorder (`#EXT-X-ENDLIST`, a stalled playlist, credits run out) and
 * POST /monitors/{id}/stop: the batch being recorded is cut where it is and processed like a last batch
 * (a batch with nothing recorded yet is refunded at once), and the broadcast goes `processing`, then
 * `ended` once its last batch is clipped.
 */
export class BroadcastEnding {
  constructor(
    private readonly d: {
      repo: MonitorsRepository;
      credits: CreditsService;
      queue: JobQueue;
      /** Announces `broadcast.ended` (webhooks). */
      events?: EventPublisher;
    },
  ) {}

  /** Inside the caller's transaction; answers the batch whose job must be sent once it commits. */
  async endInTx(tx: Tx, b: BroadcastRow, reason: string, at: Date): Promise<string | undefined> {
    const batch = await this.d.repo.recordingBatch(b.id, tx);
    let toProcess: string | undefined;
    if (batch && (await this.d.repo.cutBatch(tx, batch.id, at))) {
      if ((batch.chunks as BatchChunk[]).length === 0) {
        await this.d.credits.refund(
          {
            workspaceId: b.workspaceId,
            jobType: CHARGE_TYPE.liveBatch,
            jobId: batchJobId(b.id, batch.index),
            reason: `live batch ${batch.index} of broadcast ${b.id}: nothing recorded`,
          },
          tx,
        );
        await this.d.repo.finishBatch(tx, batch.id, { clipsCount: 0, creditsCharged: 0, errorCode: null }, at);
      } else {
        toProcess = batch.id;
      }
    }
    await this.d.repo.endBroadcast(tx, b.id, 'processing', reason, at);
    return toProcess;
  }

  /** After the commit: the cut batch's job, and `ended` at once when no batch is left to clip. */
  async afterEnd(broadcastId: string, batchId: string | undefined): Promise<void> {
    if (batchId) await sendJob(this.d.queue, { name: 'monitor.batch', payload: { batchId } });
    await this.finishIfDone(broadcastId);
  }

  /** `processing` → `ended` once no batch is left to clip; announces `broadcast.ended` then. */
  async finishIfDone(broadcastId: string): Promise<void> {
    if (!(await this.d.repo.finishBroadcastIfDone(broadcastId))) return;
    const b = await this.d.repo.getBroadcast(broadcastId);
    if (!b) return;
    const data = { id: b.id, monitor_id: b.monitorId, status: 'ended', end_reason: b.endReason };
    await (this.d.events ?? noEvents).publish(b.workspaceId, 'broadcast.ended', data);
  }
}
