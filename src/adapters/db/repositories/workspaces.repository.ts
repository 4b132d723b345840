import { count, eq, inArray } from 'drizzle-orm';
import type { NewWorkspace, WorkspaceChanges, WorkspaceWithPlan, WorkspacesRepository } from '../../../domain/workspaces/workspaces.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { plans, workspaces } from '../schema.js';
import { executor } from '../transactions.js';

/** Workspaces (table `workspaces`; the balance columns change only through the credits repository). */
export class DrizzleWorkspacesRepository implements WorkspacesRepository {
  constructor(private readonly db: Db) {}

  async findWithPlan(id: string): Promise<WorkspaceWithPlan | undefined> {
    const [row] = await this.db
      .select({ workspace: workspaces, plan: plans })
      .from(workspaces)
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(eq(workspaces.id, id));
    return row;
  }

  async count(): Promise<number> {
    const [{ n }] = await this.db.select({ n: count() }).from(workspaces);
    return Number(n);
  }

  async insert(tx: Tx, workspace: NewWorkspace): Promise<void> {
    await executor(this.db, tx).insert(workspaces).values(workspace);
  }

  async update(id: string, changes: WorkspaceChanges): Promise<boolean> {
    const rows = await this.db.update(workspaces).set(changes).where(eq(workspaces.id, id)).returning({ id: workspaces.id });
    return rows.length > 0;
  }

  async existingIds(ids: string[], tx?: Tx): Promise<string[]> {
    const rows = await executor(this.db, tx).select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, ids));
    return rows.map((r) => r.id);
  }
}
