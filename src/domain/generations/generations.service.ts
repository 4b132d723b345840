import { newId } from '../../shared/ids.js';
import type { ImageInspector } from '../../ports/images.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import type { PricedCharges } from '../credits/priced-charge.js';
import { measuredPrice } from '../credits/priced-charge.js';
import { DomainError } from '../errors.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import type { PageRequest } from '../pagination.js';
import type { CredentialsSealer } from '../publishing/connections.records.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import type { GenerationImageRow, GenerationModelRow, GenerationOutput, GenerationRow, GenerationsRepository } from './generations.records.js';
import {
  UPSCALE_MAX_INPUT_PIXELS,
  adminModelView,
  checkAsk,
  embeddedModelRows,
  modelFromPut,
  modelView,
  unitsOf,
  type GenerationStatus,
  type ModelKind,
  type ModelPut,
  type ModelView,
} from './generations.rules.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

/** How long a generation's and an image's `url` stays valid (spec: download URL lifetime, 1 hour). */
export const GENERATION_URL_SECONDS = 3600;

/** The Generation object (docs/generations.md). */
export interface GenerationView {
  id: string;
  model_id: string;
  kind: ModelKind;
  status: GenerationStatus;
  prompt: string | null;
  image_ids: string[];
  options: Record<string, unknown>;
  credits_charged: number;
  error_code: string | null;
  output: { url: string; content_type: string; width: number; height: number; seconds?: number; image_id?: string } | null;
  created_at: string;
  completed_at: string | null;
}

export interface ImageView {
  id: string;
  width: number;
  height: number;
  content_type: 'image/png' | 'image/jpeg' | 'image/webp';
  url: string;
}

export interface GenerationInput {
  model_id: string;
  prompt?: string;
  image_ids?: string[];
  options?: Record<string, unknown>;
  credits: number;
}

export interface GenerationsDeps {
  repo: GenerationsRepository;
  transactions: TransactionRunner;
  storage: Storage;
  priced: PricedCharges;
  queue: JobQueue;
  images: ImageInspector;
  /** Seals provider keys like connection credentials. */
  sealer: CredentialsSealer;
  /** Stores bytes under a storage key (through a local temporary file). */
  putBytes(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Largest reference image accepted (CUTROOM_GENERATION_IMAGE_MAX_BYTES). */
  maxImageBytes: number;
  /** Announces generation.ready and generation.failed (webhooks); none by default. */
  events?: EventPublisher;
}

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4' };

/** Where a generation image's bytes live. */
export function imageKeyOf(workspaceId: string, imageId: string, contentType: string): string {
  return `generations/${workspaceId}/images/${imageId}.${EXT[contentType] ?? 'bin'}`;
}

/** Where a generation's video lives. */
export function videoKeyOf(workspaceId: string, generationId: string): string {
  return `generations/${workspaceId}/videos/${generationId}.mp4`;
}

/**
 * Generations: the model catalog (operator configuration), reference images, priced generations charged
 * at creation (even under free usage) and refunded when they fail. The work is done by GenerationProcessor.
 */
export class GenerationsService {
  constructor(private readonly d: GenerationsDeps) {}

  /** The largest reference image accepted (413 FILE_TOO_LARGE above it). */
  get maxImageBytes(): number {
    return this.d.maxImageBytes;
  }

  // ----- catalog -----

  /** GET /generations/models: the enabled models. */
  async listModels(page: PageRequest): Promise<{ items: ModelView[]; total: number }> {
    const { rows, total } = await this.d.repo.listModels({ enabledOnly: true }, page);
    return { items: rows.map(modelView), total };
  }

  /** An enabled model; 404 MODEL_NOT_FOUND otherwise. */
  async enabledModel(id: string, tx?: Tx): Promise<GenerationModelRow> {
    const m = await this.d.repo.getModel(id, tx);
    if (!m || !m.enabled) throw new DomainError('MODEL_NOT_FOUND');
    return m;
  }

  async adminList(page: PageRequest) {
    const { rows, total } = await this.d.repo.listModels({ enabledOnly: false }, page);
    return { items: rows.map(adminModelView), total };
  }

  async adminGet(id: string) {
    const m = await this.d.repo.getModel(id);
    if (!m) throw new DomainError('MODEL_NOT_FOUND');
    return adminModelView(m);
  }

