import type { RendersService } from '../../domain/renders/renders.service.js';
import type { RenderStatus } from '../../domain/renders/renders.rules.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer, errorResponses } from '../schemas/common.js';
import {
  ClipRenderPath,
  CreateRenderSchema,
  DownloadSchema,
  RenderLimitsSchema,
  RenderListQuery,
  RenderListSchema,
  RenderPath,
  RenderSchema,
} from '../schemas/render.schemas.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';

export interface RenderRoutesDeps {
  renders: RendersService;
}

/** Clip render, POST /renders, GET /renders/{renderId}, its download, and the render limits. */
export function renderRoutes(app: Api, deps: RenderRoutesDeps) {
  const tags = ['Renders'];
  const started = {
    200: answer(RenderSchema, 'An identical file already existed: `completed`, `from_cache: true`, `download_url` filled.'),
    202: answer(RenderSchema, 'Queued: poll GET /renders/{renderId} every 5 to 10 seconds.'),
  };
  const startDescription =
    '200 with `from_cache: true` and `download_url` when an identical unexpired file exists in the workspace; else 202 `queued`: poll GET /renders/{renderId} ' +
    'every 5 to 10 seconds. 429 RATE_LIMIT_EXCEEDED (Retry-After: 10) when the plan’s simultaneous renders (queued + active) are all in use; nothing is created.';

  app.post(
    '/clips/:videoId/submissions/:submissionId/clips/:clipId/render',
    {
      schema: {
        operationId: 'renderClip',
        tags,
        summary: 'Render a clip',
        description:
          `Renders the clip’s current edit to an MP4 (no body). ${startDescription} ` +
          '409 SUBMISSION_NOT_COMPLETED (`extra.status`) before the submission is `completed`.',
        params: ClipRenderPath,
        response: {
          ...started,
          ...errorResponses('EDITS_NOT_FOUND', 'SUBMISSION_NOT_FOUND', 'CLIP_NOT_FOUND', 'SUBMISSION_NOT_COMPLETED', 'SUBMISSION_EXPIRED'),
        },
      },
    },
    async (req, reply) => {
      const { videoId, submissionId, clipId } = req.params;
      const out = await deps.renders.renderClip(callerOf(req), videoId, submissionId, clipId);
      return reply.code(out.fromCache ? 200 : 202).send(out.render);
    },
  );

  app.get(
    '/renders',
    {
      schema: {
        operationId: 'listRenders',
        tags,
        summary: 'List renders',
        description:
          'Newest first; `status` filters (`queued` and `active` are the renders not finished). `download_url` is filled for completed renders, as in GET /renders/{renderId}.',
        querystring: RenderListQuery,
        response: { 200: answer(RenderListSchema, 'One page of renders.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.renders.list(callerOf(req).workspace.id, req.query.status as RenderStatus | undefined, page);
      return listResponse('renders', items, total, page);
    },
  );

  app.post(
    '/renders',
    {
      schema: {
        operationId: 'createRender',
        tags,
        summary: 'Render an edit',
        description:
          `Any edit of the workspace (a clip’s \`edit_id\`, an older one, one whose file expired). ${startDescription} ` +
          '`quality: "preview"` renders the same edit at 360 px on the short side, fast; it is cached apart from the final file. ' +
          '404 EDITS_NOT_FOUND (`extra.invalid_edits`) for an edit that is not the workspace’s.',
        body: CreateRenderSchema,
        response: { ...started, ...errorResponses('EDITS_NOT_FOUND') },
      },
    },
    async (req, reply) => {
      const out = await deps.renders.renderEdit(callerOf(req), req.body.edit_id, req.body.quality ?? 'final');
      return reply.code(out.fromCache ? 200 : 202).send(out.render);
    },
  );

  // Registered before /renders/:renderId for readability; the router prefers static segments anyway.
  app.get(
    '/renders/limits',
    {
      schema: {
        operationId: 'getRenderLimits',
        tags,
        summary: 'Get the render limits',
        description:
          'How long the plan keeps a rendered file (`render_expiry_hours`) and how many renders it allows queued or active at once (`max_concurrent_renders`; ' +
          'one more is 429), beside the workspace’s renders under way now.',
        response: { 200: answer(RenderLimitsSchema, 'The plan’s render limits.') },
      },
    },
    async (req) => deps.renders.limits(callerOf(req)),
  );

  app.get(
    '/renders/:renderId',
    {
      schema: {
        operationId: 'getRender',
        tags,
        summary: 'Get a render',
        description:
          'States: `queued`, `active` (`progress` 0 to 100), then `completed` (`download_url` filled: signed, valid one hour, no key) or `failed` (`error_code`); ' +
          'a completed render becomes `expired` after the plan’s `render_expiry_hours` (its edit stays: POST /renders with the `edit_id` makes a new file). ' +
          'Poll every 5 to 10 seconds.',
        params: RenderPath,
        response: { 200: answer(RenderSchema, 'The render.'), ...errorResponses('RENDER_NOT_FOUND') },
      },
    },
    async (req) => deps.renders.get(callerOf(req).workspace.id, req.params.renderId),
  );

  app.get(
    '/renders/:renderId/download',
    {
      schema: {
        operationId: 'downloadRender',
        tags,
        summary: 'Get the download URL of a render',
        description:
          'A signed URL of the MP4, valid one hour, needing no key, and its file name. 409 RENDER_NOT_READY (`extra.status`, `extra.progress`) while queued or active; ' +
          '409 RENDER_FAILED (`extra.error_code`) for a failed render; 410 RENDER_FILE_EXPIRED after the plan’s retention (POST /renders with its `edit_id` renders it again).',
        params: RenderPath,
        response: {
          200: answer(DownloadSchema, 'Where to download the MP4.'),
          ...errorResponses('RENDER_NOT_FOUND', 'RENDER_NOT_READY', 'RENDER_FAILED', 'RENDER_FILE_EXPIRED'),
        },
      },
    },
    async (req) => deps.renders.download(callerOf(req).workspace.id, req.params.renderId),
  );
}
