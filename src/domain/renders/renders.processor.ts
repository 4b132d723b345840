import fs from 'node:fs/promises';
import path from 'node:path';
import { and, count, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../adapters/db/database.js';
import { edits, plans, renders, workspaces } from '../../adapters/db/schema.js';
import type { Edit } from '../render/edit.js';
import type { Storage } from '../../ports/storage.js';
import {
  ProgressThrottle,
  RENDER_LOST_AFTER_MS,
  RENDER_TIMEOUT_MS,
  UNFINISHED_RENDER_STATES,
  expiryFrom,
  isPermanentRenderFailure,
  renderErrorCode,
  renderStorageKey,
} from './renders.rules.js';

/** Turns an edit into an MP4 on this machine (src/adapters/media/renderer.ts, wired in src/main). */
export interface RenderEngine {
  render(
    edit: Edit,
    io: { inputPath: string; outputPath: string; onProgress: (pct: number) => void; timeoutMs?: number },
  ): Promise<{ sizeBytes: number }>;
}

export interface RenderProcessorDeps {
  db: Db;
  storage: Storage;
  engine: RenderEngine;
  logger: Logger;
  tmpDir: string;
  now?: () => Date;
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

  async process(renderId: string, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
    const [row] = await this.d.db.select().from(renders).where(eq(renders.id, renderId));
    if (!row || !UNFINISHED_RENDER_STATES.includes(row.status as 'queued')) return;
    const [editRow] = await this.d.db.select().from(edits).where(eq(edits.id, row.editId));
    const [ctx] = await this.d.db
      .select({ hours: plans.renderExpiryHours })
      .from(workspaces)
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(eq(workspaces.id, row.workspaceId));
    if (!editRow || !ctx) return void (await this.fail(renderId, 'EDITS_NOT_FOUND'));

    const started = await this.d.db
      .update(renders)
      .set({ status: 'active', progress: 0, startedAt: sql`coalesce(${renders.startedAt}, now())` })
      .where(and(eq(renders.id, renderId), inArray(renders.status, [...UNFINISHED_RENDER_STATES])))
      .returning({ id: renders.id });
    if (started.length === 0) return;

    const edit = { ...(editRow.spec as Edit), watermark: row.hasWatermark } as Edit;
    const key = renderStorageKey(row.workspaceId, row.id);
    const dir = await fs.mkdtemp(path.join(this.d.tmpDir, `render-${row.id}-`));
    const progress = this.progressWriter(renderId);
    try {
      const out = path.join(dir, 'render.mp4');
      const result = await this.d.storage.withLocalFile(edit.source.key, (input) =>
        this.d.engine.render(edit, { inputPath: input, outputPath: out, onProgress: progress.report, timeoutMs: RENDER_TIMEOUT_MS }),
      );
      await progress.settle();
      await this.d.storage.putFile(key, out, 'video/mp4');
      const completedAt = this.now();
      const done = await this.d.db
        .update(renders)
        .set({ status: 'completed', progress: 100, storageKey: key, size: result.sizeBytes, errorCode: null, completedAt, expiresAt: expiryFrom(completedAt, ctx.hours) })
        .where(and(eq(renders.id, renderId), eq(renders.status, 'active')))
        .returning({ id: renders.id });
      // Given up meanwhile (RENDER_LOST): nobody will ever point at this file.
      if (done.length === 0) await this.d.storage.delete(key);
    } catch (err) {
      await progress.settle();
      const code = renderErrorCode(err);
      if (!isPermanentRenderFailure(code) && attempt.retryCount < attempt.retryLimit) {
        this.d.logger.warn({ err, renderId, code, retry: attempt.retryCount + 1 }, 'render failed; retrying');
        throw err;
      }
      this.d.logger.warn({ err, renderId, code }, 'render failed');
      await this.fail(renderId, code);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Deletes the files of completed renders past `expires_at` (a file shared by cache hits only once
   * no unexpired render uses it) and marks those renders `expired`; renders queued or active for
   * longer than a day become `failed` / RENDER_LOST.
   */
  async expire(): Promise<SweepResult> {
    const now = this.now();
    const due = await this.d.db
      .select({ id: renders.id, storageKey: renders.storageKey })
      .from(renders)
      .where(and(eq(renders.status, 'completed'), lte(renders.expiresAt, now)));
    const keys = [...new Set(due.map((r) => r.storageKey).filter((k): k is string => !!k))];
    const kept = new Set<string>();
    let filesDeleted = 0;
    for (const key of keys) {
      const [{ n }] = await this.d.db
        .select({ n: count() })
        .from(renders)
        .where(and(eq(renders.storageKey, key), eq(renders.status, 'completed'), gt(renders.expiresAt, now)));
      if (Number(n) > 0) continue;
      try {
        await this.d.storage.delete(key);
        filesDeleted++;
      } catch (err) {
        // Marked on a later sweep, once the file is really gone.
        this.d.logger.warn({ err, key }, 'could not delete an expired render file');
        kept.add(key);
      }
    }
    const ids = due.filter((r) => !r.storageKey || !kept.has(r.storageKey)).map((r) => r.id);
    let expired = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const done = await this.d.db
        .update(renders)
        .set({ status: 'expired' })
        .where(and(inArray(renders.id, ids.slice(i, i + 500)), eq(renders.status, 'completed')))
        .returning({ id: renders.id });
      expired += done.length;
    }
    const lost = await this.d.db
      .update(renders)
      .set({ status: 'failed', errorCode: 'RENDER_LOST', completedAt: now })
      .where(and(inArray(renders.status, [...UNFINISHED_RENDER_STATES]), lt(renders.createdAt, new Date(now.getTime() - RENDER_LOST_AFTER_MS))))
      .returning({ id: renders.id });
    return { expired, filesDeleted, lost: lost.length };
  }

  private async fail(renderId: string, code: string): Promise<void> {
    await this.d.db
      .update(renders)
      .set({ status: 'failed', errorCode: code, completedAt: this.now() })
      .where(and(eq(renders.id, renderId), inArray(renders.status, [...UNFINISHED_RENDER_STATES])));
  }

  /** Progress from the engine, written in order, throttled (5 points or one second), never after the end. */
  private progressWriter(renderId: string) {
    const throttle = new ProgressThrottle();
    let chain: Promise<void> = Promise.resolve();
    return {
      report: (pct: number) => {
        const p = throttle.next(pct, Date.now());
        if (p === null) return;
        chain = chain
          .then(async () => {
            await this.d.db
              .update(renders)
              .set({ progress: p })
              .where(and(eq(renders.id, renderId), eq(renders.status, 'active'), lt(renders.progress, p)));
          })
          .catch((err) => this.d.logger.warn({ err, renderId }, 'progress update failed'));
      },
      settle: () => chain,
    };
  }
}
