import type { Container } from '../../main/container.js';
import { workspaceView } from '../../domain/workspaces/workspaces.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { WorkspaceSchema } from '../schemas/workspace.schemas.js';

/** GET /workspace */
export function workspaceRoutes(app: Api, c: Container) {
  app.get(
    '/workspace',
    { schema: { tags: ['Workspace and balance'], response: { 200: WorkspaceSchema, ...errorResponses(...AUTH_ERRORS) } } },
    async (req) => workspaceView(await c.workspaces.get(callerOf(req).workspace.id)),
  );
}
