import type { Credentials, Publisher } from '../../ports/publisher.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import type { PageRequest } from '../pagination.js';
import type { ConnectionRow, ConnectionsRepository, CredentialsSealer } from './connections.records.js';
import { PUBLISH_PLATFORMS, isPlainObject, isPublishPlatform } from './metadata.rules.js';

export type { ConnectionRow } from './connections.records.js';

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

export interface ConnectionsDeps {
  repo: ConnectionsRepository;
  sealer: CredentialsSealer;
  publishers: ReadonlyMap<string, Publisher>;
}

/**
 * Publishing accounts of a workspace. Accounts are connected by the operator (admin API) with the
 * network's tokens, sealed at rest; the public API lists them. Revoking wipes the credentials.
 */
export class ConnectionsService {
  constructor(private readonly d: ConnectionsDeps) {}

  async create(workspaceId: string, input: CreateConnectionInput): Promise<ConnectionRow> {
    await this.checkWorkspace(workspaceId);
    if (!isPublishPlatform(input.platform)) throw validationError([{ field: 'platform', rule: 'enum', allowed: PUBLISH_PLATFORMS }]);
    const credentials = input.credentials ?? {};
    if (!isPlainObject(credentials)) throw validationError([{ field: 'credentials', rule: 'type' }]);
    const publisher = this.d.publishers.get(input.platform);
    const bad = publisher ? publisher.checkCredentials(credentials) : 'platform';
    if (bad) throw validationError([{ field: bad === 'platform' ? 'platform' : `credentials.${bad}`, rule: 'required' }]);
    const sealed = Object.keys(credentials).length > 0 ? await this.d.sealer.seal(credentials) : null;
    return this.d.repo.insert({
      id: newId('con'),
      workspaceId,
      platform: input.platform,
      accountName: input.account_name,
      credentialsEncrypted: sealed,
      status: 'active',
      canPublishVideo: (publisher?.canPublishVideo ?? false) && input.can_publish_video !== false,
    });
  }

  list(workspaceId: string, page: PageRequest): Promise<{ rows: ConnectionRow[]; total: number }> {
    return this.d.repo.list(workspaceId, page);
  }

  /** Admin: lists after checking the workspace exists (404 WORKSPACE_NOT_FOUND). */
  async listForAdmin(workspaceId: string, page: PageRequest) {
    await this.checkWorkspace(workspaceId);
    return this.list(workspaceId, page);
  }

  /** Revokes (idempotent): status `revoked`, credentials wiped. Items not yet published to it fail with CONNECTION_REVOKED. */
  async revoke(workspaceId: string, id: string): Promise<ConnectionRow> {
    await this.checkWorkspace(workspaceId);
    const row = await this.d.repo.findInWorkspace(workspaceId, id);
    if (!row) throw new DomainError('CONNECTION_NOT_FOUND');
    if (row.status === 'revoked') return row;
    return this.d.repo.revoke(id, new Date());
  }

  get(id: string): Promise<ConnectionRow | undefined> {
    return this.d.repo.get(id);
  }

  /** The connection's credentials in clear (publishing only). */
  async credentials(row: ConnectionRow): Promise<Credentials> {
    if (!row.credentialsEncrypted) return {};
    return this.d.sealer.open(row.credentialsEncrypted);
  }

  /** Saves refreshed tokens returned by a publisher, sealed with the current key; a revoked connection stays wiped. */
  async saveCredentials(id: string, credentials: Credentials): Promise<void> {
    await this.d.repo.replaceCredentials(id, await this.d.sealer.seal(credentials));
  }

  private async checkWorkspace(workspaceId: string): Promise<void> {
    if (!(await this.d.repo.workspaceExists(workspaceId))) throw new DomainError('WORKSPACE_NOT_FOUND');
  }
}
