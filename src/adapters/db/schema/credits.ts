import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { workspaceId } from './workspaces.js';

/** The credits ledger (balances are on `workspaces.credits`): one row per charge, refund or grant. */

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    waived: boolean('waived').notNull().default(false),
    jobType: text('job_type'),
    jobId: text('job_id'),
    /** Monotonic order inside a workspace (timestamps can tie). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_ws_seq_idx').on(t.workspaceId, t.seq),
    // A job is charged at most once and refunded at most once.
    uniqueIndex('ledger_entries_job_kind_uq').on(t.workspaceId, t.kind, t.jobType, t.jobId),
  ],
);
