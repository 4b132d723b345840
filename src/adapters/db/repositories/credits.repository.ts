import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { CreditsRepository, LedgerRow, LockedBalance, NewLedgerEntry } from '../../../domain/credits/credits.records.js';
import type { PageRequest } from '../../../domain/pagination.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { ledgerEntries, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Balances and the ledger (tables `workspaces.credits`, `ledger_entries`). */
export class DrizzleCreditsRepository implements CreditsRepository {
  constructor(private readonly db: Db) {}

  async lockBalance(tx: Tx, workspaceId: string): Promise<LockedBalance | undefined> {
    const [ws] = await executor(this.db, tx)
      .select({ id: workspaces.id, credits: workspaces.credits, unlimited: workspaces.unlimited, unlimitedUntil: workspaces.unlimitedUntil })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .for('update');
    return ws;
  }

  async setBalance(tx: Tx, workspaceId: string, credits: number): Promise<void> {
    await executor(this.db, tx).update(workspaces).set({ credits }).where(eq(workspaces.id, workspaceId));
  }

  async findJobEntry(tx: Tx, workspaceId: string, kind: string, jobType: string, jobId: string): Promise<LedgerRow | undefined> {
    const [row] = await executor(this.db, tx)
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.workspaceId, workspaceId), eq(ledgerEntries.kind, kind), eq(ledgerEntries.jobType, jobType), eq(ledgerEntries.jobId, jobId)));
    return row;
  }

  async insertEntry(tx: Tx, entry: NewLedgerEntry): Promise<LedgerRow> {
    const [row] = await executor(this.db, tx).insert(ledgerEntries).values(entry).returning();
    return row;
  }

  async history(workspaceId: string, page: PageRequest): Promise<{ rows: LedgerRow[]; total: number }> {
    const where = eq(ledgerEntries.workspaceId, workspaceId);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(ledgerEntries).where(where).orderBy(desc(ledgerEntries.seq)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(ledgerEntries).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async ledgerSum(workspaceId: string): Promise<number> {
    const [{ total }] = await this.db
      .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where not ${ledgerEntries.waived}), 0)` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.workspaceId, workspaceId));
    return Number(total);
  }
}
