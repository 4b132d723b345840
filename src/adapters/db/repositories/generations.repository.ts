import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type {
  GenerationImageRow,
  GenerationModelRow,
  GenerationModelWrite,
  GenerationOutput,
  GenerationRow,
  GenerationsRepository,
  NewGeneration,
  NewGenerationImage,
} from '../../../domain/generations/generations.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { generationImages, generationModels, generations } from '../schema/index.js';
import { executor } from '../transactions.js';

/** The generation catalog, images and generations (tables `generation_models`, `generation_images`, `generations`). */
export class DrizzleGenerationsRepository implements GenerationsRepository {
  constructor(private readonly db: Db) {}

  async listModels(opts: { enabledOnly: boolean }, page: PageRequest): Promise<{ rows: GenerationModelRow[]; total: number }> {
    const where = opts.enabledOnly ? eq(generationModels.enabled, true) : undefined;
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(generationModels).where(where).orderBy(asc(generationModels.kind), asc(generationModels.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(generationModels).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async getModel(id: string, tx?: Tx): Promise<GenerationModelRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(generationModels).where(eq(generationModels.id, id));
    return row;
  }

  async upsertModel(row: GenerationModelWrite): Promise<{ row: GenerationModelRow; created: boolean }> {
    const { id: _id, ...fields } = row;
    const [out] = await this.db
      .insert(generationModels)
      .values(row)
      .onConflictDoUpdate({ target: generationModels.id, set: { ...fields, updatedAt: new Date() } })
      .returning();
    return { row: out, created: out.createdAt.getTime() === out.updatedAt.getTime() };
  }

  async deleteModel(id: string): Promise<boolean> {
    const rows = await this.db.delete(generationModels).where(eq(generationModels.id, id)).returning({ id: generationModels.id });
    return rows.length > 0;
  }

  async insertImage(row: NewGenerationImage, tx?: Tx): Promise<GenerationImageRow> {
    const [out] = await executor(this.db, tx).insert(generationImages).values(row).returning();
    return out;
  }

  async findImages(workspaceId: string, ids: string[], tx?: Tx): Promise<GenerationImageRow[]> {
    if (ids.length === 0) return [];
    return executor(this.db, tx)
      .select()
      .from(generationImages)
      .where(and(eq(generationImages.workspaceId, workspaceId), inArray(generationImages.id, ids)));
  }

  async getImage(id: string): Promise<GenerationImageRow | undefined> {
    const [row] = await this.db.select().from(generationImages).where(eq(generationImages.id, id));
    return row;
  }

  async insert(tx: Tx, row: NewGeneration): Promise<GenerationRow> {
    const [out] = await executor(this.db, tx).insert(generations).values(row).returning();
    return out;
  }

  async get(id: string): Promise<GenerationRow | undefined> {
    const [row] = await this.db.select().from(generations).where(eq(generations.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<GenerationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(generations)
      .where(and(eq(generations.id, id), eq(generations.workspaceId, workspaceId)));
    return row;
  }

  async list(workspaceId: string, page: PageRequest): Promise<{ rows: GenerationRow[]; total: number }> {
    const where = eq(generations.workspaceId, workspaceId);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(generations).where(where).orderBy(desc(generations.createdAt), desc(generations.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(generations).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async markProcessing(id: string): Promise<boolean> {
    const rows = await this.db
      .update(generations)
      .set({ status: 'processing', startedAt: new Date() })
      .where(and(eq(generations.id, id), eq(generations.status, 'queued')))
      .returning({ id: generations.id });
    return rows.length > 0;
  }

  async setProviderJob(id: string, providerJobId: string): Promise<void> {
    await this.db.update(generations).set({ providerJobId }).where(eq(generations.id, id));
  }

  async finishReady(id: string, output: GenerationOutput, tx?: Tx): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(generations)
      .set({ status: 'ready', output, errorCode: null, completedAt: new Date() })
      .where(and(eq(generations.id, id), inArray(generations.status, ['queued', 'processing'])))
      .returning({ id: generations.id });
    return rows.length > 0;
  }

  async finishFailed(id: string, errorCode: string, tx?: Tx): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(generations)
      .set({ status: 'failed', errorCode, creditsCharged: 0, completedAt: new Date() })
      .where(and(eq(generations.id, id), inArray(generations.status, ['queued', 'processing'])))
      .returning({ id: generations.id });
    return rows.length > 0;
  }
}
