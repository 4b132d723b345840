import { Type } from '@sinclair/typebox';
import type { VideosService } from '../../domain/videos/videos.service.js';
import type { SubmissionsService } from '../../domain/submissions/submissions.service.js';
import type { ClipEditsService } from '../../domain/clips/clip-edits.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { VideoAnalysisSchema } from '../schemas/video.schemas.js';
import {
  ClipListQuery,
  ClipListSchema,
  CreateSubmissionSchema,
  CreatedSubmissionSchema,
  SubmissionListQuery,
  SubmissionListSchema,
  SubmissionPath,
  SubmissionSchema,
} from '../schemas/submission.schemas.js';
import { AppliedTemplateSchema, ApplyTemplateSchema } from '../schemas/render.schemas.js';

export interface ClipRoutesDeps {
  videos: VideosService;
  submissions: SubmissionsService;
  clipEdits: ClipEditsService;
}

/** /clips/* : link analysis, submissions and their clips. */
export function clipRoutes(app: Api, deps: ClipRoutesDeps) {
  const tags = ['Videos and submissions'];
  app.post(
    '/clips/info',
    {
      config: { rateLimitGroup: 'analysis' },
      schema: {
        tags,
        summary: 'Analyse a public video link (free; 10 per minute per key)',
        body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false }),
        response: {
          200: VideoAnalysisSchema,
          ...errorResponses(
            ...AUTH_ERRORS,
            'PLATFORM_UNAVAILABLE',
            'PRIVATE_VIDEO',
            'AGE_RESTRICTED',
            'REGION_BLOCKED',
            'LIVE_STREAM',
            'PLAYLIST_URL',
            'CHANNEL_URL',
            'SHORTS_NOT_SUPPORTED',
            'AUDIO_ONLY',
            'INVALID_DURATION',
            'INVALID_URL',
          ),
        },
      },
    },
    async (req) => deps.videos.analyzeLink(callerOf(req), req.body.url),
  );

  app.post(
    '/clips',
    {
      schema: {
        tags,
        summary: 'Submit a video (or a stretch of it) for clipping; credits are deducted now',
        body: CreateSubmissionSchema,
        response: {
          201: CreatedSubmissionSchema,
          ...errorResponses(
            ...AUTH_ERRORS,
            'TIMEFRAME_OUT_OF_BOUNDS',
            'INSUFFICIENT_CREDITS',
            'VIDEO_NOT_FOUND',
            'FILE_NOT_FOUND',
            'STRATEGY_NOT_FOUND',
            'TEMPLATE_NOT_FOUND',
            'VIDEO_ALREADY_PROCESSING',
          ),
        },
      },
    },
    async (req, reply) => {
      const row = await deps.submissions.create(callerOf(req), req.body);
      return reply.code(201).send({ id: row.id, video_id: row.videoId, status: row.status, credits_charged: row.creditsCharged });
    },
  );

  app.get(
    '/clips',
    {
      schema: {
        tags,
        summary: 'List submissions, newest first (including those made by video monitors)',
        querystring: SubmissionListQuery,
        response: { 200: SubmissionListSchema, ...errorResponses(...AUTH_ERRORS) },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.submissions.list(callerOf(req).workspace.id, req.query, page);
      return listResponse('submissions', await Promise.all(rows.map((r) => deps.submissions.view(r))), total, page);
    },
  );

  app.get(
    '/clips/:videoId/submissions/:submissionId',
    { schema: { tags, params: SubmissionPath, response: { 200: SubmissionSchema, ...errorResponses(...AUTH_ERRORS, 'SUBMISSION_NOT_FOUND') } } },
    async (req) => deps.submissions.view(await deps.submissions.get(callerOf(req).workspace.id, req.params.videoId, req.params.submissionId)),
  );

  app.delete(
    '/clips/:videoId/submissions/:submissionId',
    {
      schema: {
        tags,
        summary: 'Remove a submission that waits for its source, refunding it',
        params: SubmissionPath,
        response: {
          200: Type.Object({ id: Type.String(), deleted: Type.Boolean(), credits_refunded: Type.Integer() }),
          ...errorResponses(...AUTH_ERRORS, 'SUBMISSION_NOT_FOUND', 'SUBMISSION_NOT_WAITING'),
        },
      },
    },
    async (req) => deps.submissions.cancelWaiting(callerOf(req).workspace.id, req.params.videoId, req.params.submissionId),
  );

  app.get(
    '/clips/:videoId/submissions/:submissionId/clips',
    {
      schema: {
        tags,
        params: SubmissionPath,
        querystring: ClipListQuery,
        response: { 200: ClipListSchema, ...errorResponses(...AUTH_ERRORS, 'SUBMISSION_NOT_FOUND') },
      },
    },
    async (req) => {
      const ws = callerOf(req).workspace.id;
      const sub = await deps.submissions.get(ws, req.params.videoId, req.params.submissionId);
      const page = pageRequest(req.query);
      const { rows, total } = await deps.submissions.clipsOf(ws, sub.id, req.query.sort ?? 'rating', req.query.order ?? 'desc', page);
      return listResponse('clips', await Promise.all(rows.map((r) => deps.submissions.clipView(r))), total, page);
    },
  );

  app.post(
    '/clips/:videoId/submissions/:submissionId/apply_template',
    {
      schema: {
        tags,
        summary: 'Apply one of the workspace’s templates to every clip of a completed submission',
        description: 'Each clip gets a new edit (edits never change) and `has_template_applied: true`; render a clip again to get the new look.',
        params: SubmissionPath,
        body: ApplyTemplateSchema,
        response: { 200: AppliedTemplateSchema, ...errorResponses(...AUTH_ERRORS, 'SUBMISSION_NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'SUBMISSION_NOT_COMPLETED') },
      },
    },
    async (req) => deps.clipEdits.applyTemplate(callerOf(req).workspace.id, req.params.videoId, req.params.submissionId, req.body.template_id),
  );
}
