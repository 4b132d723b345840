/**
 * A change of what authentication caches (src/domain/auth/auth-cache.ts): a key revoked, a
 * workspace's plan or free usage changed, a plan's limits changed. `all`: anything may have changed
 * (a listener that lost its connection may have missed changes).
 */
export type AuthChange = { kind: 'key'; id: string } | { kind: 'workspace'; id: string } | { kind: 'plan'; name: string } | { kind: 'all' };

/**
 * Carries auth changes between the processes of a distributed deployment (PostgreSQL LISTEN/NOTIFY:
 * src/adapters/auth-changes). The process that made a change drops its own cache entries itself; the
 * bus tells the others. Embedded mode is one process and has none.
 */
export interface AuthChangeBus {
  /** Tells the other processes; called after the change committed. */
  publish(change: AuthChange): Promise<void>;
  /**
   * Calls `onChange` with every change another process publishes, from when the returned promise
   * resolves (listening), and with `{ kind: 'all' }` each time listening resumes after a lost connection.
   */
  listen(onChange: (change: AuthChange) => void): Promise<void>;
  close(): Promise<void>;
}
