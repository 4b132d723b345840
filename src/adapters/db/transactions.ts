import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import type { Db, Executor } from './database.js';

/** The one way a transaction is opened: Drizzle's, handed to the domain as an opaque `Tx`. */
export function createTransactionRunner(db: Db): TransactionRunner {
  return { run: (fn) => db.transaction((t) => fn(t as unknown as Tx)) };
}

/** What a repository runs a query on: the caller's open transaction, else the database. */
export function executor(db: Db, tx?: Tx): Executor {
  return tx ? (tx as unknown as Executor) : db;
}
