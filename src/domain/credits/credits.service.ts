import { newId } from '../../shared/ids.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import { noMetrics, type Metrics } from '../../ports/metrics.js';
import { DomainError } from '../errors.js';
import type { PageRequest } from '../pagination.js';
import type { CreditsRepository, LedgerRow, LockedBalance } from './credits.records.js';
import { isFreeUsageActive } from './credits.rules.js';

export type { LedgerRow } from './credits.records.js';

export interface ChargeInput {
  workspaceId: string;
  /** Credits the job costs (positive). */
  amount: number;
  reason: string;
  jobType: string;
  jobId: string;
  /** Personas and generations consume credits even under free usage (credit rule 6). */
  ignoreFreeUsage?: boolean;
  /** Extra fields of the 402 answer that depend on the caller (`is_reclip`, `scope`, `is_owner`, `top_up_url`). */
  insufficientExtra?: Record<string, unknown>;
}

export interface ChargeResult {
  entryId: string;
  /** Credits actually taken: 0 under free usage. */
  charged: number;
  waived: boolean;
  balanceAfter: number;
}

export interface LedgerEntryView {
  id: string;
  created_at: string;
  kind: string;
  reason: string;
  amount: number;
  balance_after: number;
  waived: boolean;
  job_type: string | null;
  job_id: string | null;
}

export function ledgerEntryView(r: LedgerRow): LedgerEntryView {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    kind: r.kind,
    reason: r.reason,
    amount: r.amount,
    balance_after: r.balanceAfter,
    waived: r.waived,
    job_type: r.jobType,
    job_id: r.jobId,
  };
}

export interface CreditsDeps {
  repo: CreditsRepository;
  tx: TransactionRunner;
  /** Counts the credits taken and given back (when the ledger row is written). */
  metrics?: Metrics;
}

/**
 * The one place balances change. Every change is one ledger row written in the same transaction as
 * the balance, under a row lock on the workspace. Charges and refunds are idempotent per job.
 */
export class CreditsService {
  private readonly metrics: Metrics;

  constructor(private readonly d: CreditsDeps) {
    this.metrics = d.metrics ?? noMetrics;
  }

  private inTx<T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return tx ? fn(tx) : this.d.tx.run(fn);
  }

  private async lockWorkspace(tx: Tx, workspaceId: string): Promise<LockedBalance> {
    const ws = await this.d.repo.lockBalance(tx, workspaceId);
    if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND');
    return ws;
  }

  /** Charges a job. Pass the caller's transaction to create the job and charge it atomically. */
  charge(input: ChargeInput, tx?: Tx): Promise<ChargeResult> {
    if (!Number.isInteger(input.amount) || input.amount < 0) throw new Error('charge amount must be a non-negative integer');
    return this.inTx(tx, async (t) => {
      const ws = await this.lockWorkspace(t, input.workspaceId);
      const existing = await this.d.repo.findJobEntry(t, input.workspaceId, 'charge', input.jobType, input.jobId);
      if (existing) {
        return {
          entryId: existing.id,
          charged: existing.waived ? 0 : -existing.amount,
          waived: existing.waived,
          balanceAfter: existing.balanceAfter,
        };
      }
      const waived = !input.ignoreFreeUsage && isFreeUsageActive(ws);
      if (!waived && ws.credits < input.amount) {
        throw new DomainError('INSUFFICIENT_CREDITS', {
          credits_needed: input.amount,
          current_balance: ws.credits,
          ...input.insufficientExtra,
        });
      }
      const balanceAfter = waived ? ws.credits : ws.credits - input.amount;
      if (!waived) await this.d.repo.setBalance(t, ws.id, balanceAfter);
      const entry = await this.d.repo.insertEntry(t, {
        id: newId('led'),
        workspaceId: ws.id,
        kind: 'charge',
        reason: input.reason,
        amount: -input.amount,
        balanceAfter,
        waived,
        jobType: input.jobType,
        jobId: input.jobId,
      });
      if (!waived) this.metrics.credits({ kind: 'charged', jobType: input.jobType, amount: input.amount });
      return { entryId: entry.id, charged: waived ? 0 : input.amount, waived, balanceAfter };
    });
  }

  /**
   * Gives back what a job was charged; a no-op when it was never charged or already refunded. `amount`
   * gives back only part of the charge (a live batch that ended shorter than it was charged for); a job
   * is still refunded at most once.
   */
  refund(input: { workspaceId: string; jobType: string; jobId: string; reason: string; amount?: number }, tx?: Tx): Promise<LedgerRow | null> {
    if (input.amount !== undefined && (!Number.isInteger(input.amount) || input.amount < 0)) throw new Error('refund amount must be a non-negative integer');
    return this.inTx(tx, async (t) => {
      const ws = await this.lockWorkspace(t, input.workspaceId);
      const charge = await this.d.repo.findJobEntry(t, input.workspaceId, 'charge', input.jobType, input.jobId);
      if (!charge) return null;
      const done = await this.d.repo.findJobEntry(t, input.workspaceId, 'refund', input.jobType, input.jobId);
      if (done) return done;
      const amount = Math.min(-charge.amount, input.amount ?? -charge.amount);
      const balanceAfter = charge.waived ? ws.credits : ws.credits + amount;
      if (!charge.waived) await this.d.repo.setBalance(t, ws.id, balanceAfter);
      const entry = await this.d.repo.insertEntry(t, {
        id: newId('led'),
        workspaceId: ws.id,
        kind: 'refund',
        reason: input.reason,
        amount,
        balanceAfter,
        waived: charge.waived,
        jobType: input.jobType,
        jobId: input.jobId,
      });
      if (!charge.waived) this.metrics.credits({ kind: 'refunded', jobType: input.jobType, amount });
      return entry;
    });
  }

  /** An operator's grant (positive) or debit (negative). A debit never takes the balance below zero. */
  adjust(input: { workspaceId: string; amount: number; reason: string; kind?: string }, tx?: Tx): Promise<LedgerRow> {
    return this.inTx(tx, async (t) => {
      const ws = await this.lockWorkspace(t, input.workspaceId);
      const balanceAfter = ws.credits + input.amount;
      if (balanceAfter < 0) {
        throw new DomainError('INSUFFICIENT_CREDITS', { credits_needed: -input.amount, current_balance: ws.credits });
      }
      // Balances are PostgreSQL integers: refuse a grant past their range instead of failing in the database.
      if (balanceAfter > 2147483647) throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'amount', rule: 'maximum' }] });
      await this.d.repo.setBalance(t, ws.id, balanceAfter);
      return this.d.repo.insertEntry(t, {
        id: newId('led'),
        workspaceId: ws.id,
        kind: input.kind ?? (input.amount >= 0 ? 'grant' : 'debit'),
        reason: input.reason,
        amount: input.amount,
        balanceAfter,
        waived: false,
      });
    });
  }

  /** The ledger, newest first. */
  history(workspaceId: string, page: PageRequest): Promise<{ rows: LedgerRow[]; total: number }> {
    return this.d.repo.history(workspaceId, page);
  }

  /** Sum of the ledger's real (not waived) amounts; equals the balance when the books are right. */
  ledgerSum(workspaceId: string): Promise<number> {
    return this.d.repo.ledgerSum(workspaceId);
  }
}
