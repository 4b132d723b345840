import { createHash } from 'node:crypto';
import { DomainError } from '../errors.js';
import type { IdempotencyRepository, StoredResponse } from './idempotency.records.js';

export type { StoredResponse } from './idempotency.records.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

export interface IdempotencyDeps {
  repo: IdempotencyRepository;
  owner: string;
}

/**
 * `Idempotency-Key` for POSTs: the first successful (2xx) answer is kept 24 hours and replayed for
 * the same key and body; the same key with another body is refused. A claim belongs to the process
 * running its request (`owner`, its id among the heartbeating processes): when that process dies, the
 * claim is released once the process is silent for half its lease, and a retry runs the request.
 */
export class IdempotencyService {
  constructor(private readonly d: IdempotencyDeps) {}

  /** Claims the key for a new request, or returns the answer to replay. */
  async begin(scope: string, key: string, fingerprint: string, now = new Date()): Promise<{ replay?: StoredResponse }> {
    const refused = new DomainError('VALIDATION_ERROR', { errors: [{ field: 'header.idempotency-key', rule: 'reused_with_different_request' }] });
    for (let attempt = 0; attempt < 50; attempt++) {
      // Drop an expired record or the claim of a dead process for this key, then try to claim it.
      await this.d.repo.dropStale(scope, key, new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
      if (await this.d.repo.claim(scope, key, fingerprint, this.d.owner)) return {};
      const row = await this.d.repo.find(scope, key);
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

  complete(scope: string, key: string, res: StoredResponse): Promise<void> {
    return this.d.repo.saveResponse(scope, key, res);
  }

  /** Releases a claim whose request did not succeed, so a retry runs again. */
  release(scope: string, key: string): Promise<void> {
    return this.d.repo.deleteUnanswered(scope, key);
  }

  purgeExpired(now = new Date()): Promise<void> {
    return this.d.repo.deleteCreatedBefore(new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
  }
}
