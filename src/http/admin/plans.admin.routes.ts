import { Type } from '@sinclair/typebox';

import { planView, type PlansService } from '../../domain/plans/plans.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';

/** Largest value of the PostgreSQL `integer` columns; larger numbers were a 500 from the database. */
export const INT4_MAX = 2147483647;

export const PlanFieldsSchema = Type.Object(
  {
    is_free: Type.Optional(Type.Boolean()),
    max_video_duration: Type.Optional(Type.Integer({ minimum: 60, maximum: INT4_MAX, description: 'Seconds.' })),
    max_upload_size: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes.' })),
    render_expiry_hours: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    max_concurrent_renders: Type.Optional(Type.Integer({ minimum: 1, maximum: INT4_MAX })),
    daily_post_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX })),
    force_watermark: Type.Optional(Type.Boolean()),
    rate_limit_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: INT4_MAX })),
    analysis_rate_limit_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: INT4_MAX })),
    discount_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    transcription_credits_per_minute: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Credits per started minute of a transcription.' }),
    ),
    speaker_labels_credits_per_minute: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Surcharge per started minute when speaker labels are asked.' }),
    ),
    max_monitors: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'Monitors a workspace may keep (deleted ones do not count).' })),
    submission_retention_hours: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 876_000, description: "Hours a finished submission's source, clip previews and stage results are kept." }),
    ),
  },
  { additionalProperties: false },
);

const PlanName = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$' });

export interface AdminPlanRoutesDeps {
  plans: PlansService;
}

/** /admin/v1/plans */
export function adminPlanRoutes(app: Api, deps: AdminPlanRoutesDeps) {
  const schema = { hide: true };
  app.post(
    '/plans',
    { schema: { ...schema, body: Type.Composite([Type.Object({ name: PlanName }), PlanFieldsSchema], { additionalProperties: false }) } },
    async (req, reply) => {
      const { name, ...fields } = req.body;
      return reply.code(201).send(planView(await deps.plans.create(name, fields)));
    },
  );

  app.get('/plans', { schema: { ...schema, querystring: PageQuery } }, async (req) => {
    const page = pageRequest(req.query);
    const all = await deps.plans.list();
    return listResponse('plans', all.slice(page.offset, page.offset + page.limit).map(planView), all.length, page);
  });

  app.get('/plans/:name', { schema: { ...schema, params: Type.Object({ name: Type.String() }) } }, async (req) =>
    planView(await deps.plans.get(req.params.name)),
  );

  app.patch('/plans/:name', { schema: { ...schema, params: Type.Object({ name: Type.String() }), body: PlanFieldsSchema } }, async (req) =>
    planView(await deps.plans.update(req.params.name, req.body)),
  );
}
