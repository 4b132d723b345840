import { eq } from 'drizzle-orm';
import type { ApiKeysRepository, ApiKeyWithWorkspaces, NewApiKey } from '../../../domain/auth/api-keys.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { apiKeyWorkspaces, apiKeys } from '../schema/index.js';
import { executor } from '../transactions.js';

/** API keys and their workspace bindings (tables `api_keys`, `api_key_workspaces`). */
export class DrizzleApiKeysRepository implements ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async insert(tx: Tx, key: NewApiKey, workspaceIds: string[]): Promise<void> {
    const q = executor(this.db, tx);
    await q.insert(apiKeys).values(key);
    await q.insert(apiKeyWorkspaces).values(workspaceIds.map((workspaceId) => ({ keyId: key.id, workspaceId })));
  }

  async findWithWorkspaces(id: string): Promise<ApiKeyWithWorkspaces | undefined> {
    const rows = await this.db
      .select({ key: apiKeys, workspaceId: apiKeyWorkspaces.workspaceId })
      .from(apiKeys)
      .leftJoin(apiKeyWorkspaces, eq(apiKeyWorkspaces.keyId, apiKeys.id))
      .where(eq(apiKeys.id, id))
      .orderBy(apiKeyWorkspaces.workspaceId);
    if (rows.length === 0) return undefined;
    return { ...rows[0].key, workspaceIds: rows.flatMap((r) => (r.workspaceId === null ? [] : [r.workspaceId])) };
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const rows = await this.db.update(apiKeys).set({ revokedAt: at }).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
    return rows.length > 0;
  }
}
