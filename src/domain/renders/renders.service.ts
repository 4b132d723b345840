import { newId } from '../../shared/ids.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import type { PageRequest } from '../pagination.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import { editHash, type Edit } from '../edits/edit.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { ClipEdits, EditsReader, RenderableEdit, RenderRow, RendersRepository } from './renders.records.js';
import {
  DOWNLOAD_URL_SECONDS,
  RENDER_RETRY_AFTER_SECONDS,
  effectiveStatus,
  PREVIEW_RESOLUTION,
  expiryFrom,
  renderCacheKey,
  renderFileName,
  renderQuality,
  type RenderQuality,
  type RenderStatus,
} from './renders.rules.js';

export type { RenderRow } from './renders.records.js';

/** The spec's Render object, plus `error_code`, `created_at` and `expires_at` (docs/api-decisions.md). */
export interface RenderView {
  id: string;
  edit_id: string;
  status: RenderStatus;
  progress: number;
  output_resolution: string;
  /** `final` or `preview` (Cutroom's addition, docs/api-decisions.md). */
  quality: RenderQuality;
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

export interface RendersDeps {
  repo: RendersRepository;
  edits: EditsReader;
  tx: TransactionRunner;
  queue: JobQueue;
  /** Signs download URLs. */
  storage: Pick<Storage, 'presignGet'>;
  clipEdits: ClipEdits;
  now?: () => Date;
}

/**
 * Renders of edits: the cache (an identical, unexpired file in the workspace is reused at once), the
 * simultaneous-render allowance, the Render object, downloads and limits. The work itself is done
 * by RenderProcessor (job `render.process`).
 */
export class RendersService {
  private readonly now: () => Date;

  constructor(private readonly d: RendersDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** POST /clips/{videoId}/submissions/{submissionId}/clips/{clipId}/render: the clip's current edit. */
  async renderClip(ctx: WorkspaceWithPlan, videoId: string, submissionId: string, clipId: string): Promise<RenderStart> {
    const edit = await this.d.clipEdits.currentEdit(ctx.workspace.id, videoId, submissionId, clipId);
    return this.start(ctx, edit);
  }

  /**
   * POST /renders { edit_id, quality? }: any edit of the workspace, however old; `preview` renders it
   * at 360 px on the short side, fast, cached apart from the final file.
   */
  async renderEdit(ctx: WorkspaceWithPlan, editId: string, quality: RenderQuality = 'final'): Promise<RenderStart> {
    const edit = await this.d.edits.findEdit(ctx.workspace.id, editId);
    if (!edit) throw new DomainError('EDITS_NOT_FOUND', { invalid_edits: [editId] });
    return this.start(ctx, edit, quality);
  }

  private async start(ctx: WorkspaceWithPlan, edit: RenderableEdit, quality: RenderQuality = 'final'): Promise<RenderStart> {
    const ws = ctx.workspace.id;
    const spec = edit.spec as Edit;
    const watermark = spec.watermark === true || ctx.plan.forceWatermark;
    // The file depends on the watermark the plan forces, so the cache key does too; and on the quality.
    const hash = renderCacheKey(watermark === spec.watermark ? edit.hash : editHash({ ...spec, watermark }), quality);
    const outputResolution = quality === 'preview' ? PREVIEW_RESOLUTION : spec.resolution;
    const id = newId('rnd');
    const outcome = await this.d.tx.run(async (tx) => {
      // Serialises render requests of a workspace: the allowance check and the insert are one step.
      await this.d.repo.lockWorkspace(tx, ws);
      const now = this.now();
      const hit = await this.d.repo.findCacheHit(tx, ws, hash, now);
      if (hit) {
        const row = await this.d.repo.insert(tx, {
          id,
          workspaceId: ws,
          editId: edit.id,
          editHash: hash,
          status: 'completed',
          progress: 100,
          outputResolution,
          hasWatermark: watermark,
          fromCache: true,
          storageKey: hit.storageKey,
          size: hit.size,
          startedAt: now,
          completedAt: now,
          expiresAt: expiryFrom(now, ctx.plan.renderExpiryHours),
        });
        return { fromCache: true, row };
      }
      if ((await this.d.repo.countUnfinished(ws, tx)) >= ctx.plan.maxConcurrentRenders) {
        throw new DomainError(
          'RATE_LIMIT_EXCEEDED',
          { retry_after: RENDER_RETRY_AFTER_SECONDS, max_concurrent_renders: ctx.plan.maxConcurrentRenders },
          { 'Retry-After': String(RENDER_RETRY_AFTER_SECONDS) },
        );
      }
      const row = await this.d.repo.insert(tx, {
        id,
        workspaceId: ws,
        editId: edit.id,
        editHash: hash,
        status: 'queued',
        outputResolution,
        hasWatermark: watermark,
      });
      return { fromCache: false, row };
    });
    if (!outcome.fromCache) {
      await enqueueAfterCommit(this.d.queue, { name: 'render.process', payload: { renderId: id } }, (code) => this.d.repo.setFailed(id, code, this.now()));
    }
    return { fromCache: outcome.fromCache, render: await this.view(outcome.row, await this.d.edits.titleOfEdit(edit.id)) };
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

  /** GET /renders: the workspace's renders, newest first, optionally of one status. */
  async list(workspaceId: string, status: RenderStatus | undefined, page: PageRequest): Promise<{ items: RenderView[]; total: number }> {
    const { rows, total } = await this.d.repo.list(workspaceId, { status }, page, this.now());
    return { items: await Promise.all(rows.map((r) => this.view(r))), total };
  }

  /** GET /renders/limits. */
  async limits(ctx: WorkspaceWithPlan): Promise<RenderLimits> {
    return {
      render_expiry_hours: ctx.plan.renderExpiryHours,
      max_concurrent_renders: ctx.plan.maxConcurrentRenders,
      active_renders: await this.d.repo.countUnfinished(ctx.workspace.id),
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
      quality: renderQuality(row),
      has_watermark: row.hasWatermark,
      from_cache: row.fromCache,
      download_url: status === 'completed' && row.storageKey ? await this.sign(row.storageKey, renderFileName(title, row.id)) : null,
      error_code: row.errorCode,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
    };
  }

  private sign(key: string, filename: string): Promise<string> {
    return this.d.storage.presignGet(key, { expiresInSeconds: DOWNLOAD_URL_SECONDS, contentType: 'video/mp4', downloadFilename: filename });
  }

  private async load(workspaceId: string, id: string): Promise<{ row: RenderRow; title: string | null }> {
    const row = await this.d.repo.findInWorkspace(workspaceId, id);
    if (!row) throw new DomainError('RENDER_NOT_FOUND');
    return { row, title: await this.d.edits.titleOfEdit(row.editId) };
  }
}
