import { Type } from '@sinclair/typebox';

import { DomainError } from '../../domain/errors.js';
import { workspaceView, type WorkspacesService } from '../../domain/workspaces/workspaces.service.js';
import { ledgerEntryView, type CreditsService } from '../../domain/credits/credits.service.js';
import type { Api } from '../types.js';
import { INT4_MAX } from './plans.admin.routes.js';

const Id = Type.Object({ id: Type.String() });

export interface AdminWorkspaceRoutesDeps {
  workspaces: WorkspacesService;
  credits: CreditsService;
}

/** /admin/v1/workspaces, their credits and free-usage windows. */
export function adminWorkspaceRoutes(app: Api, deps: AdminWorkspaceRoutesDeps) {
  const hide = true;
  app.post(
    '/workspaces',
    {
      schema: {
        hide,
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            plan: Type.Optional(Type.String()),
            credits: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX })),
            is_personal: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const b = req.body;
      const ws = await deps.workspaces.create({ name: b.name, plan: b.plan ?? 'default', credits: b.credits, isPersonal: b.is_personal });
      return reply.code(201).send(workspaceView(ws));
    },
  );

  app.get('/workspaces/:id', { schema: { hide, params: Id } }, async (req) => workspaceView(await deps.workspaces.get(req.params.id)));

  app.patch(
    '/workspaces/:id',
    {
      schema: {
        hide,
        params: Id,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            plan: Type.Optional(Type.String()),
            member_count: Type.Optional(Type.Integer({ minimum: 1, maximum: INT4_MAX })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req) => workspaceView(await deps.workspaces.update(req.params.id, { name: req.body.name, plan: req.body.plan, memberCount: req.body.member_count })),
  );

  app.post(
    '/workspaces/:id/credits',
    {
      schema: {
        hide,
        params: Id,
        body: Type.Object(
          {
            amount: Type.Integer({ minimum: -INT4_MAX, maximum: INT4_MAX, not: { const: 0 } }),
            reason: Type.String({ minLength: 1, maxLength: 500 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const row = await deps.credits.adjust({ workspaceId: req.params.id, amount: req.body.amount, reason: req.body.reason });
      return reply.code(201).send(ledgerEntryView(row));
    },
  );

  app.put(
    '/workspaces/:id/free-usage',
    {
      schema: {
        hide,
        params: Id,
        body: Type.Object({ until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) }, { additionalProperties: false }),
      },
    },
    async (req) => {
      const until = req.body.until === null ? null : new Date(req.body.until);
      if (until && until.getTime() <= Date.now()) {
        throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'until', rule: 'future' }] });
      }
      return workspaceView(await deps.workspaces.setFreeUsage(req.params.id, until));
    },
  );

  app.delete('/workspaces/:id/free-usage', { schema: { hide, params: Id } }, async (req) => workspaceView(await deps.workspaces.endFreeUsage(req.params.id)));
}
