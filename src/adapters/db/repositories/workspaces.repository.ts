import { count, eq, inArray } from 'drizzle-orm';
import type {
  NewWorkspace,
  WorkspaceBalance,
  WorkspaceChanges,
  WorkspaceWithPlan,
  WorkspacesRepository,
} from '../../../domain/workspaces/workspaces.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db, SqlExecutor } from '../database.js';
import { plans, workspaces } from '../schema.js';
import { executor } from '../transactions.js';

/** Workspaces (table `workspaces`; the balance columns change only through the credits repository). */
export class DrizzleWorkspacesRepository implements WorkspacesRepository {
  /** `sql`: the driver's own query function, for the balance read (findBalance). */
  constructor(
    private readonly db: Db,
    private readonly sql: SqlExecutor,
  ) {}

  async findWithPlan(id: string): Promise<WorkspaceWithPlan | undefined> {
    const [row] = await this.db
      .select({ workspace: workspaces, plan: plans })
      .from(workspaces)
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(eq(workspaces.id, id));
    return row;
  }

  /**
   * Every GET /balance runs this, so it goes to the driver without Drizzle: Drizzle's PGlite session
   * hands its type parsers to every query, which PGlite copies each time; the embedded service
   * answered GET /balance 1.5 to 2.5 times as fast without it (bench/api.bench.ts). Both drivers
   * return int4 as a number, bool as a boolean and timestamptz as a Date, as the Drizzle schema does.
   */
  async findBalance(id: string): Promise<WorkspaceBalance | undefined> {
    const { rows } = await this.sql.executeSql('select credits, unlimited, unlimited_until as "unlimitedUntil" from workspaces where id = $1', [id]);
    return rows[0] as WorkspaceBalance | undefined;
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
