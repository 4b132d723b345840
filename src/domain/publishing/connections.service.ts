import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { connections, workspaces } from '../../adapters/db/schema.js';
import { decryptCredentials, encryptCredentials } from '../../adapters/publishing/credentials-crypto.js';
import { checkCredentials } from '../../adapters/publishing/publisher.factory.js';
import type { Credentials, Publisher } from '../../ports/publisher.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import type { PageRequest } from '../pagination.js';
import type { CredentialsKeyService } from './credentials-key.service.js';
import { isPlainObject, isPublishPlatform } from './metadata.rules.js';

export type ConnectionRow = typeof connections.$inferSelect;

/** GET /connections item (and the admin API's connection object): never the credentials. */
export interface ConnectionView {
  id: string;
  platform: string;
  account_name: string;
  status: 'active' | 'revoked';
  can_publish_video: boolean;
  created_at: string;
}

export function connectionView(r: ConnectionRow): ConnectionView {
  return {
    id: r.id,
    platform: r.platform,
    account_name: r.accountName,
    status: r.status as ConnectionView['status'],
    can_publish_video: r.canPublishVideo,
    created_at: r.createdAt.toISOString(),
  };
}

/** Admin view: the public fields plus `revoked_at`. */
export function adminConnectionView(r: ConnectionRow) {
  return { ...connectionView(r), revoked_at: r.revokedAt ? r.revokedAt.toISOString() : null };
}

export interface CreateConnectionInput {
  platform: string;
  account_name: string;
  credentials?: Record<string, unknown>;
  /** Override of the network's ability (e.g. an Instagram account that is not a professional one). */
  can_publish_video?: boolean;
}

/**
 * Publishing accounts of a workspace. Accounts are connected by the operator (admin API) with the
 * network's tokens, sealed at rest; the public API lists them. Revoking wipes the credentials.
 */
export class ConnectionsService {
  constructor(
    private readonly db: Db,
    private readonly keys: CredentialsKeyService,
    private readonly publishers: ReadonlyMap<string, Publisher>,
  ) {}

  async create(workspaceId: string, input: CreateConnectionInput): Promise<ConnectionRow> {
    const [ws] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
    if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND');
    if (!isPublishPlatform(input.platform)) throw validationError([{ field: 'platform', rule: 'enum' }]);
    const credentials = input.credentials ?? {};
    if (!isPlainObject(credentials)) throw validationError([{ field: 'credentials', rule: 'type' }]);
    const bad = checkCredentials(input.platform, credentials as Credentials);
    if (bad) throw validationError([{ field: bad === 'platform' ? 'platform' : `credentials.${bad}`, rule: 'required' }]);
    const publisher = this.publishers.get(input.platform);
    const sealed = Object.keys(credentials).length > 0 ? encryptCredentials(credentials, await this.keys.current()) : null;
    const [row] = await this.db
      .insert(connections)
      .values({
        id: newId('con'),
        workspaceId,
        platform: input.platform,
        accountName: input.account_name,
        credentialsEncrypted: sealed,
        status: 'active',
        canPublishVideo: (publisher?.canPublishVideo ?? false) && input.can_publish_video !== false,
      })
      .returning();
    return row;
  }

  async list(workspaceId: string, page: PageRequest): Promise<{ rows: ConnectionRow[]; total: number }> {
    const where = eq(connections.workspaceId, workspaceId);
    const rows = await this.db
      .select()
      .from(connections)
      .where(where)
      .orderBy(desc(connections.createdAt), desc(connections.id))
      .limit(page.limit)
      .offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(connections).where(where);
    return { rows, total: Number(n) };
  }

  /** Admin: lists after checking the workspace exists (404 WORKSPACE_NOT_FOUND). */
  async listForAdmin(workspaceId: string, page: PageRequest) {
    const [ws] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
    if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND');
    return this.list(workspaceId, page);
  }

  /** Revokes (idempotent): status `revoked`, credentials wiped. Items not yet published to it fail with CONNECTION_REVOKED. */
  async revoke(workspaceId: string, id: string): Promise<ConnectionRow> {
    const [ws] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));
    if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND');
    const [row] = await this.db.select().from(connections).where(and(eq(connections.id, id), eq(connections.workspaceId, workspaceId)));
    if (!row) throw new DomainError('CONNECTION_NOT_FOUND');
    if (row.status === 'revoked') return row;
    const [done] = await this.db
      .update(connections)
      .set({ status: 'revoked', revokedAt: new Date(), credentialsEncrypted: null })
      .where(eq(connections.id, id))
      .returning();
    return done;
  }

  async get(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db.select().from(connections).where(eq(connections.id, id));
    return row;
  }

  /** The connection's credentials in clear (publishing only). */
  async credentials(row: ConnectionRow): Promise<Credentials> {
    if (!row.credentialsEncrypted) return {};
    return decryptCredentials(row.credentialsEncrypted, await this.keys.all()) as Credentials;
  }

  /** Saves refreshed tokens returned by a publisher, sealed with the current key; a revoked connection stays wiped. */
  async saveCredentials(id: string, credentials: Credentials): Promise<void> {
    const sealed = encryptCredentials(credentials as Record<string, unknown>, await this.keys.current());
    await this.db
      .update(connections)
      .set({ credentialsEncrypted: sealed })
      .where(and(eq(connections.id, id), eq(connections.status, 'active')));
  }
}
