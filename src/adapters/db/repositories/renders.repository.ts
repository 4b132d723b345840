import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type { NewRender, RenderCompletion, RenderRow, RendersRepository } from '../../../domain/renders/renders.records.js';
import { PREVIEW_RESOLUTION, UNFINISHED_RENDER_STATES, type RenderStatus } from '../../../domain/renders/renders.rules.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { plans, renders, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

const unfinished = () => inArray(renders.status, [...UNFINISHED_RENDER_STATES]);

/** Renders (table `renders`), plus the workspace row lock and plan retention the render rules need. */
export class DrizzleRendersRepository implements RendersRepository {
  constructor(private readonly db: Db) {}

  async lockWorkspace(tx: Tx, workspaceId: string): Promise<void> {
    await executor(this.db, tx).select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  }

  async findCacheHit(tx: Tx, workspaceId: string, editHash: string, now: Date): Promise<RenderRow | undefined> {
    const [hit] = await executor(this.db, tx)
      .select()
      .from(renders)
      .where(and(eq(renders.workspaceId, workspaceId), eq(renders.editHash, editHash), eq(renders.status, 'completed'), gt(renders.expiresAt, now)))
      .orderBy(desc(renders.expiresAt))
      .limit(1)
      .for('update');
    return hit;
  }

  async insert(tx: Tx, render: NewRender): Promise<RenderRow> {
    const [row] = await executor(this.db, tx).insert(renders).values(render).returning();
    return row;
  }

  async list(workspaceId: string, filter: { status?: RenderStatus }, page: PageRequest, now: Date): Promise<{ rows: RenderRow[]; total: number }> {
    // A completed render past its expiry shows as `expired` before the sweep marks it.
    const byStatus: Record<RenderStatus, SQL | undefined> = {
      queued: eq(renders.status, 'queued'),
      active: eq(renders.status, 'active'),
      failed: eq(renders.status, 'failed'),
      completed: and(eq(renders.status, 'completed'), or(isNull(renders.expiresAt), gt(renders.expiresAt, now))),
      expired: or(eq(renders.status, 'expired'), and(eq(renders.status, 'completed'), lte(renders.expiresAt, now))),
    };
    const where = and(eq(renders.workspaceId, workspaceId), filter.status ? byStatus[filter.status] : undefined);
    const rows = await this.db.select().from(renders).where(where).orderBy(desc(renders.createdAt), desc(renders.id)).limit(page.limit).offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(renders).where(where);
    return { rows, total: Number(n) };
  }

  async countUnfinished(workspaceId: string, tx?: Tx): Promise<number> {
    const [{ n }] = await executor(this.db, tx)
      .select({ n: count() })
      .from(renders)
      .where(and(eq(renders.workspaceId, workspaceId), unfinished()));
    return Number(n);
  }

  async get(id: string): Promise<RenderRow | undefined> {
    const [row] = await this.db.select().from(renders).where(eq(renders.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<RenderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(renders)
      .where(and(eq(renders.id, id), eq(renders.workspaceId, workspaceId)));
    return row;
  }

  async findReusable(workspaceId: string, editId: string, now: Date): Promise<RenderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(renders)
      .where(
        and(
          eq(renders.workspaceId, workspaceId),
          eq(renders.editId, editId),
          ne(renders.outputResolution, PREVIEW_RESOLUTION),
          eq(renders.status, 'completed'),
          gt(renders.expiresAt, now),
          isNotNull(renders.storageKey),
        ),
      )
      .orderBy(desc(renders.expiresAt))
      .limit(1);
    return row;
  }

  async findUnfinishedOfEdit(workspaceId: string, editId: string): Promise<{ id: string } | undefined> {
    const [row] = await this.db
      .select({ id: renders.id })
      .from(renders)
      .where(and(eq(renders.workspaceId, workspaceId), eq(renders.editId, editId), ne(renders.outputResolution, PREVIEW_RESOLUTION), unfinished()))
      .orderBy(desc(renders.createdAt))
      .limit(1);
    return row;
  }

  async planExpiryHours(workspaceId: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ hours: plans.renderExpiryHours })
      .from(workspaces)
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(eq(workspaces.id, workspaceId));
    return row?.hours;
  }

  async setFailed(id: string, errorCode: string, at: Date): Promise<void> {
    await this.db.update(renders).set({ status: 'failed', errorCode, completedAt: at }).where(eq(renders.id, id));
  }

  async failIfUnfinished(id: string, errorCode: string, at: Date): Promise<boolean> {
    const failed = await this.db
      .update(renders)
      .set({ status: 'failed', errorCode, completedAt: at })
      .where(and(eq(renders.id, id), unfinished()))
      .returning({ id: renders.id });
    return failed.length > 0;
  }

  async start(id: string): Promise<boolean> {
    const started = await this.db
      .update(renders)
      .set({ status: 'active', progress: 0, startedAt: sql`coalesce(${renders.startedAt}, now())` })
      .where(and(eq(renders.id, id), unfinished()))
      .returning({ id: renders.id });
    return started.length > 0;
  }

  async complete(id: string, done: RenderCompletion): Promise<boolean> {
    const rows = await this.db
      .update(renders)
      .set({
        status: 'completed',
        progress: 100,
        storageKey: done.storageKey,
        size: done.size,
        errorCode: null,
        completedAt: done.completedAt,
        expiresAt: done.expiresAt,
      })
      .where(and(eq(renders.id, id), eq(renders.status, 'active')))
      .returning({ id: renders.id });
    return rows.length > 0;
  }

  async raiseProgress(id: string, progress: number): Promise<void> {
    await this.db
      .update(renders)
      .set({ progress })
      .where(and(eq(renders.id, id), eq(renders.status, 'active'), lt(renders.progress, progress)));
  }

  async dueForExpiry(now: Date): Promise<Array<{ id: string; storageKey: string | null }>> {
    return this.db
      .select({ id: renders.id, storageKey: renders.storageKey })
      .from(renders)
      .where(and(eq(renders.status, 'completed'), lte(renders.expiresAt, now)));
  }

  async countUnexpiredUsing(storageKey: string, now: Date): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(renders)
      .where(and(eq(renders.storageKey, storageKey), eq(renders.status, 'completed'), gt(renders.expiresAt, now)));
    return Number(n);
  }

  async markExpired(ids: readonly string[]): Promise<number> {
    let expired = 0;
    // In batches: one statement's parameters stay well below the protocol's limit.
    for (let i = 0; i < ids.length; i += 500) {
      const done = await this.db
        .update(renders)
        .set({ status: 'expired' })
        .where(and(inArray(renders.id, ids.slice(i, i + 500)), eq(renders.status, 'completed')))
        .returning({ id: renders.id });
      expired += done.length;
    }
    return expired;
  }

  async failUnfinishedCreatedBefore(createdBefore: Date, errorCode: string, at: Date): Promise<Array<{ id: string; workspaceId: string; editId: string }>> {
    return this.db
      .update(renders)
      .set({ status: 'failed', errorCode, completedAt: at })
      .where(and(unfinished(), lt(renders.createdAt, createdBefore)))
      .returning({ id: renders.id, workspaceId: renders.workspaceId, editId: renders.editId });
  }
}
