import type { Db } from '../adapters/db/database.js';
import { DrizzleApiKeysRepository } from '../adapters/db/repositories/api-keys.repository.js';
import { DrizzleIdempotencyRepository } from '../adapters/db/repositories/idempotency.repository.js';
import { DrizzlePlansRepository } from '../adapters/db/repositories/plans.repository.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { DrizzleWorkspacesRepository } from '../adapters/db/repositories/workspaces.repository.js';
import { AdminTokenService } from '../domain/auth/admin-token.service.js';
import { ApiKeysService } from '../domain/auth/api-keys.service.js';
import { SigningSecretService } from '../domain/auth/signing-secret.service.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { IdempotencyService } from '../domain/idempotency/idempotency.service.js';
import { PlansService } from '../domain/plans/plans.service.js';
import { WorkspacesService } from '../domain/workspaces/workspaces.service.js';
import type { TransactionRunner } from '../ports/transactions.js';

/** Plans, workspaces, API keys, the operator token, the URL signing secret and idempotency records. */
export function createAccounts(db: Db, transactions: TransactionRunner, credits: CreditsService) {
  const plansRepo = new DrizzlePlansRepository(db);
  const workspacesRepo = new DrizzleWorkspacesRepository(db);
  const settings = new DrizzleSettingsRepository(db);
  return {
    plans: new PlansService(plansRepo),
    workspaces: new WorkspacesService(workspacesRepo, plansRepo, credits, transactions),
    apiKeys: new ApiKeysService(new DrizzleApiKeysRepository(db), workspacesRepo, transactions),
    adminToken: new AdminTokenService(settings),
    signingSecret: new SigningSecretService(settings),
    idempotency: new IdempotencyService(new DrizzleIdempotencyRepository(db)),
  };
}
