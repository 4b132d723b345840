import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { idempotencyKeys } from '../../adapters/db/schema.js';
import { DomainError } from '../errors.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A claim whose request never finished (process died) is taken over after this long. */
const ABANDONED_MS = 120_000;

export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * `Idempotency-Key` for POSTs: the first successful (2xx) answer is kept 24 hours and replayed for
 * the same key and body; the same key with another body is refused.
 */
export class IdempotencyService {
  constructor(private readonly db: Db) {}

  /** Claims the key for a new request, or returns the answer to replay. */
  async begin(scope: string, key: string, fingerprint: string, now = new Date()): Promise<{ replay?: StoredResponse }> {
    const refused = new DomainError('VALIDATION_ERROR', { errors: [{ field: 'header.idempotency-key', rule: 'reused_with_different_request' }] });
    for (let attempt = 0; attempt < 50; attempt++) {
      // Drop an expired record or an abandoned claim for this key, then try to claim it.
      await this.db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.scope, scope),
            eq(idempotencyKeys.key, key),
            or(
              lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)),
              and(isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, new Date(Date.now() - ABANDONED_MS))),
            ),
          ),
        );
      const [claimed] = await this.db
        .insert(idempotencyKeys)
        .values({ scope, key, requestHash: fingerprint })
        .onConflictDoNothing()
        .returning();
      if (claimed) return {};
      const [row] = await this.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
      if (!row) continue;
      if (row.requestHash !== fingerprint) throw refused;
      if (row.statusCode !== null && row.responseBody !== null) {
        return { replay: { statusCode: row.statusCode, body: row.responseBody, headers: row.responseHeaders ?? {} } };
      }
      // The first request with this key is still running: wait for its answer.
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new DomainError('REQUEST_IN_PROGRESS');
  }

  async complete(scope: string, key: string, res: StoredResponse): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ statusCode: res.statusCode, responseBody: res.body, responseHeaders: res.headers })
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  }

  /** Releases a claim whose request did not succeed, so a retry runs again. */
  async release(scope: string, key: string): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), isNull(idempotencyKeys.statusCode)));
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)));
  }
}
