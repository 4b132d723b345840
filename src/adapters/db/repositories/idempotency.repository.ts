import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { IdempotencyRepository, IdempotencyRow, StoredResponse } from '../../../domain/idempotency/idempotency.records.js';
import { HEARD_WITHIN_HALF_LEASE } from '../../liveness/process-heartbeat.js';
import type { Db } from '../database.js';
import { idempotencyKeys } from '../schema/index.js';

/** The claim's process heartbeats (src/adapters/liveness/process-heartbeat.ts). */
const OWNER_ALIVE = sql`exists (select 1 from processes p where p.id = ${idempotencyKeys.owner} and ${sql.raw(HEARD_WITHIN_HALF_LEASE('p'))})`;

const byKey = (scope: string, key: string) => and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

/** Idempotency records (table `idempotency_keys`). */
export class DrizzleIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly db: Db) {}

  async dropStale(scope: string, key: string, expiredBefore: Date): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(and(byKey(scope, key), or(lt(idempotencyKeys.createdAt, expiredBefore), and(isNull(idempotencyKeys.statusCode), sql`not ${OWNER_ALIVE}`))));
  }

  async claim(scope: string, key: string, requestHash: string, owner: string): Promise<boolean> {
    const rows = await this.db.insert(idempotencyKeys).values({ scope, key, requestHash, owner }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
    return rows.length > 0;
  }

  async find(scope: string, key: string): Promise<IdempotencyRow | undefined> {
    const [row] = await this.db.select().from(idempotencyKeys).where(byKey(scope, key));
    return row;
  }

  async saveResponse(scope: string, key: string, res: StoredResponse): Promise<void> {
    await this.db.update(idempotencyKeys).set({ statusCode: res.statusCode, responseBody: res.body, responseHeaders: res.headers }).where(byKey(scope, key));
  }

  async deleteUnanswered(scope: string, key: string): Promise<void> {
    await this.db.delete(idempotencyKeys).where(and(byKey(scope, key), isNull(idempotencyKeys.statusCode)));
  }

  async deleteCreatedBefore(before: Date): Promise<void> {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
  }
}