  /**
   * PUT /admin/v1/generation-models/{id}: creates or replaces the entry. `api_key` is sealed and never
   * answered; left out, the stored key stays; null removes it. Applies to the next POST /generations.
   */
  async adminPut(id: string, body: ModelPut): Promise<{ model: ReturnType<typeof adminModelView>; created: boolean }> {
    const existing = await this.d.repo.getModel(id);
    let sealed = existing?.apiKeySealed ?? null;
    if (body.api_key === null) sealed = null;
    else if (typeof body.api_key === 'string') sealed = await this.d.sealer.seal({ api_key: body.api_key });
    const row = modelFromPut(id, body, sealed);
    const out = await this.d.repo.upsertModel(row);
    return { model: adminModelView(out.row), created: out.created };
  }

  async adminDelete(id: string): Promise<void> {
    if (!(await this.d.repo.deleteModel(id))) throw new DomainError('MODEL_NOT_FOUND');
  }

  /** Inserts the embedded models that are missing (at start; an operator's changes to the others stay). */
  async seedEmbedded(): Promise<void> {
    for (const row of embeddedModelRows()) {
      if (!(await this.d.repo.getModel(row.id))) await this.d.repo.upsertModel(row);
    }
  }

  /** The stored key of a model, opened. */
  async apiKeyOf(m: GenerationModelRow): Promise<string | undefined> {
    if (!m.apiKeySealed) return undefined;
    const c = await this.d.sealer.open(m.apiKeySealed);
    return typeof c.api_key === 'string' ? c.api_key : undefined;
  }

  // ----- images -----

  /**
   * POST /generations/images: a PNG, JPEG or WebP recognised from its bytes (400 UNSUPPORTED_IMAGE
   * otherwise; 413 FILE_TOO_LARGE above the limit), stored, usable in `image_ids`.
   */
  async uploadImage(ctx: WorkspaceWithPlan, bytes: Buffer): Promise<ImageView> {
    if (bytes.length > this.d.maxImageBytes) throw new DomainError('FILE_TOO_LARGE', { max_size: this.d.maxImageBytes });
    const check = await this.d.images.inspect(bytes);
    if (!check.ok) throw new DomainError('UNSUPPORTED_IMAGE', { reason: check.reason, ...(check.maxPixels ? { max_pixels: check.maxPixels } : {}) });
    const id = newId('gim');
    const key = imageKeyOf(ctx.workspace.id, id, check.info.contentType);
    await this.d.putBytes(key, bytes, check.info.contentType);
    try {
      const row = await this.d.repo.insertImage({
        id,
        workspaceId: ctx.workspace.id,
        storageKey: key,
        contentType: check.info.contentType,
        width: check.info.width,
        height: check.info.height,
        size: bytes.length,
        generationId: null,
      });
      return this.imageView(row);
    } catch (err) {
      await this.d.storage.delete(key).catch(() => undefined);
      throw err;
    }
  }

  async imageView(r: GenerationImageRow): Promise<ImageView> {
    return {
      id: r.id,
      width: r.width,
      height: r.height,
      content_type: r.contentType as ImageView['content_type'],
      url: await this.d.storage.presignGet(r.storageKey, { expiresInSeconds: GENERATION_URL_SECONDS, contentType: r.contentType }),
    };
  }

  // ----- generations -----

  /**
   * POST /generations. Checked before anything is charged: the model (404 MODEL_NOT_FOUND), the inputs
   * and options (400 VALIDATION_ERROR), the images (404 IMAGE_NOT_FOUND), the price (409 PRICE_CHANGED
   * with the measured `credits`), the balance (402 INSUFFICIENT_CREDITS, free usage or not).
   */
  async create(ctx: WorkspaceWithPlan, input: GenerationInput): Promise<GenerationView> {
    const ws = ctx.workspace;
    const model = await this.enabledModel(input.model_id);
    const { options, seconds } = checkAsk(model, input);
    const ids = input.image_ids ?? [];
    const found = await this.d.repo.findImages(ws.id, ids);
    if (found.length !== new Set(ids).size) {
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      throw new DomainError('IMAGE_NOT_FOUND', { image_ids: missing });
    }
    if (model.provider === 'embedded' && model.providerModel === 'upscale-x4') {
      const big = found.find((f) => f.width * f.height > UPSCALE_MAX_INPUT_PIXELS);
      if (big)
        throw new DomainError('VALIDATION_ERROR', {
          errors: [{ field: `image_ids.${ids.indexOf(big.id)}`, rule: 'max_pixels' }],
          max_pixels: UPSCALE_MAX_INPUT_PIXELS,
        });
    }
    const { unitPrice, units } = unitsOf(model, seconds);
    const measured = measuredPrice(unitPrice, units, ctx.plan.discountPercent);
    const id = newId('gen');
    const row = await this.d.transactions.run(async (tx) => {
      const charge = await this.d.priced.charge(
        {
          workspaceId: ws.id,
          quoted: input.credits,
          measured,
          reason: model.kind === 'video' ? `generation ${model.id}: ${seconds} s of video` : `generation ${model.id}: 1 image`,
          jobType: CHARGE_TYPE.generation,
          jobId: id,
        },
        tx,
      );
      return this.d.repo.insert(tx, {
        id,
        workspaceId: ws.id,
        modelId: model.id,
        kind: model.kind,
        status: 'queued',
        prompt: input.prompt ?? null,
        imageIds: ids,
        options,
        seconds,
        creditsCharged: charge.charged,
      });
    });
    await enqueueAfterCommit(this.d.queue, { name: 'generation.process', payload: { generationId: row.id } }, (code) => this.fail(row, code));
    return this.view(row);
  }

