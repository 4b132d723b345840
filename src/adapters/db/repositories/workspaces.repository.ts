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
import { plans, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';
import { CoalescedReads } from '../coalesced-reads.js';

/** Workspaces (table `workspaces`; the balance columns change only through the credits repository). */
export class DrizzleWorkspacesRepository implements WorkspacesRepository {
  /** The balance reads asked for while one runs share the next query (CoalescedReads). */
  private readonly balances: CoalescedReads<string, WorkspaceBalance>;

  /** `sql`: the driver's own query function, for the balance read (findBalance). */
  constructor(
    private readonly db: Db,
    private readonly sql: SqlExecutor,
  ) {
    this.balances = new CoalescedReads((ids) => this.readBalances(ids));
  }

  async findWithPlan(id: string): Promise<WorkspaceWithPlan | undefined> {
    const [row] = await this.db
      .select({ workspace: workspaces, plan: plans })
      .from(workspaces)
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(eq(workspaces.id, id));
    return row;
  }

  /**
   * Every GET /balance runs this. Reads asked for at the same time go out as one query (each request
   * still gets a row read after it arrived: never a held copy), and the query goes to the driver
   * without Drizzle: Drizzle's PGlite session hands its type parsers to every query, which PGlite
   * copies each time; on PGlite the driver runs it as a held prepared statement (pglite-statements.ts).
   * Both drivers return int4 as a number, bool as a boolean and timestamptz as a Date, as the Drizzle
   * schema does (bench/api.bench.ts, docs/benchmarks.md).
   */
  findBalance(id: string): Promise<WorkspaceBalance | undefined> {
    return this.balances.get(id);
  }

  private async readBalances(ids: string[]): Promise<Map<string, WorkspaceBalance>> {
    const { rows } = await this.sql.executeSql(
      'select id, credits, unlimited, unlimited_until as "unlimitedUntil" from workspaces where id = any($1::text[])',
      [ids],
    );
    return new Map(
      rows.map((r: WorkspaceBalance & { id: string }) => [r.id, { credits: r.credits, unlimited: r.unlimited, unlimitedUntil: r.unlimitedUntil }]),
    );
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
