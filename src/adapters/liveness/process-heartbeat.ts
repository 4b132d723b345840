import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { eq, lt, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { processes } from '../db/schema/index.js';

/**
 * SQL condition on a `processes` row under `alias`: it heartbeated within half its lease, i.e. the
 * process counts as alive. Job leases and `Idempotency-Key` claims of processes failing it are taken over.
 */
export const HEARD_WITHIN_HALF_LEASE = (alias: string) => `${alias}.heartbeat_at >= now() - ${alias}.lease_seconds * interval '500 milliseconds'`;

/** Rows of processes silent this long are deleted (their work was taken over long before). */
const FORGET_AFTER = sql`interval '1 day'`;

export interface ProcessHeartbeatOptions {
  db: Db;
  logger: Logger;
  role: string;
  /** CUTROOM_JOB_LEASE_SECONDS. */
  leaseSeconds: number;
}

/**
 * This process as the others see it: a row in `processes` whose `heartbeat_at` is refreshed six times
 * per lease. A process silent for half its lease counts as dead (`silentBefore`): its job runs and its
 * unanswered `Idempotency-Key` claims are taken over, so work held by a process that died is running
 * again elsewhere within the lease (docs/operations.md). Times are the database's clock, so the
 * machines' clocks need not agree.
 */
export class ProcessHeartbeat {
  readonly id = `proc_${randomUUID()}`;
  readonly leaseSeconds: number;
  private readonly db: Db;
  private readonly logger: Logger;
  private readonly role: string;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  /** When the current unbroken run of heartbeats began (undefined after a failed one). */
  private heardSince: number | undefined;

  constructor(opts: ProcessHeartbeatOptions) {
    this.db = opts.db;
    this.logger = opts.logger;
    this.role = opts.role;
    this.leaseSeconds = opts.leaseSeconds;
  }

  /** Between two heartbeats: a sixth of the lease. */
  get intervalMs(): number {
    return (this.leaseSeconds * 1000) / 6;
  }

  /** How long a process may stay silent before it counts as dead: half the lease. */
  get silenceMs(): number {
    return (this.leaseSeconds * 1000) / 2;
  }

  /** Registers the process and heartbeats until `stop`. */
  async start(): Promise<void> {
    if (this.timer) return;
    await this.register();
    this.heardSince = Date.now();
    this.timer = setInterval(() => void (this.beating ??= this.beat().finally(() => (this.beating = undefined))), this.intervalMs);
    this.timer.unref();
  }

  /**
   * How long this process has been heard from without a gap (0 right after a failed heartbeat). A
   * process judges others' silence only once it has been heard from for a whole silence window itself:
   * after a database outage every process is silent for a while, and none is dead.
   */
  heardForMs(): number {
    return this.heardSince === undefined ? 0 : Date.now() - this.heardSince;
  }

  /** Deletes the rows of every other process: the embedded mode's one process starts after any earlier run ended. */
  async forgetOthers(): Promise<void> {
    await this.db.delete(processes).where(ne(processes.id, this.id));
  }

  /** Stops heartbeating and deletes the row: what this process still holds is free at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.db.delete(processes).where(eq(processes.id, this.id));
  }

  private async register(): Promise<void> {
    await this.db
      .insert(processes)
      .values({ id: this.id, role: this.role, host: os.hostname(), pid: process.pid, leaseSeconds: this.leaseSeconds })
      .onConflictDoUpdate({ target: processes.id, set: { heartbeatAt: sql`now()` } });
  }

  private async beat(): Promise<void> {
    try {
      const rows = await this.db
        .update(processes)
        .set({ heartbeatAt: sql`now()` })
        .where(eq(processes.id, this.id))
        .returning({ id: processes.id });
      if (rows.length === 0) {
        // The row was deleted (silent for a day, or another run of the embedded mode started): register again.
        this.logger.warn({ process: this.id }, 'process row was gone; registered again');
        await this.register();
      }
      await this.db.delete(processes).where(lt(processes.heartbeatAt, sql`now() - ${FORGET_AFTER}`));
      this.heardSince ??= Date.now();
    } catch (err) {
      this.heardSince = undefined;
      this.logger.warn({ err }, 'process heartbeat failed');
    }
  }
}