  async getRow(workspaceId: string, id: string): Promise<GenerationRow> {
    const row = await this.d.repo.findInWorkspace(workspaceId, id);
    if (!row) throw new DomainError('GENERATION_NOT_FOUND');
    return row;
  }

  async get(workspaceId: string, id: string): Promise<GenerationView> {
    return this.view(await this.getRow(workspaceId, id));
  }

  async list(workspaceId: string, page: PageRequest): Promise<{ items: GenerationView[]; total: number }> {
    const { rows, total } = await this.d.repo.list(workspaceId, page);
    return { items: await Promise.all(rows.map((r) => this.view(r))), total };
  }

  async view(r: GenerationRow): Promise<GenerationView> {
    const o = r.status === 'ready' ? (r.output as GenerationOutput | null) : null;
    return {
      id: r.id,
      model_id: r.modelId,
      kind: r.kind as ModelKind,
      status: r.status as GenerationStatus,
      prompt: r.prompt,
      image_ids: r.imageIds,
      options: r.options,
      credits_charged: r.creditsCharged,
      error_code: r.errorCode,
      output: o
        ? {
            url: await this.d.storage.presignGet(o.key, { expiresInSeconds: GENERATION_URL_SECONDS, contentType: o.content_type }),
            content_type: o.content_type,
            width: o.width,
            height: o.height,
            ...(o.seconds !== undefined ? { seconds: o.seconds } : {}),
            ...(o.image_id !== undefined ? { image_id: o.image_id } : {}),
          }
        : null,
      created_at: r.createdAt.toISOString(),
      completed_at: r.completedAt ? r.completedAt.toISOString() : null,
    };
  }

  /** → ready with its output; an image output becomes an image of the workspace in the same transaction. */
  async finishReady(
    r: Pick<GenerationRow, 'id' | 'workspaceId' | 'modelId'>,
    output: Omit<GenerationOutput, 'image_id'>,
    image?: { size: number },
  ): Promise<boolean> {
    return this.d.transactions
      .run(async (tx) => {
        let imageId: string | undefined;
        if (image) {
          imageId = newId('gim');
          await this.d.repo.insertImage(
            {
              id: imageId,
              workspaceId: r.workspaceId,
              storageKey: output.key,
              contentType: output.content_type,
              width: output.width,
              height: output.height,
              size: image.size,
              generationId: r.id,
            },
            tx,
          );
        }
        const stored: GenerationOutput = { ...output, ...(imageId ? { image_id: imageId } : {}) };
        const done = await this.d.repo.finishReady(r.id, stored, tx);
        if (!done) throw new GenerationAlreadyFinished();
        const { key: _key, ...shown } = stored;
        await (this.d.events ?? noEvents).publish(r.workspaceId, 'generation.ready', { id: r.id, model_id: r.modelId, status: 'ready', output: shown }, tx);
        return true;
      })
      .catch((err) => {
        if (err instanceof GenerationAlreadyFinished) return false;
        throw err;
      });
  }

  /** → failed with the code and the charge refunded (once); `credits_charged` becomes 0. */
  async fail(r: Pick<GenerationRow, 'id' | 'workspaceId' | 'modelId'>, errorCode: string): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      if (!(await this.d.repo.finishFailed(r.id, errorCode, tx))) return;
      await this.d.priced.refund({ workspaceId: r.workspaceId, jobType: CHARGE_TYPE.generation, jobId: r.id, reason: `generation failed: ${errorCode}` }, tx);
      await (this.d.events ?? noEvents).publish(
        r.workspaceId,
        'generation.failed',
        { id: r.id, model_id: r.modelId, status: 'failed', error_code: errorCode },
        tx,
      );
    });
  }
}

/** Rolls back a ready transaction whose generation had already finished. */
class GenerationAlreadyFinished extends Error {}
