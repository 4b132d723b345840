import { workspaceView, type WorkspacesService } from '../../domain/workspaces/workspaces.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { WorkspaceSchema } from '../schemas/workspace.schemas.js';

export interface WorkspaceRoutesDeps {
  workspaces: WorkspacesService;
}

/** GET /workspace */
export function workspaceRoutes(app: Api, deps: WorkspaceRoutesDeps) {
  app.get(
    '/workspace',
    { schema: { tags: ['Workspace and balance'], response: { 200: WorkspaceSchema, ...errorResponses(...AUTH_ERRORS) } } },
    async (req) => workspaceView(await deps.workspaces.get(callerOf(req).workspace.id)),
  );
}
