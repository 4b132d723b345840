import { and, count, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { clips, edits, renders, workspaces } from '../../adapters/db/schema.js';
import { newId } from '../../shared/ids.js';
import { DomainError } from '../errors.js';
import { editHash, type Edit } from '../render/edit.js';
import type { ClipEditsService, EditRow } from '../clips/clip-edits.service.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import {
  DOWNLOAD_URL_SECONDS,
  RENDER_JOB_OPTIONS,
  RENDER_RETRY_AFTER_SECONDS,
  UNFINISHED_RENDER_STATES,
  effectiveStatus,
  expiryFrom,
  renderFileName,
  type RenderStatus,
} from './renders.rules.js';

export type RenderRow = typeof renders.$inferSelect;

/** The spec's Render object, plus `error_code`, `created_at` and `expires_at` (docs/api-decisions.md). */
export interface RenderView {
  id: string;
  edit_id: string;
  status: RenderStatus;
  progress: number;
  output_resolution: string;
  has_watermark: boolean;
  from_cache: boolean;
  download_url: string | null;
  error_code: string | null;
  created_at: string;
  expires_at: string | null;
}

export interface RenderLimits {
  render_expiry_hours: number;
  max_concurrent_renders: number;
  active_renders: number;
}

/** A render request's answer: 200 with the cached file, or 202 queued. */
export interface RenderStart {
  fromCache: boolean;
  render: RenderView;
}

/**
 * Renders of edits: the cache (an identical, unexpired file in the workspace is reused at once), the
 * simultaneous-render allowance, the Render object, downloads and limits. The work itself is done
 * by RenderProcessor (job `render.process`).
 */
