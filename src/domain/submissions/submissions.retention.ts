import type { Logger } from 'pino';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { ClipsRepository } from '../clips/clips.records.js';
import type { VideosRepository } from '../videos/videos.records.js';
import type { ExpiringSubmission, SubmissionsRepository } from './submissions.records.js';
import { linkSourceKey } from './submission.rules.js';

export interface SubmissionRetentionDeps {
  repo: Pick<SubmissionsRepository, 'dueForExpiry' | 'countUnexpiredOfVideo' | 'markExpired' | 'lockVideo'>;
  clips: Pick<ClipsRepository, 'ofSubmission' | 'clearPreviews'>;
  videos: Pick<VideosRepository, 'get' | 'markUploadExpired'>;
  storage: Pick<Storage, 'delete'>;
  transactions: TransactionRunner;
  logger: Logger;
  now?: () => Date;
  /** Submissions purged per batch (the sweep runs batches until none is due). Default 50. */
  batchSize?: number;
}

export interface RetentionSweep {
  expired: number;
  filesDeleted: number;
}

/**
 * Submission retention (job `submission.expire`): once a finished submission is older than its plan's
 * `submissionRetentionHours`, its clip previews are deleted, its source too when no other unexpired
 * submission of the video needs it, and its stage results are dropped; the submission and its clip
 * routes then answer 410 SUBMISSION_EXPIRED. Edits, renders and the ledger stay: an edit renders while
 * its source exists, a render's file keeps its own expiry (render.expire).
 *
 * Each step can run again: files are deleted before the submission is marked, so a failed deletion
 * leaves it due for the next sweep.
 */
export class SubmissionRetention {
  private readonly now: () => Date;

  constructor(private readonly d: SubmissionRetentionDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async sweep(): Promise<RetentionSweep> {
    const out: RetentionSweep = { expired: 0, filesDeleted: 0 };
    const failed = new Set<string>();
    for (;;) {
      const due = (await this.d.repo.dueForExpiry(this.now(), this.d.batchSize ?? 50)).filter((s) => !failed.has(s.id));
      if (due.length === 0) return out;
      for (const sub of due) {
        try {
          out.filesDeleted += await this.purge(sub);
          out.expired++;
        } catch (err) {
          // Left due: the next sweep tries again.
          failed.add(sub.id);
          this.d.logger.warn({ err, submissionId: sub.id }, 'could not purge an expired submission');
        }
      }
    }
  }

  /** Deletes the submission's files and marks it expired; the number of files deleted. */
  private async purge(sub: ExpiringSubmission): Promise<number> {
    let deleted = 0;
    const previews = (await this.d.clips.ofSubmission(sub.id)).map((c) => c.previewKey).filter((k): k is string => !!k);
    for (const key of previews) {
      await this.d.storage.delete(key);
      deleted++;
    }
    if (previews.length > 0) await this.d.clips.clearPreviews(sub.id);

    const video = await this.d.videos.get(sub.videoId);
    const source = sub.sourceKey ?? (video?.source === 'upload' ? video.storageKey : video ? linkSourceKey(video.workspaceId, video.id) : null);
    // Under the video's row lock, which creating a submission of the video also takes.
    const sourceStillNeeded = await this.d.transactions.run(async (tx) => {
      await this.d.repo.lockVideo(tx, sub.videoId);
      if ((await this.d.repo.countUnexpiredOfVideo(tx, sub.videoId, sub.id)) > 0) return true;
      await this.d.videos.markUploadExpired(tx, sub.videoId, this.now());
      return false;
    });
    if (source && !sourceStillNeeded) {
      await this.d.storage.delete(source);
      deleted++;
    }
    await this.d.repo.markExpired(sub.id, this.now());
    return deleted;
  }
}
