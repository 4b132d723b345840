import { workspaceView, type WorkspacesService } from '../../domain/workspaces/workspaces.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer } from '../schemas/common.js';
import { WorkspaceSchema } from '../schemas/workspace.schemas.js';

export interface WorkspaceRoutesDeps {
  workspaces: WorkspacesService;
}

/** GET /workspace */
export function workspaceRoutes(app: Api, deps: WorkspaceRoutesDeps) {
  app.get(
    '/workspace',
    {
      schema: {
        operationId: 'getWorkspace',
        tags: ['Workspace'],
        summary: 'Get the workspace',
        description:
          'The workspace the call runs in, with its plan, credits and free-usage window. A key bound to one workspace uses it; a key bound to several ' +
          'needs `X-Workspace-Id` on every call (400 MISSING_WORKSPACE_ID lists the allowed ids in `extra.workspace_ids`). `role` is always `owner`.',
        response: { 200: answer(WorkspaceSchema, 'The workspace.') },
      },
    },
    async (req) => workspaceView(await deps.workspaces.get(callerOf(req).workspace.id)),
  );
}
