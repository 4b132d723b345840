import { Type } from '@sinclair/typebox';
import type { VideosService } from '../../domain/videos/videos.service.js';
import type { SubmissionsService } from '../../domain/submissions/submissions.service.js';
import type { ClipEditsService } from '../../domain/clips/clip-edits.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer, errorResponses } from '../schemas/common.js';
import { VideoAnalysisSchema } from '../schemas/video.schemas.js';
import {
  ClipListQuery,
  ClipListSchema,
  ClipPath,
  ClipReviewSchema,
  ClipSchema,
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
  const tags = ['Submissions'];
  app.post(
    '/clips/info',
    {
      config: { rateLimitGroup: 'analysis' },
      schema: {
        operationId: 'analyzeVideoLink',
        tags: ['Videos'],
        summary: 'Analyse a public video link',
        description:
          'Free, at most 10 per minute per key (on top of the general limit). Answers the title, duration and `credits_cost` of clipping the whole video; ' +
          'its `id` is the `video_id` of POST /clips. 422 for a valid link to a video that cannot be clipped: LIVE_STREAM (still on air), PLAYLIST_URL, ' +
          'CHANNEL_URL, SHORTS_NOT_SUPPORTED (already a vertical short), AUDIO_ONLY (no video track), INVALID_DURATION (under 1 minute or over the plan’s ' +
          'maximum), INVALID_URL (unsupported platform or wrong address; `extra.reason` names the rule, such as `private_address` for a loopback or private host, ' +
          '`scheme`, `unsupported_host`); 403 PRIVATE_VIDEO, AGE_RESTRICTED, REGION_BLOCKED; 400 PLATFORM_UNAVAILABLE ' +
          'when the platform cannot be reached now.',
        body: Type.Object(
          { url: Type.String({ minLength: 1, maxLength: 2048, description: 'A public video link: a platform page, a direct media file or an HLS playlist.' }) },
          { additionalProperties: false, examples: [{ url: 'https://media.cutroom.test/talks/keynote.mp4' }] },
        ),
        response: {
          200: answer(VideoAnalysisSchema, 'The video and the price of clipping all of it.'),
          ...errorResponses(
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
        operationId: 'createSubmission',
        tags,
        summary: 'Submit a video for clipping',
        description:
          'Clips the whole video, or the stretch `timeframe` (`start`, `end` in seconds: at least 1 minute, inside the video, else 400 TIMEFRAME_OUT_OF_BOUNDS). ' +
          'Credits are deducted now, in proportion to the processed stretch (1 credit per minute, the plan’s discount applied; `credits_charged` is 0 under free usage); ' +
          'short of credits: 402 INSUFFICIENT_CREDITS with `credits_needed`, `current_balance` and `is_reclip` in `extra`. `strategy_id` and `template_id` come from ' +
          'GET /templates (404 STRATEGY_NOT_FOUND, TEMPLATE_NOT_FOUND otherwise); `source_language` is `auto` (default), `en` or `pt`. 409 VIDEO_ALREADY_PROCESSING ' +
          'while the same stretch of the same video is being clipped. Answers 201 `queued`: poll GET /clips/{videoId}/submissions/{submissionId} every 10 to 15 seconds.',
        body: CreateSubmissionSchema,
        response: {
          201: answer(CreatedSubmissionSchema, 'The submission, queued and charged.'),
          ...errorResponses(
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
        operationId: 'listSubmissions',
        tags,
        summary: 'List submissions',
        description:
          'Newest first, including those made by video monitors (`monitor_id` set; null for POST /clips). `status`, `video_id` and `monitor_id` filter the list. ' +
          'A live monitor’s batches are not submissions of this list: their clips are read through GET /monitors/{id}/broadcasts/{broadcastId}/clips.',
        querystring: SubmissionListQuery,
        response: { 200: answer(SubmissionListSchema, 'One page of submissions.') },
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
    {
      schema: {
        operationId: 'getSubmission',
        tags,
        summary: 'Get a submission',
        description:
          'States, in order: `queued` (with `queue_position`), `downloading`, `transcribing`, `video_analysis`, `analyzing`, `finalizing` (each with `estimated_time`), ' +
          'then `completed` (`clips_count` filled) or `failed` (`error_code` set, credits refunded). While the source does not fully exist yet `waiting_reason` is set ' +
          '(`SOURCE_PREMIERE_SCHEDULED` with `waiting_until`, `SOURCE_LIVE_IN_PROGRESS`, `SOURCE_VOD_PROCESSING`) and the job resumes by itself. ' +
          'Poll every 10 to 15 seconds.',
        params: SubmissionPath,
        response: { 200: answer(SubmissionSchema, 'The submission.'), ...errorResponses('SUBMISSION_NOT_FOUND', 'SUBMISSION_EXPIRED') },
      },
    },
    async (req) => deps.submissions.view(await deps.submissions.get(callerOf(req).workspace.id, req.params.videoId, req.params.submissionId)),
  );

  app.delete(
    '/clips/:videoId/submissions/:submissionId',
    {
      schema: {
        operationId: 'deleteSubmission',
        tags,
        summary: 'Delete a submission that waits for its source',
        description:
          'Only while `waiting_reason` is set (the source does not fully exist yet): the submission is removed and its credits refunded. ' +
          'Otherwise 409 SUBMISSION_NOT_WAITING: its work is under way or finished.',
        params: SubmissionPath,
        response: {
          200: answer(
            Type.Object({ id: Type.String(), deleted: Type.Boolean(), credits_refunded: Type.Integer() }, { $id: 'DeletedSubmission' }),
            'Removed and refunded.',
          ),
          ...errorResponses('SUBMISSION_NOT_FOUND', 'SUBMISSION_NOT_WAITING', 'SUBMISSION_EXPIRED'),
        },
      },
    },
    async (req) => deps.submissions.cancelWaiting(callerOf(req).workspace.id, req.params.videoId, req.params.submissionId),
  );

  app.get(
    '/clips/:videoId/submissions/:submissionId/clips',
    {
      schema: {
        operationId: 'listClips',
        tags,
        summary: 'List the clips of a submission',
        description:
          'Sorted by `rating` (default), `start_time` or `created_at`, `desc` (default) or `asc`; empty until the submission is `completed`. ' +
          '`play_url` streams a preview (Range requests) and `download_url` downloads it: both are signed, valid one hour, and need no key. ' +
          '`edit_id` is the clip’s current edit, for POST /renders and POST /posts.',
        params: SubmissionPath,
        querystring: ClipListQuery,
        response: { 200: answer(ClipListSchema, 'One page of clips.'), ...errorResponses('SUBMISSION_NOT_FOUND', 'SUBMISSION_EXPIRED') },
      },
    },
    async (req) => {
      const ws = callerOf(req).workspace.id;
      const sub = await deps.submissions.get(ws, req.params.videoId, req.params.submissionId);
      const page = pageRequest(req.query);
      const { rows, total } = await deps.submissions.clipsOf(ws, sub.id, req.query.sort ?? 'rating', req.query.order ?? 'desc', page, req.query.review);
      return listResponse('clips', await Promise.all(rows.map((r) => deps.submissions.clipView(r))), total, page);
    },
  );

  app.patch(
    '/clips/:videoId/submissions/:submissionId/clips/:clipId',
    {
      schema: {
        operationId: 'setClipReview',
        tags,
        summary: 'Review a clip',
        description:
          'Cutroom’s addition. Sets the clip’s `review`: `kept`, `skipped`, or null (not reviewed); the clip list filters by it (`review=kept|skipped|none`). ' +
          'Answers the Clip. 404 SUBMISSION_NOT_FOUND, CLIP_NOT_FOUND.',
        params: ClipPath,
        body: ClipReviewSchema,
        response: { 200: answer(ClipSchema, 'The clip.'), ...errorResponses('SUBMISSION_NOT_FOUND', 'CLIP_NOT_FOUND', 'SUBMISSION_EXPIRED') },
      },
    },
    async (req) => {
      const { videoId, submissionId, clipId } = req.params;
      return deps.submissions.setClipReview(callerOf(req).workspace.id, videoId, submissionId, clipId, req.body.review);
    },
  );

  app.post(
    '/clips/:videoId/submissions/:submissionId/apply_template',
    {
      schema: {
        operationId: 'applyTemplate',
        tags,
        summary: 'Apply a template to every clip of a submission',
        description:
          'Each clip of a `completed` submission gets a new edit with the template (edits never change) and `has_template_applied: true`; render a clip again ' +
          'to get the new look. 404 TEMPLATE_NOT_FOUND for an id that is neither a built-in template nor the workspace’s own; 409 SUBMISSION_NOT_COMPLETED ' +
          '(`extra.status`) before the submission is `completed`.',
        params: SubmissionPath,
        body: ApplyTemplateSchema,
        response: {
          200: answer(AppliedTemplateSchema, 'The clips and their new edits.'),
          ...errorResponses('SUBMISSION_NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'SUBMISSION_NOT_COMPLETED', 'SUBMISSION_EXPIRED'),
        },
      },
    },
    async (req) => deps.clipEdits.applyTemplate(callerOf(req).workspace.id, req.params.videoId, req.params.submissionId, req.body.template_id),
  );
}
