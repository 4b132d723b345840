import { Type } from '@sinclair/typebox';

import { adminConnectionView, type ConnectionsService } from '../../domain/publishing/connections.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';

const Id = Type.Object({ id: Type.String() });

export interface AdminConnectionRoutesDeps {
  connections: ConnectionsService;
}

/** /admin/v1/workspaces/:id/connections: publishing accounts of a workspace (docs/admin.md). */
export function adminConnectionRoutes(app: Api, deps: AdminConnectionRoutesDeps) {
  const hide = true;
  app.post(
    '/workspaces/:id/connections',
    {
      schema: {
        hide,
        params: Id,
        body: Type.Object(
          {
            platform: Type.String({ minLength: 1, maxLength: 40 }),
            account_name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
            credentials: Type.Optional(Type.Object({}, { additionalProperties: true })),
            can_publish_video: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const row = await deps.connections.create(req.params.id, req.body);
      return reply.code(201).send(adminConnectionView(row));
    },
  );

  app.get('/workspaces/:id/connections', { schema: { hide, params: Id, querystring: PageQuery } }, async (req) => {
    const page = pageRequest(req.query);
    const { rows, total } = await deps.connections.listForAdmin(req.params.id, page);
    return listResponse('connections', rows.map(adminConnectionView), total, page);
  });

  app.delete(
    '/workspaces/:id/connections/:connectionId',
    { schema: { hide, params: Type.Object({ id: Type.String(), connectionId: Type.String() }) } },
    async (req, reply) => {
      await deps.connections.revoke(req.params.id, req.params.connectionId);
      return reply.code(204).send();
    },
  );
}
