import { and, count, desc, eq, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type { BuiltinTemplate, NewTemplate, TemplateRow, TemplatesRepository } from '../../../domain/templates/templates.records.js';
import type { TemplateKind } from '../../../domain/templates/templates.rules.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { templates, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Built-ins and the workspace's own. */
function visibleTo(workspaceId: string): SQL {
  return or(and(isNull(templates.workspaceId), eq(templates.builtin, true)), eq(templates.workspaceId, workspaceId))!;
}

/** Caption templates and clipping strategies (table `templates`). */
export class DrizzleTemplatesRepository implements TemplatesRepository {
  constructor(private readonly db: Db) {}

  async upsertBuiltins(tx: Tx, builtins: readonly BuiltinTemplate[]): Promise<void> {
    await executor(this.db, tx)
      .insert(templates)
      .values(builtins.map((b) => ({ ...b, workspaceId: null, builtin: true })))
      .onConflictDoUpdate({
        target: templates.id,
        set: {
          kind: sql`excluded.kind`,
          name: sql`excluded.name`,
          config: sql`excluded.config`,
          builtin: sql`true`,
          workspaceId: sql`null`,
        },
      });
  }

  async deleteBuiltinsExcept(tx: Tx, keep: readonly string[]): Promise<void> {
    await executor(this.db, tx)
      .delete(templates)
      .where(and(eq(templates.builtin, true), notInArray(templates.id, [...keep])));
  }

  async listVisible(
    workspaceId: string,
    opts: { kind?: TemplateKind; builtinOrder: readonly string[]; page: PageRequest },
  ): Promise<{ rows: TemplateRow[]; total: number }> {
    const where = and(visibleTo(workspaceId), opts.kind ? eq(templates.kind, opts.kind) : undefined);
    const builtinOrder = sql`array_position(ARRAY[${sql.join(
      opts.builtinOrder.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[], ${templates.id})`;
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select()
        .from(templates)
        .where(where)
        .orderBy(desc(templates.builtin), builtinOrder, desc(templates.createdAt), desc(templates.id))
        .limit(opts.page.limit)
        .offset(opts.page.offset),
      this.db.select({ n: count() }).from(templates).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async findVisible(workspaceId: string, id: string, kind: TemplateKind): Promise<TemplateRow | undefined> {
    const [row] = await this.db
      .select()
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.kind, kind), visibleTo(workspaceId)));
    return row;
  }

  async findBuiltin(id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.db
      .select()
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.builtin, true)));
    return row;
  }

  async insert(template: NewTemplate): Promise<TemplateRow> {
    const [row] = await this.db.insert(templates).values(template).returning();
    return row;
  }

  async deleteOwn(workspaceId: string, id: string): Promise<boolean> {
    const gone = await this.db
      .delete(templates)
      .where(and(eq(templates.id, id), eq(templates.workspaceId, workspaceId), eq(templates.builtin, false)))
      .returning({ id: templates.id });
    return gone.length > 0;
  }

  async workspaceExists(workspaceId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
    return row !== undefined;
  }
}
