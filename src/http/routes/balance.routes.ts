import { balanceView, type WorkspacesService } from '../../domain/workspaces/workspaces.service.js';
import { ledgerEntryView, type CreditsService } from '../../domain/credits/credits.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer } from '../schemas/common.js';
import { BalanceSchema, LedgerListSchema } from '../schemas/workspace.schemas.js';

export interface BalanceRoutesDeps {
  workspaces: WorkspacesService;
  credits: CreditsService;
}

/** GET /balance, GET /balance/history */
export function balanceRoutes(app: Api, deps: BalanceRoutesDeps) {
  const tags = ['Balance'];
  app.get(
    '/balance',
    {
      schema: {
        operationId: 'getBalance',
        tags,
        summary: 'Get the credit balance',
        description:
          'Credits belong to the workspace, not to the key; 1 credit is 1 processed minute of video. Under free usage `unlimited` is true until ' +
          '`unlimited_until` (null: no end date): jobs consume no credits and are never refused for lack of balance.',
        response: { 200: answer(BalanceSchema, 'The balance.') },
      },
    },
    async (req) => {
      return balanceView(await deps.workspaces.balance(callerOf(req).workspace.id));
    },
  );

  app.get(
    '/balance/history',
    {
      schema: {
        operationId: 'listBalanceHistory',
        tags,
        summary: 'List the credit ledger',
        description:
          'Every grant, charge and refund, newest first, with the balance after it. A job run under free usage appears with the amount it would have ' +
          'cost and `waived: true`; its `balance_after` is unchanged.',
        querystring: PageQuery,
        response: { 200: answer(LedgerListSchema, 'One page of ledger entries.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.credits.history(callerOf(req).workspace.id, page);
      return listResponse('entries', rows.map(ledgerEntryView), total, page);
    },
  );
}
