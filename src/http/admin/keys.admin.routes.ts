import { Type } from '@sinclair/typebox';
import type { ApiKeysService } from '../../domain/auth/api-keys.service.js';
import { DomainError } from '../../domain/errors.js';
import type { Api } from '../types.js';

export interface AdminKeyRoutesDeps {
  apiKeys: ApiKeysService;
}

/** /admin/v1/keys: issue (shown once) and revoke API keys. */
export function adminKeyRoutes(app: Api, deps: AdminKeyRoutesDeps) {
  app.post(
    '/keys',
    {
      schema: {
        hide: true,
        body: Type.Object(
          {
            workspace_ids: Type.Array(Type.String(), { minItems: 1, maxItems: 100 }),
            expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
            label: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const expiresAt = req.body.expires_at ? new Date(req.body.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) {
        throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'expires_at', rule: 'future' }] });
      }
      const { id, key } = await deps.apiKeys.create({ workspaceIds: req.body.workspace_ids, expiresAt, label: req.body.label });
      return reply.code(201).send({
        id,
        key,
        workspace_ids: [...new Set(req.body.workspace_ids)],
        expires_at: expiresAt ? expiresAt.toISOString() : null,
      });
    },
  );

  app.delete('/keys/:id', { schema: { hide: true, params: Type.Object({ id: Type.String() }) } }, async (req, reply) => {
    await deps.apiKeys.revoke(req.params.id);
    return reply.code(204).send();
  });
}
