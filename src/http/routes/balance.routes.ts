import { balanceView, type WorkspacesService } from '../../domain/workspaces/workspaces.service.js';
import { ledgerEntryView, type CreditsService } from '../../domain/credits/credits.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { BalanceSchema, LedgerListSchema } from '../schemas/workspace.schemas.js';

export interface BalanceRoutesDeps {
  workspaces: WorkspacesService;
  credits: CreditsService;
}

/** GET /balance, GET /balance/history */
export function balanceRoutes(app: Api, deps: BalanceRoutesDeps) {
  const tags = ['Workspace and balance'];
  app.get('/balance', { schema: { tags, response: { 200: BalanceSchema, ...errorResponses(...AUTH_ERRORS) } } }, async (req) => {
    const { workspace } = await deps.workspaces.get(callerOf(req).workspace.id);
    return balanceView(workspace);
  });

  app.get(
    '/balance/history',
    { schema: { tags, querystring: PageQuery, response: { 200: LedgerListSchema, ...errorResponses(...AUTH_ERRORS) } } },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.credits.history(callerOf(req).workspace.id, page);
      return listResponse('entries', rows.map(ledgerEntryView), total, page);
    },
  );
}
