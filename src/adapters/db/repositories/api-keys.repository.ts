import { eq } from 'drizzle-orm';
import type { ApiKeyRow, ApiKeysRepository, NewApiKey } from '../../../domain/auth/api-keys.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { apiKeyWorkspaces, apiKeys } from '../schema.js';
import { executor } from '../transactions.js';

/** API keys and their workspace bindings (tables `api_keys`, `api_key_workspaces`). */
export class DrizzleApiKeysRepository implements ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async insert(tx: Tx, key: NewApiKey, workspaceIds: string[]): Promise<void> {
    const q = executor(this.db, tx);
    await q.insert(apiKeys).values(key);
    await q.insert(apiKeyWorkspaces).values(workspaceIds.map((workspaceId) => ({ keyId: key.id, workspaceId })));
  }

  async find(id: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    return row;
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const rows = await this.db.update(apiKeys).set({ revokedAt: at }).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
    return rows.length > 0;
  }

  async workspaceIds(keyId: string): Promise<string[]> {
    const rows = await this.db
      .select({ workspaceId: apiKeyWorkspaces.workspaceId })
      .from(apiKeyWorkspaces)
      .where(eq(apiKeyWorkspaces.keyId, keyId))
      .orderBy(apiKeyWorkspaces.workspaceId);
    return rows.map((r) => r.workspaceId);
  }
}
