import type { Credentials } from '../../ports/publisher.js';
import type { Tx } from '../../ports/transactions.js';
import type { PageRequest } from '../pagination.js';

/** A publishing account of a workspace (table `connections`). */
export interface ConnectionRow {
  id: string;
  workspaceId: string;
  /** Lowercase network name: `local`, `youtube`, `tiktok`, `instagram`. */
  platform: string;
  accountName: string;
  /** Sealed credentials (CredentialsSealer); null when none were given or after a revoke. */
  credentialsEncrypted: string | null;
  /** `active` or `revoked`. */
  status: string;
  canPublishVideo: boolean;
  createdAt: Date;
  revokedAt: Date | null;
}

export type NewConnection = Pick<ConnectionRow, 'id' | 'workspaceId' | 'platform' | 'accountName' | 'credentialsEncrypted' | 'status' | 'canPublishVideo'>;

/** The connections' storage (src/adapters/db/repositories/connections.repository.ts). */
export interface ConnectionsRepository {
  workspaceExists(workspaceId: string): Promise<boolean>;
  insert(connection: NewConnection): Promise<ConnectionRow>;
  /** The workspace's connections, newest first. */
  list(workspaceId: string, page: PageRequest): Promise<{ rows: ConnectionRow[]; total: number }>;
  get(id: string): Promise<ConnectionRow | undefined>;
  findInWorkspace(workspaceId: string, id: string): Promise<ConnectionRow | undefined>;
  /** Those of `ids` that are connections of the workspace (any status). */
  findMany(workspaceId: string, ids: readonly string[], tx?: Tx): Promise<ConnectionRow[]>;
  /** Locks the connections' rows until `tx` ends, in id order. */
  lock(tx: Tx, ids: readonly string[]): Promise<void>;
  /** Status `revoked` at `at`, credentials wiped. */
  revoke(id: string, at: Date): Promise<ConnectionRow>;
  /** Replaces the sealed credentials of a connection that is still active. */
  replaceCredentials(id: string, sealed: string): Promise<void>;
}

/** Seals credentials at rest and opens them for publishing (src/adapters/publishing/credentials-sealer.ts). */
export interface CredentialsSealer {
  /** Sealed with the current key. */
  seal(credentials: Record<string, unknown>): Promise<string>;
  /** Opened with whichever of the installation's keys sealed them. */
  open(sealed: string): Promise<Credentials>;
}