export class RendersService {
  constructor(
    private readonly db: Db,
    private readonly queue: JobQueue,
    private readonly storage: Storage,
    private readonly clipEdits: ClipEditsService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST /clips/{videoId}/submissions/{submissionId}/clips/{clipId}/render: the clip's current edit. */
  async renderClip(ctx: WorkspaceWithPlan, videoId: string, submissionId: string, clipId: string): Promise<RenderStart> {
    const edit = await this.clipEdits.currentEdit(ctx.workspace.id, videoId, submissionId, clipId);
    return this.start(ctx, edit);
  }

  /** POST /renders { edit_id }: any edit of the workspace, however old. */
  async renderEdit(ctx: WorkspaceWithPlan, editId: string): Promise<RenderStart> {
    const [edit] = await this.db
      .select()
      .from(edits)
      .where(and(eq(edits.id, editId), eq(edits.workspaceId, ctx.workspace.id)));
    if (!edit) throw new DomainError('EDITS_NOT_FOUND', { invalid_edits: [editId] });
    return this.start(ctx, edit);
  }

  private async start(ctx: WorkspaceWithPlan, edit: EditRow): Promise<RenderStart> {
    const ws = ctx.workspace.id;
    const spec = edit.spec as Edit;
    const watermark = spec.watermark === true || ctx.plan.forceWatermark;
    // The file depends on the watermark the plan forces, so the cache key does too.
    const hash = watermark === spec.watermark ? edit.hash : editHash({ ...spec, watermark });
    const id = newId('rnd');
    const outcome = await this.db.transaction(async (tx) => {
      // Serialises render requests of a workspace: the allowance check and the insert are one step.
      await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, ws)).for('update');
      const now = this.now();
      const [hit] = await tx
        .select()
        .from(renders)
        .where(and(eq(renders.workspaceId, ws), eq(renders.editHash, hash), eq(renders.status, 'completed'), gt(renders.expiresAt, now)))
        .orderBy(desc(renders.expiresAt))
        .limit(1)
        .for('update');
      if (hit) {
        const [row] = await tx
          .insert(renders)
          .values({
            id,
            workspaceId: ws,
            editId: edit.id,
            editHash: hash,
            status: 'completed',
            progress: 100,
            outputResolution: spec.resolution,
            hasWatermark: watermark,
            fromCache: true,
            storageKey: hit.storageKey,
            size: hit.size,
            startedAt: now,
            completedAt: now,
            expiresAt: expiryFrom(now, ctx.plan.renderExpiryHours),
          })
          .returning();
        return { fromCache: true, row };
      }
      const [{ n }] = await tx
        .select({ n: count() })
        .from(renders)
        .where(and(eq(renders.workspaceId, ws), inArray(renders.status, [...UNFINISHED_RENDER_STATES])));
      if (Number(n) >= ctx.plan.maxConcurrentRenders) {
        throw new DomainError(
          'RATE_LIMIT_EXCEEDED',
          { retry_after: RENDER_RETRY_AFTER_SECONDS, max_concurrent_renders: ctx.plan.maxConcurrentRenders },
          { 'Retry-After': String(RENDER_RETRY_AFTER_SECONDS) },
        );
      }
      const [row] = await tx
        .insert(renders)
        .values({ id, workspaceId: ws, editId: edit.id, editHash: hash, status: 'queued', outputResolution: spec.resolution, hasWatermark: watermark })
        .returning();
      return { fromCache: false, row };
    });
    if (!outcome.fromCache) {
      try {
        await this.queue.send('render.process', { renderId: id }, { ...RENDER_JOB_OPTIONS, singletonKey: `render:${id}` });
      } catch (err) {
        await this.db
          .update(renders)
          .set({ status: 'failed', errorCode: 'QUEUE_UNAVAILABLE', completedAt: this.now() })
          .where(eq(renders.id, id));
        throw err;
      }
    }
    return { fromCache: outcome.fromCache, render: await this.view(outcome.row, await this.titleOfEdit(edit)) };
  }

  /** GET /renders/{renderId}; 404 RENDER_NOT_FOUND outside the workspace. */
  async get(workspaceId: string, id: string): Promise<RenderView> {
    const { row, title } = await this.load(workspaceId, id);
    return this.view(row, title);
  }

  /**
   * GET /renders/{renderId}/download: `{ url, filename }`, signed for one hour. 404 RENDER_NOT_FOUND;
   * 410 RENDER_FILE_EXPIRED once the retention passed; 409 RENDER_NOT_READY while queued or active;
   * 409 RENDER_FAILED for a failed render.
   */
  async download(workspaceId: string, id: string): Promise<{ url: string; filename: string }> {
    const { row, title } = await this.load(workspaceId, id);
    const status = effectiveStatus(row, this.now());
    if (status === 'expired') throw new DomainError('RENDER_FILE_EXPIRED');
    if (status === 'failed') throw new DomainError('RENDER_FAILED', { error_code: row.errorCode });
    if (status !== 'completed' || !row.storageKey) throw new DomainError('RENDER_NOT_READY', { status, progress: row.progress });
    const filename = renderFileName(title, row.id);
    return { url: await this.sign(row.storageKey, filename), filename };
  }

  /** GET /renders/limits. */
  async limits(ctx: WorkspaceWithPlan): Promise<RenderLimits> {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(renders)
      .where(and(eq(renders.workspaceId, ctx.workspace.id), inArray(renders.status, [...UNFINISHED_RENDER_STATES])));
    return {
      render_expiry_hours: ctx.plan.renderExpiryHours,
      max_concurrent_renders: ctx.plan.maxConcurrentRenders,
      active_renders: Number(n),
    };
  }

  /** The Render object; `download_url` is filled (signed for one hour) whenever the file can be downloaded. */
  async view(row: RenderRow, title?: string | null): Promise<RenderView> {
    const status = effectiveStatus(row, this.now());
    return {
      id: row.id,
      edit_id: row.editId,
      status,
      progress: row.progress,
      output_resolution: row.outputResolution,
      has_watermark: row.hasWatermark,
      from_cache: row.fromCache,
      download_url: status === 'completed' && row.storageKey ? await this.sign(row.storageKey, renderFileName(title, row.id)) : null,
      error_code: row.errorCode,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
    };
  }

  private sign(key: string, filename: string): Promise<string> {
    return this.storage.presignGet(key, { expiresInSeconds: DOWNLOAD_URL_SECONDS, contentType: 'video/mp4', downloadFilename: filename });
  }

  private async load(workspaceId: string, id: string): Promise<{ row: RenderRow; title: string | null }> {
    const [found] = await this.db
      .select({ row: renders, title: clips.title })
      .from(renders)
      .leftJoin(edits, eq(edits.id, renders.editId))
      .leftJoin(clips, eq(clips.id, edits.clipId))
      .where(and(eq(renders.id, id), eq(renders.workspaceId, workspaceId)));
    if (!found) throw new DomainError('RENDER_NOT_FOUND');
    return found;
  }

  private async titleOfEdit(edit: EditRow): Promise<string | null> {
    if (!edit.clipId) return null;
    const [clip] = await this.db.select({ title: clips.title }).from(clips).where(eq(clips.id, edit.clipId));
    return clip?.title ?? null;
  }
}
