import { templateView, type TemplatesService } from '../../domain/templates/templates.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer } from '../schemas/common.js';
import { TemplateListQuery, TemplateListSchema } from '../schemas/template.schemas.js';

export interface TemplateRoutesDeps {
  templates: TemplatesService;
}

/** GET /templates */
export function templateRoutes(app: Api, deps: TemplateRoutesDeps) {
  app.get(
    '/templates',
    {
      schema: {
        operationId: 'listTemplates',
        tags: ['Templates'],
        summary: 'List the templates and strategies the workspace can use',
        description:
          'Built-ins (shared by every workspace) first, then the workspace’s own, newest first. `kind` filters to templates or strategies. ' +
          'Use a template’s id as `template_id` and a strategy’s id as `strategy_id` in POST /clips.',
        querystring: TemplateListQuery,
        response: { 200: answer(TemplateListSchema, 'One page of templates and strategies.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.templates.list(callerOf(req).workspace.id, { kind: req.query.kind, page });
      return listResponse('templates', rows.map(templateView), total, page);
    },
  );
}
