import { Type } from '@sinclair/typebox';
import type { Container } from '../../main/container.js';
import { adminConnectionView } from '../../domain/publishing/connections.service.js';
import { listResponse, pageRequest, PageQuery } from '../../domain/pagination.js';
import type { Api } from '../types.js';

const Id = Type.Object({ id: Type.String() });

/** /admin/v1/workspaces/:id/connections: publishing accounts of a workspace (docs/admin.md). */
export function adminConnectionRoutes(app: Api, c: Container) {
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
      const row = await c.connections.create(req.params.id, req.body);
      return reply.code(201).send(adminConnectionView(row));
    },
  );

  app.get('/workspaces/:id/connections', { schema: { hide, params: Id, querystring: PageQuery } }, async (req) => {
    const page = pageRequest(req.query);
    const { rows, total } = await c.connections.listForAdmin(req.params.id, page);
    return listResponse('connections', rows.map(adminConnectionView), total, page);
  });

  app.delete(
    '/workspaces/:id/connections/:connectionId',
    { schema: { hide, params: Type.Object({ id: Type.String(), connectionId: Type.String() }) } },
    async (req, reply) => {
      await c.connections.revoke(req.params.id, req.params.connectionId);
      return reply.code(204).send();
    },
  );
}
