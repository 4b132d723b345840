import type { RendersService } from '../../domain/renders/renders.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { ClipRenderPath, CreateRenderSchema, DownloadSchema, RenderLimitsSchema, RenderPath, RenderSchema } from '../schemas/render.schemas.js';

const RENDER_START_ERRORS = [...AUTH_ERRORS, 'EDITS_NOT_FOUND'] as const;

export interface RenderRoutesDeps {
  renders: RendersService;
}

/** Clip render, POST /renders, GET /renders/{renderId}, its download, and the render limits. */
export function renderRoutes(app: Api, deps: RenderRoutesDeps) {
  const tags = ['Renders'];
  const started = { 200: RenderSchema, 202: RenderSchema };
  const startDescription =
    '200 with `from_cache: true` and `download_url` when an identical unexpired file exists in the workspace; else 202 `queued`. ' +
    '429 RATE_LIMIT_EXCEEDED (Retry-After: 10) when the plan’s simultaneous renders (queued + active) are all in use; nothing is created.';

  app.post(
    '/clips/:videoId/submissions/:submissionId/clips/:clipId/render',
    {
      schema: {
        tags,
        summary: 'Render a clip’s current edit to an MP4',
        description: startDescription,
        params: ClipRenderPath,
        response: { ...started, ...errorResponses(...RENDER_START_ERRORS, 'SUBMISSION_NOT_FOUND', 'CLIP_NOT_FOUND', 'SUBMISSION_NOT_COMPLETED') },
      },
    },
    async (req, reply) => {
      const { videoId, submissionId, clipId } = req.params;
      const out = await deps.renders.renderClip(callerOf(req), videoId, submissionId, clipId);
      return reply.code(out.fromCache ? 200 : 202).send(out.render);
    },
  );

  app.post(
    '/renders',
    {
      schema: {
        tags,
        summary: 'Render any edit of the workspace (also after its file expired)',
        description: startDescription,
        body: CreateRenderSchema,
        response: { ...started, ...errorResponses(...RENDER_START_ERRORS) },
      },
    },
    async (req, reply) => {
      const out = await deps.renders.renderEdit(callerOf(req), req.body.edit_id);
      return reply.code(out.fromCache ? 200 : 202).send(out.render);
    },
  );

  // Registered before /renders/:renderId for readability; the router prefers static segments anyway.
  app.get(
    '/renders/limits',
    {
      schema: {
        tags,
        summary: 'Render retention and the simultaneous-render allowance of the plan',
        response: { 200: RenderLimitsSchema, ...errorResponses(...AUTH_ERRORS) },
      },
    },
    async (req) => deps.renders.limits(callerOf(req)),
  );

  app.get(
    '/renders/:renderId',
    { schema: { tags, summary: 'A render; poll it until `completed`', params: RenderPath, response: { 200: RenderSchema, ...errorResponses(...AUTH_ERRORS, 'RENDER_NOT_FOUND') } } },
    async (req) => deps.renders.get(callerOf(req).workspace.id, req.params.renderId),
  );

  app.get(
    '/renders/:renderId/download',
    {
      schema: {
        tags,
        summary: 'A signed download URL of the MP4 (valid one hour)',
        description: '409 RENDER_NOT_READY while queued or active; 409 RENDER_FAILED for a failed render; 410 RENDER_FILE_EXPIRED after the retention.',
        params: RenderPath,
        response: { 200: DownloadSchema, ...errorResponses(...AUTH_ERRORS, 'RENDER_NOT_FOUND', 'RENDER_NOT_READY', 'RENDER_FAILED', 'RENDER_FILE_EXPIRED') },
      },
    },
    async (req) => deps.renders.download(callerOf(req).workspace.id, req.params.renderId),
  );
}
