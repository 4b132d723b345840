import type { GenerationsService } from '../../domain/generations/generations.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { ModelIdPath, ModelPutSchema } from '../schemas/generation.schemas.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';

export interface AdminGenerationModelRoutesDeps {
  generations: GenerationsService;
}

/** /admin/v1/generation-models: the generation catalog (docs/generations.md, docs/admin.md). */
export function adminGenerationModelRoutes(app: Api, deps: AdminGenerationModelRoutesDeps) {
  const hide = true;
  app.get('/generation-models', { schema: { hide, querystring: PageQuery } }, async (req) => {
    const page = pageRequest(req.query);
    const { items, total } = await deps.generations.adminList(page);
    return listResponse('models', items, total, page);
  });

  app.get('/generation-models/:id', { schema: { hide, params: ModelIdPath } }, async (req) => deps.generations.adminGet(req.params.id));

  // Creates or replaces the entry: 201 when new, 200 when replaced. The key is sealed and never answered.
  app.put('/generation-models/:id', { schema: { hide, params: ModelIdPath, body: ModelPutSchema } }, async (req, reply) => {
    const out = await deps.generations.adminPut(req.params.id, req.body);
    return reply.code(out.created ? 201 : 200).send(out.model);
  });

  app.delete('/generation-models/:id', { schema: { hide, params: ModelIdPath } }, async (req, reply) => {
    await deps.generations.adminDelete(req.params.id);
    return reply.code(204).send();
  });
}
