import type { AuthChange, AuthChangeBus } from '../../ports/auth-changes.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import type { ApiKeyWithWorkspaces } from './api-keys.records.js';
import { TtlCache } from './ttl-cache.js';

/** Where the cache reads what it does not hold (the repositories). */
export interface AuthCacheSources {
  key(id: string): Promise<ApiKeyWithWorkspaces | undefined>;
  workspace(id: string): Promise<WorkspaceWithPlan | undefined>;
}

export interface AuthCacheOptions {
  /** How long a key or a workspace read is reused (CUTROOM_AUTH_CACHE_SECONDS); 0 reads on every request. */
  ttlMs: number;
  /** The clock, in milliseconds: Date.now, a fake one in tests. */
  now: () => number;
  /** Most keys, and most workspaces, held at once. */
  maxEntries?: number;
  /** Distributed mode: tells the other processes of a change, and this one of theirs. */
  bus?: AuthChangeBus;
}

/**
 * What an authenticated request needs before its own work, held in the process for a short time:
 * a key with its workspace bindings, and each workspace with its plan. A request served from here
 * makes no database trip for authentication.
 *
 * Exactness: a key's expiry is checked against the clock on every request (ApiKeysService); a
 * revocation, a workspace's plan or free-usage change and a plan's new limits drop what they touch
 * at once in the process that made them (`changed`) and, through the bus, in the others (`drop`);
 * `ttlMs` bounds how long a change another process missed (a lost connection) can go unseen. The
 * balance in a held workspace is the one read with it: GET /balance and GET /workspace read the
 * workspace again, and money moves only in CreditsService under the workspace's row lock.
 */
export class AuthCache {
  private readonly keys: TtlCache<ApiKeyWithWorkspaces>;
  private readonly workspaces: TtlCache<WorkspaceWithPlan>;
  private readonly bus?: AuthChangeBus;

  constructor(sources: AuthCacheSources, opts: AuthCacheOptions) {
    const cacheOpts = { ttlMs: opts.ttlMs, now: opts.now, maxEntries: opts.maxEntries ?? 10_000 };
    this.keys = new TtlCache((id) => sources.key(id), cacheOpts);
    this.workspaces = new TtlCache((id) => sources.workspace(id), cacheOpts);
    this.bus = opts.bus;
  }

  key(id: string): Promise<ApiKeyWithWorkspaces | undefined> {
    return this.keys.get(id);
  }

  /** The workspace with its plan; `fresh` reads it now (and holds what it read). */
  workspace(id: string, opts: { fresh?: boolean } = {}): Promise<WorkspaceWithPlan | undefined> {
    return this.workspaces.get(id, opts.fresh);
  }

  /** A change this process committed: dropped here at once, then announced to the other processes. */
  async changed(change: AuthChange): Promise<void> {
    this.drop(change);
    await this.bus?.publish(change);
  }

  /** Forgets what `change` touches (a change announced by another process). */
  drop(change: AuthChange): void {
    switch (change.kind) {
      case 'key':
        this.keys.delete(change.id);
        break;
      case 'workspace':
        this.workspaces.delete(change.id);
        break;
      case 'plan':
        this.workspaces.deleteWhere((w) => w.plan.name === change.name);
        break;
      case 'all':
        this.keys.clear();
        this.workspaces.clear();
        break;
    }
  }

  /** Starts taking the other processes' changes (distributed mode; nothing to do in embedded mode). */
  async listen(): Promise<void> {
    await this.bus?.listen((change) => this.drop(change));
  }
}
