import type { Logger } from 'pino';
import { newId } from '../../shared/ids.js';
import type { CreditsService } from '../credits/credits.service.js';
import { retryOrFail, throwIfLost, type Attempt } from '../jobs/retry.js';
import { errorCodeOf } from '../errors.js';
import type { SubmissionPipeline } from '../submissions/pipeline.js';
import type { SubmissionsRepository } from '../submissions/submissions.records.js';
import type { VideosRepository } from '../videos/videos.records.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import type { LiveRecorder } from '../../ports/channel-watcher.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { BroadcastEnding } from './broadcast-end.js';
import { batchJobId, batchPrice, maxBatchSeconds } from './monitor.rules.js';
import type { BatchChunk, BatchRow, MonitorsRepository } from './monitors.records.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

export interface LiveBatchDeps {
  repo: MonitorsRepository;
  tx: TransactionRunner;
  credits: CreditsService;
  videos: Pick<VideosRepository, 'get' | 'insertUpload' | 'setMeasurements'>;
  submissions: Pick<SubmissionsRepository, 'get' | 'insert'>;
  /** The submission pipeline: transcription, video analysis, highlight picks, clips with their edits and previews. */
  pipeline: Pick<SubmissionPipeline, 'run'>;
  recorder: Pick<LiveRecorder, 'cutBatch'>;
  /** Ends the broadcast once its last batch is settled (and announces it). */
  ending: Pick<BroadcastEnding, 'finishIfDone'>;
  storage: Pick<Storage, 'delete'>;
  workspaces: { get(id: string): Promise<WorkspaceWithPlan> };
  logger: Logger;
  batchSeconds: number;
}

/**
 * The `monitor.batch` job: a recorded batch becomes one MP4 (its chunks joined by stream copy), then an
 * internal submission of that recording (not listed by GET /clips) that the submission pipeline runs
 * like any other; its clips are the batch's. Then the batch is settled (credit rule 5): it was charged in
 * full when it started recording; a shorter batch gets the difference back, a batch without clips
 * everything. Each step is stored, so a retried job resumes; the ledger is unique per batch.
 */
export class LiveBatchProcessor {
  constructor(private readonly d: LiveBatchDeps) {}

  async run(batchId: string, attempt: Attempt): Promise<void> {
    const batch = await this.d.repo.getBatch(batchId);
    if (!batch || batch.status === 'done' || batch.status === 'recording') return;
    let submissionId = batch.submissionId;
    try {
      if (!submissionId) {
        // A lost last run with the submission made: the pipeline below records it on the submission.
        throwIfLost(attempt);
        const chunks = batch.chunks as BatchChunk[];
        if (chunks.length === 0) return await this.settle(batch, 0, null);
        submissionId = await this.prepare(batch, chunks);
      }
    } catch (err) {
      await retryOrFail(err, attempt, {
        fail: async (e) => {
          this.d.logger.warn({ err: e, batchId }, 'live batch could not be cut');
          await this.settle(batch, 0, errorCodeOf(e));
        },
      });
      return;
    }
    // The same stages as a submission; a failure is recorded on the submission (retries as for submissions).
    await this.d.pipeline.run(submissionId, attempt);
    const sub = await this.d.submissions.get(submissionId);
    if (!sub || (sub.status !== 'completed' && sub.status !== 'failed')) return;
    await this.settle(batch, sub.status === 'completed' ? sub.clipsCount : 0, sub.status === 'failed' ? sub.errorCode : null);
  }

  /** The batch's recording as one stored MP4, a video of it and the internal submission that clips it. */
  private async prepare(batch: BatchRow, chunks: BatchChunk[]): Promise<string> {
    const b = (await this.d.repo.getBroadcast(batch.broadcastId))!;
    const m = (await this.d.repo.get(b.monitorId))!;
    const key = `live/${batch.workspaceId}/${b.id}/batch-${batch.index}.mp4`;
    const measured = await this.d.recorder.cutBatch(
      chunks.map((c) => c.key),
      key,
    );
    const videoId = `vid_${batch.id}`;
    if (!(await this.d.videos.get(videoId))) {
      await this.d.videos.insertUpload({
        id: videoId,
        workspaceId: batch.workspaceId,
        source: 'live',
        status: 'ready',
        platform: m.platform,
        title: `${b.title} (batch ${batch.index + 1})`,
        author: m.name,
        storageKey: key,
        fileName: `batch-${batch.index}.mp4`,
        fileSize: null,
        contentType: 'video/mp4',
        uploadId: null,
      });
    }
    await this.d.videos.setMeasurements(videoId, measured, new Date());
    const id = newId('sub');
    await this.d.tx.run(async (tx) => {
      const cur = await this.d.repo.getBatch(batch.id, tx);
      if (cur?.submissionId) return;
      await this.d.submissions.insert(tx, {
        id,
        workspaceId: batch.workspaceId,
        videoId,
        status: 'queued',
        timeframeStart: 0,
        // Never more than a batch may hold (its chunks were measured within it; joined, they cannot grow past it).
        timeframeEnd: Math.min(measured.duration, maxBatchSeconds(this.d.batchSeconds)),
        strategyId: m.strategyId,
        templateId: m.templateId,
        sourceLanguage: m.sourceLanguage,
        creditsCharged: 0,
        monitorId: m.id,
        liveBatch: true,
        steering: m.steering ?? null,
      });
      await this.d.repo.setBatchSubmission(tx, batch.id, id);
    });
    return (await this.d.repo.getBatch(batch.id))!.submissionId!;
  }

  /**
   * Credit rule 5: the batch keeps the price of what was recorded (1 credit per started minute, the plan's
   * discount) when it produced clips; a shorter batch gets the difference back, one without clips all of
   * it. Under free usage the rows are waived. Once per batch (the ledger is unique per job and kind).
   * What was recorded is `batch.seconds`: the sum of its chunks' measured seconds, never the playlist's
   * `#EXTINF` (a chunk refused as a lie or over the caps was never added).
   */
  private async settle(batch: BatchRow, clips: number, errorCode: string | null): Promise<void> {
    const b = (await this.d.repo.getBroadcast(batch.broadcastId))!;
    const { plan } = await this.d.workspaces.get(batch.workspaceId);
    const jobId = batchJobId(b.id, batch.index);
    const full = batchPrice(this.d.batchSeconds, plan.discountPercent);
    const price = Math.min(full, batchPrice(batch.seconds, plan.discountPercent));
    await this.d.tx.run(async (tx) => {
      let net = batch.creditsCharged;
      if (clips === 0) {
        await this.d.credits.refund(
          { workspaceId: batch.workspaceId, jobType: CHARGE_TYPE.liveBatch, jobId, reason: `live batch ${batch.index} of broadcast ${b.id}: no clips` },
          tx,
        );
        net = 0;
      } else if (price < full) {
        const refund = await this.d.credits.refund(
          {
            workspaceId: batch.workspaceId,
            jobType: CHARGE_TYPE.liveBatch,
            jobId,
            reason: `live batch ${batch.index} of broadcast ${b.id}: ${Math.round(batch.seconds)} s recorded`,
            amount: full - price,
          },
          tx,
        );
        net = batch.creditsCharged - (refund && !refund.waived ? refund.amount : 0);
      }
      await this.d.repo.finishBatch(tx, batch.id, { clipsCount: clips, creditsCharged: Math.max(0, net), errorCode }, new Date());
    });
    // The chunks are no longer needed: the batch's MP4 is the recording now.
    for (const c of batch.chunks as BatchChunk[]) await this.d.storage.delete(c.key).catch(() => undefined);
    await this.d.ending.finishIfDone(b.id);
  }
}
