import type { Tx } from '../../ports/transactions.js';

/** An API key: only a SHA-256 of its secret is kept. */
export interface ApiKeyRow {
  id: string;
  secretHash: string;
  label: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** A key with the workspaces it is bound to (ids in order), as authentication uses it. */
export interface ApiKeyWithWorkspaces extends ApiKeyRow {
  workspaceIds: string[];
}

export type NewApiKey = Pick<ApiKeyRow, 'id' | 'secretHash' | 'label' | 'expiresAt'>;

/** API keys and the workspaces each is bound to (src/adapters/db/repositories/api-keys.repository.ts). */
export interface ApiKeysRepository {
  /** Stores the key with its workspace bindings. */
  insert(tx: Tx, key: NewApiKey, workspaceIds: string[]): Promise<void>;
  /** The key and the workspaces it is bound to, in one query. */
  findWithWorkspaces(id: string): Promise<ApiKeyWithWorkspaces | undefined>;
  /** Marks the key revoked at `at`; false when there is no such key. */
  revoke(id: string, at: Date): Promise<boolean>;
}
