import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../../shared/ids.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import type { WorkspacesRepository } from '../workspaces/workspaces.records.js';
import type { ApiKeysRepository } from './api-keys.records.js';
import type { AuthCache } from './auth-cache.js';

export interface AuthenticatedKey {
  keyId: string;
  workspaceIds: string[];
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/**
 * API keys look like `key_<id>.<secret>`. Only a SHA-256 of the secret is stored (the secret is
 * 256 random bits, so a slow hash adds nothing); the presented secret is compared in constant time.
 */
export function parseKey(presented: string): { id: string; secret: string } | null {
  const m = /^(key_[0-9a-z]{20})\.([A-Za-z0-9_-]{43})$/.exec(presented);
  return m ? { id: m[1], secret: m[2] } : null;
}

export interface ApiKeysDeps {
  repo: ApiKeysRepository;
  workspaces: WorkspacesRepository;
  tx: TransactionRunner;
  cache: AuthCache;
}

export class ApiKeysService {
  constructor(private readonly d: ApiKeysDeps) {}

  async create(input: { workspaceIds: string[]; expiresAt?: Date | null; label?: string }): Promise<{ id: string; key: string }> {
    const ids = [...new Set(input.workspaceIds)];
    if (ids.length === 0) throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'workspace_ids', rule: 'minItems' }] });
    const id = newId('key');
    const secret = randomBytes(32).toString('base64url');
    await this.d.tx.run(async (tx) => {
      const known = new Set(await this.d.workspaces.existingIds(ids, tx));
      if (known.size !== ids.length) {
        throw new DomainError('WORKSPACE_NOT_FOUND', { invalid_workspace_ids: ids.filter((w) => !known.has(w)) });
      }
      const key = { id, secretHash: sha256(secret).toString('hex'), label: input.label ?? null, expiresAt: input.expiresAt ?? null };
      await this.d.repo.insert(tx, key, ids);
    });
    return { id, key: `${id}.${secret}` };
  }

  /** Revokes the key; every process refuses it from the next request on. */
  async revoke(id: string): Promise<void> {
    if (!(await this.d.repo.revoke(id, new Date()))) throw new DomainError('KEY_NOT_FOUND');
    await this.d.cache.changed({ kind: 'key', id });
  }

  /**
   * The key's id and workspaces, or null for a malformed, unknown, revoked or expired key. The key is
   * read through the auth cache; its expiry is checked against `now` on every call.
   */
  async authenticate(presented: string, now = new Date()): Promise<AuthenticatedKey | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    const row = await this.d.cache.key(parsed.id);
    if (!row) return null;
    const ok = timingSafeEqual(Buffer.from(row.secretHash, 'hex'), sha256(parsed.secret));
    if (!ok || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) return null;
    return { keyId: row.id, workspaceIds: row.workspaceIds };
  }
}
