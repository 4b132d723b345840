import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AuthChange, AuthChangeBus } from '../../ports/auth-changes.js';
import type { SqlExecutor } from '../db/database.js';

/** The one channel every process of a deployment listens on. */
export const AUTH_CHANGES_CHANNEL = 'cutroom_auth_changes';

export interface PgNotifyAuthChangesOptions {
  /** The deployment's PostgreSQL; the listener holds one connection of its own. */
  connectionString: string;
  /** The shared pool, for NOTIFY. */
  sql: SqlExecutor;
  /** First wait before reconnecting a lost listener, doubled per failed attempt up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Told of a lost listener connection and of each failed reconnection (the service logs it). */
  onError?: (err: unknown) => void;
}

const KINDS = new Set(['key', 'workspace', 'plan', 'all']);

function parse(payload: string | undefined): { origin: string; change: AuthChange } | undefined {
  try {
    const m = JSON.parse(payload ?? '');
    return typeof m?.origin === 'string' && KINDS.has(m?.change?.kind) ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Auth changes over PostgreSQL LISTEN/NOTIFY: `publish` sends `pg_notify` on the pool; `listen` keeps
 * a dedicated client on LISTEN and reconnects it when it is lost. Missed notifications cannot be
 * replayed, so after a reconnection the listener reports `{ kind: 'all' }`. Each process skips its
 * own notifications (it dropped its entries when it made the change).
 */
export class PgNotifyAuthChanges implements AuthChangeBus {
  private readonly origin = randomUUID();
  private client?: pg.Client;
  private onChange?: (change: AuthChange) => void;
  private retryTimer?: NodeJS.Timeout;
  private failures = 0;
  private closed = false;

  constructor(private readonly opts: PgNotifyAuthChangesOptions) {}

  async publish(change: AuthChange): Promise<void> {
    await this.opts.sql.executeSql('select pg_notify($1, $2)', [AUTH_CHANGES_CHANNEL, JSON.stringify({ origin: this.origin, change })]);
  }

  async listen(onChange: (change: AuthChange) => void): Promise<void> {
    this.onChange = onChange;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.connectionString, keepAlive: true });
    // Until connected, a failure rejects connect() or query(); afterwards it ends the listener (lost()).
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (msg) => {
      const m = msg.channel === AUTH_CHANGES_CHANNEL ? parse(msg.payload) : undefined;
      if (m && m.origin !== this.origin) this.onChange?.(m.change);
    });
    try {
      await client.connect();
      await client.query(`listen ${AUTH_CHANGES_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => {});
    if (this.closed) return;
    this.opts.onError?.(err ?? new Error('auth change listener: connection ended'));
    this.reconnectLater();
  }

  private reconnectLater(): void {
    const delay = Math.min(this.opts.maxRetryMs ?? 30_000, (this.opts.retryMs ?? 500) * 2 ** this.failures);
    this.retryTimer = setTimeout(() => {
      this.connect().then(
        () => {
          this.failures = 0;
          // Whatever changed while no one listened is unknown: forget everything held.
          if (!this.closed) this.onChange?.({ kind: 'all' });
        },
        (err: unknown) => {
          this.failures++;
          this.opts.onError?.(err);
          if (!this.closed) this.reconnectLater();
        },
      );
    }, delay);
    this.retryTimer.unref();
  }
}
