import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { ConnectionRow, ConnectionsRepository, NewConnection } from '../../../domain/publishing/connections.records.js';
import type { PageRequest } from '../../../domain/pagination.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { connections, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Publishing accounts (table `connections`). */
export class DrizzleConnectionsRepository implements ConnectionsRepository {
  constructor(private readonly db: Db) {}

  async workspaceExists(workspaceId: string): Promise<boolean> {
    const [ws] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
    return !!ws;
  }

  async insert(connection: NewConnection): Promise<ConnectionRow> {
    const [row] = await this.db.insert(connections).values(connection).returning();
    return row;
  }

  async list(workspaceId: string, page: PageRequest): Promise<{ rows: ConnectionRow[]; total: number }> {
    const where = eq(connections.workspaceId, workspaceId);
    const rows = await this.db
      .select()
      .from(connections)
      .where(where)
      .orderBy(desc(connections.createdAt), desc(connections.id))
      .limit(page.limit)
      .offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(connections).where(where);
    return { rows, total: Number(n) };
  }

  async get(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db.select().from(connections).where(eq(connections.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(connections)
      .where(and(eq(connections.id, id), eq(connections.workspaceId, workspaceId)));
    return row;
  }

  findMany(workspaceId: string, ids: readonly string[], tx?: Tx): Promise<ConnectionRow[]> {
    return executor(this.db, tx)
      .select()
      .from(connections)
      .where(and(eq(connections.workspaceId, workspaceId), inArray(connections.id, [...ids])));
  }

  async lock(tx: Tx, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await executor(this.db, tx)
      .select({ id: connections.id })
      .from(connections)
      .where(inArray(connections.id, [...new Set(ids)]))
      .orderBy(asc(connections.id))
      .for('update');
  }

  async revoke(id: string, at: Date): Promise<ConnectionRow> {
    const [row] = await this.db
      .update(connections)
      .set({ status: 'revoked', revokedAt: at, credentialsEncrypted: null })
      .where(eq(connections.id, id))
      .returning();
    return row;
  }

  async replaceCredentials(id: string, sealed: string): Promise<void> {
    await this.db
      .update(connections)
      .set({ credentialsEncrypted: sealed })
      .where(and(eq(connections.id, id), eq(connections.status, 'active')));
  }
}
