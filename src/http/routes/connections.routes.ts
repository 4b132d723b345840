import { connectionView, type ConnectionsService } from '../../domain/publishing/connections.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer } from '../schemas/common.js';
import { ConnectionListSchema } from '../schemas/post.schemas.js';

export interface ConnectionRoutesDeps {
  connections: ConnectionsService;
}

/** GET /connections: the workspace's publishing accounts (connected by the operator, docs/admin.md). */
export function connectionRoutes(app: Api, deps: ConnectionRoutesDeps) {
  app.get(
    '/connections',
    {
      schema: {
        operationId: 'listConnections',
        tags: ['Connections'],
        summary: 'List the connected publishing accounts',
        description:
          'Newest first, revoked accounts included. `id` is the `connection_id` of POST /posts. Accounts are connected by the operator outside the API ' +
          '(OAuth inside the product), never through it.',
        querystring: PageQuery,
        response: { 200: answer(ConnectionListSchema, 'One page of connections.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.connections.list(callerOf(req).workspace.id, page);
      return listResponse('connections', rows.map(connectionView), total, page);
    },
  );
}
