import type { Database } from '../adapters/db/database.js';
import { DrizzleApiKeysRepository } from '../adapters/db/repositories/api-keys.repository.js';
import { DrizzlePlansRepository } from '../adapters/db/repositories/plans.repository.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { DrizzleWorkspacesRepository } from '../adapters/db/repositories/workspaces.repository.js';
import { AdminTokenService } from '../domain/auth/admin-token.service.js';
import { ApiKeysService } from '../domain/auth/api-keys.service.js';
import { AuthCache } from '../domain/auth/auth-cache.js';
import { SigningSecretService } from '../domain/auth/signing-secret.service.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { PlansService } from '../domain/plans/plans.service.js';
import { WorkspacesService } from '../domain/workspaces/workspaces.service.js';
import type { AuthChangeBus } from '../ports/auth-changes.js';
import type { TransactionRunner } from '../ports/transactions.js';

/** The auth cache's settings: CUTROOM_AUTH_CACHE_SECONDS, and the bus in distributed mode. */
export interface AuthCacheWiring {
  ttlMs: number;
  bus?: AuthChangeBus;
}

/**
 * Plans, workspaces, API keys, the operator token and the URL signing secret; the auth cache the key, workspace and plan services share (it reads through their repositories).
 */
export function createAccounts(database: Pick<Database, 'db' | 'sql'>, transactions: TransactionRunner, credits: CreditsService, auth: AuthCacheWiring) {
  const { db } = database;
  const plansRepo = new DrizzlePlansRepository(db);
  const workspacesRepo = new DrizzleWorkspacesRepository(db, database.sql);
  const keysRepo = new DrizzleApiKeysRepository(db);
  const settings = new DrizzleSettingsRepository(db);
  const authCache = new AuthCache(
    { key: (id) => keysRepo.findWithWorkspaces(id), workspace: (id) => workspacesRepo.findWithPlan(id) },
    { ttlMs: auth.ttlMs, now: Date.now, bus: auth.bus },
  );
  return {
    authCache,
    plans: new PlansService({ repo: plansRepo, cache: authCache }),
    workspaces: new WorkspacesService({ repo: workspacesRepo, plans: plansRepo, credits, tx: transactions, cache: authCache }),
    apiKeys: new ApiKeysService({ repo: keysRepo, workspaces: workspacesRepo, tx: transactions, cache: authCache }),
    adminToken: new AdminTokenService({ settings }),
    signingSecret: new SigningSecretService({ settings }),
  };
}
