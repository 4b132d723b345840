import type { Container } from '../../main/container.js';
import { connectionView } from '../../domain/publishing/connections.service.js';
import { listResponse, pageRequest, PageQuery } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { ConnectionListSchema } from '../schemas/post.schemas.js';

/** GET /connections: the workspace's publishing accounts (connected by the operator, docs/admin.md). */
export function connectionRoutes(app: Api, c: Container) {
  app.get(
    '/connections',
    {
      schema: {
        tags: ['Posts'],
        summary: 'List the connected publishing accounts; `id` is the `connection_id` of POST /posts',
        querystring: PageQuery,
        response: { 200: ConnectionListSchema, ...errorResponses(...AUTH_ERRORS) },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await c.connections.list(callerOf(req).workspace.id, page);
      return listResponse('connections', rows.map(connectionView), total, page);
    },
  );
}
