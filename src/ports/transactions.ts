/**
 * Transactions as the domain sees them. A service that must commit several writes together (a
 * charge, its ledger row and the job row; a refund and the status change) asks the runner for a
 * transaction and hands the opaque `Tx` to each repository call. The domain never looks inside it;
 * the database adapter (src/adapters/db/transactions.ts) is the only code that opens one.
 */

declare const txBrand: unique symbol;

/** An open transaction: pass it on to repository methods, nothing else. */
export type Tx = { readonly [txBrand]: true };

export interface TransactionRunner {
  /** Runs `fn` in one transaction: everything done with `tx` commits together, or nothing does. */
  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` once the transaction `tx` (opened by `run`) has committed; never when it rolls back.
   * Errors of `fn` are its own (they are ignored). Answers false, and does nothing, for a `tx` it did
   * not open.
   */
  afterCommit?(tx: Tx, fn: () => Promise<void>): boolean;
}
