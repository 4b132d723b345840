import path from 'node:path';
import type { Logger } from 'pino';
import type { LocalFiles } from '../../ports/local-files.js';
import type { Storage } from '../../ports/storage.js';
import { retryOrFail, type Attempt } from '../jobs/retry.js';
import type { Edit } from '../edits/edit.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import type { EditsReader, RendersRepository } from './renders.records.js';
import {
  ProgressThrottle,
  RENDER_LOST_AFTER_MS,
  RENDER_TIMEOUT_MS,
  UNFINISHED_RENDER_STATES,
  expiryFrom,
  isPermanentRenderFailure,
  renderErrorCode,
  renderQuality,
  renderStorageKey,
  type RenderQuality,
} from './renders.rules.js';

/** Turns an edit into an MP4 on this machine (src/adapters/media/renderer.ts, wired in src/main). */
export interface RenderEngine {
  render(
    edit: Edit,
    io: { inputPath: string; outputPath: string; onProgress: (pct: number) => void; timeoutMs?: number; quality?: RenderQuality },
  ): Promise<{ sizeBytes: number }>;
}

export interface RenderProcessorDeps {
  repo: RendersRepository;
  edits: EditsReader;
  storage: Storage;
  /** The render's private temporary folder. */
  files: LocalFiles;
  engine: RenderEngine;
  logger: Logger;
  now?: () => Date;
  /** Announces `render.completed` and `render.failed` (webhooks). */
  events?: EventPublisher;
}

export interface SweepResult {
  expired: number;
  filesDeleted: number;
  lost: number;
}

/**
 * The work behind renders. `process` (job `render.process`) takes a render from queued through active
 * to completed or failed; `expire` (job `render.expire`, every minute) deletes files past their
 * retention and gives up renders that were lost.
 *
 * Idempotent: the file is rendered into a private temporary folder and becomes visible only through
 * the final `putFile` under the render's own key, followed by the `completed` update; a retried job
 * renders again from scratch; a render that is no longer queued or active is left alone.
 */
export class RenderProcessor {
  private readonly now: () => Date;

  constructor(private readonly d: RenderProcessorDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async process(renderId: string, attempt: Attempt): Promise<void> {
    const row = await this.d.repo.get(renderId);
    if (!row || !UNFINISHED_RENDER_STATES.includes(row.status as 'queued')) return;
    // The queue's call for a lost last run (src/domain/jobs/retry.ts): given up as the sweeper would.
    if (attempt.lost) return void (await this.fail(row, 'RENDER_LOST'));
    const editRow = await this.d.edits.findEdit(row.workspaceId, row.editId);
    const hours = await this.d.repo.planExpiryHours(row.workspaceId);
    if (!editRow || hours === undefined) return void (await this.fail(row, 'EDITS_NOT_FOUND'));

    if (!(await this.d.repo.start(renderId))) return;

    const edit = { ...(editRow.spec as Edit), watermark: row.hasWatermark } as Edit;
    const key = renderStorageKey(row.workspaceId, row.id);
    await this.d.files.withTempDir(`render-${row.id}-`, async (dir) => {
      const progress = this.progressWriter(renderId);
      try {
        const out = path.join(dir, 'render.mp4');
        const result = await this.d.storage.withLocalFile(edit.source.key, (input) =>
          this.d.engine.render(edit, {
            inputPath: input,
            outputPath: out,
            onProgress: progress.report,
            timeoutMs: RENDER_TIMEOUT_MS,
            quality: renderQuality(row),
          }),
        );
        await progress.settle();
        await this.d.storage.putFile(key, out, 'video/mp4');
        const completedAt = this.now();
        const done = await this.d.repo.complete(renderId, { storageKey: key, size: result.sizeBytes, completedAt, expiresAt: expiryFrom(completedAt, hours) });
        // Given up meanwhile (RENDER_LOST): nobody will ever point at this file.
        if (!done) await this.d.storage.delete(key);
        else await this.events.publish(row.workspaceId, 'render.completed', { id: row.id, edit_id: row.editId, status: 'completed' });
      } catch (err) {
        await progress.settle();
        const code = renderErrorCode(err);
        await retryOrFail(err, attempt, {
          retryable: () => !isPermanentRenderFailure(code),
          onRetry: () => this.d.logger.warn({ err, renderId, code, retry: attempt.retryCount + 1 }, 'render failed; retrying'),
          fail: async () => {
            this.d.logger.warn({ err, renderId, code }, 'render failed');
            await this.fail(row, code);
          },
        });
      }
    });
  }

  /**
   * Deletes the files of completed renders past `expires_at` (a file shared by cache hits only once
   * no unexpired render uses it) and marks those renders `expired`; renders queued or active for
   * longer than a day become `failed` / RENDER_LOST.
   */
  async expire(): Promise<SweepResult> {
    const now = this.now();
    const due = await this.d.repo.dueForExpiry(now);
    const keys = [...new Set(due.map((r) => r.storageKey).filter((k): k is string => !!k))];
    const kept = new Set<string>();
    let filesDeleted = 0;
    for (const key of keys) {
      if ((await this.d.repo.countUnexpiredUsing(key, now)) > 0) continue;
      try {
        await this.d.storage.delete(key);
        filesDeleted++;
      } catch (err) {
        // Marked on a later sweep, once the file is really gone.
        this.d.logger.warn({ err, key }, 'could not delete an expired render file');
        kept.add(key);
      }
    }
    const expired = await this.d.repo.markExpired(due.filter((r) => !r.storageKey || !kept.has(r.storageKey)).map((r) => r.id));
    const lost = await this.d.repo.failUnfinishedCreatedBefore(new Date(now.getTime() - RENDER_LOST_AFTER_MS), 'RENDER_LOST', now);
    for (const r of lost) await this.announceFailure(r, 'RENDER_LOST');
    return { expired, filesDeleted, lost: lost.length };
  }

  private get events(): EventPublisher {
    return this.d.events ?? noEvents;
  }

  /** Fails a queued or active render and announces it once (a render already ended is left alone). */
  private async fail(row: { id: string; workspaceId: string; editId: string }, code: string): Promise<void> {
    if (await this.d.repo.failIfUnfinished(row.id, code, this.now())) await this.announceFailure(row, code);
  }

  /** `render.failed`, after the failure is stored (like `render.completed`); a lost announcement is logged, never thrown. */
  private async announceFailure(row: { id: string; workspaceId: string; editId: string }, code: string): Promise<void> {
    try {
      await this.events.publish(row.workspaceId, 'render.failed', { id: row.id, edit_id: row.editId, status: 'failed', error_code: code });
    } catch (err) {
      this.d.logger.warn({ err, renderId: row.id }, 'render.failed could not be announced');
    }
  }

  /** Progress from the engine, written in order, throttled (5 points or one second), never after the end. */
  private progressWriter(renderId: string) {
    const throttle = new ProgressThrottle();
    let chain: Promise<void> = Promise.resolve();
    return {
      report: (pct: number) => {
        const p = throttle.next(pct, Date.now());
        if (p === null) return;
        chain = chain.then(() => this.d.repo.raiseProgress(renderId, p)).catch((err) => this.d.logger.warn({ err, renderId }, 'progress update failed'));
      },
      settle: () => chain,
    };
  }
}
