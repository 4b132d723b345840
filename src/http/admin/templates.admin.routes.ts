import { Type } from '@sinclair/typebox';

import { templateView, type TemplatesService } from '../../domain/templates/templates.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { CreateTemplateBody, TemplateListQuery } from '../schemas/template.schemas.js';

const Id = Type.Object({ id: Type.String() });

export interface AdminTemplateRoutesDeps {
  templates: TemplatesService;
}

/** /admin/v1/workspaces/:id/templates: a workspace's custom templates and strategies (docs/admin.md). */
export function adminTemplateRoutes(app: Api, deps: AdminTemplateRoutesDeps) {
  const hide = true;
  app.post('/workspaces/:id/templates', { schema: { hide, params: Id, body: CreateTemplateBody } }, async (req, reply) => {
    const r = await deps.templates.create(req.params.id, { kind: req.body.kind, name: req.body.name, config: req.body.config });
    return reply.code(201).send(templateView(r));
  });

  app.get('/workspaces/:id/templates', { schema: { hide, params: Id, querystring: TemplateListQuery } }, async (req) => {
    const page = pageRequest(req.query);
    const { rows, total } = await deps.templates.listForWorkspace(req.params.id, { kind: req.query.kind, page });
    return listResponse('templates', rows.map(templateView), total, page);
  });

  app.delete(
    '/workspaces/:id/templates/:templateId',
    { schema: { hide, params: Type.Object({ id: Type.String(), templateId: Type.String() }) } },
    async (req, reply) => {
      await deps.templates.delete(req.params.id, req.params.templateId);
      return reply.code(204).send();
    },
  );
}
