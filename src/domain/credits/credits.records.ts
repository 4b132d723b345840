import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';

/** A ledger row: every change of a balance is one (spec: credit rules; balance_after, waived). */
export interface LedgerRow {
  id: string;
  workspaceId: string;
  kind: string;
  reason: string;
  amount: number;
  balanceAfter: number;
  waived: boolean;
  jobType: string | null;
  jobId: string | null;
  seq: number;
  createdAt: Date;
}

export type NewLedgerEntry = Omit<LedgerRow, 'seq' | 'createdAt' | 'jobType' | 'jobId'> & { jobType?: string | null; jobId?: string | null };

/** What a balance change needs of the workspace, read under its row lock. */
export interface LockedBalance {
  id: string;
  credits: number;
  unlimited: boolean;
  unlimitedUntil: Date | null;
}

/** The credits aggregate's storage (src/adapters/db/repositories/credits.repository.ts). */
export interface CreditsRepository {
  /** Reads the workspace's balance with a row lock held until `tx` ends; undefined when there is no such workspace. */
  lockBalance(tx: Tx, workspaceId: string): Promise<LockedBalance | undefined>;
  setBalance(tx: Tx, workspaceId: string, credits: number): Promise<void>;
  /** The one entry of `kind` for a job (charges and refunds are unique per job). */
  findJobEntry(tx: Tx, workspaceId: string, kind: string, jobType: string, jobId: string): Promise<LedgerRow | undefined>;
  insertEntry(tx: Tx, entry: NewLedgerEntry): Promise<LedgerRow>;
  /** The ledger, newest first. */
  history(workspaceId: string, page: PageRequest): Promise<{ rows: LedgerRow[]; total: number }>;
  /** Sum of the real (not waived) amounts. */
  ledgerSum(workspaceId: string): Promise<number>;
}
