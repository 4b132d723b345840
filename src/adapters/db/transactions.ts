import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import type { Db, Executor } from './database.js';

// What to run after each open transaction commits (afterCommit), keyed by its Drizzle transaction.
const pending = new WeakMap<object, Array<() => Promise<void>>>();

/** The one way a transaction is opened: Drizzle's, handed to the domain as an opaque `Tx`. */
export function createTransactionRunner(db: Db): TransactionRunner {
  return {
    async run(fn) {
      const hooks: Array<() => Promise<void>> = [];
      const result = await db.transaction((t) => {
        pending.set(t, hooks);
        return fn(t as unknown as Tx);
      });
      for (const hook of hooks) await hook().catch(() => undefined);
      return result;
    },
    afterCommit(tx, fn) {
      const hooks = pending.get(tx as unknown as object);
      if (!hooks) return false;
      hooks.push(fn);
      return true;
    },
  };
}

/** What a repository runs a query on: the caller's open transaction, else the database. */
export function executor(db: Db, tx?: Tx): Executor {
  return tx ? (tx as unknown as Executor) : db;
}
