import type { VideosService } from '../../domain/videos/videos.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { UploadAnswerSchema, UploadCompleteSchema, UploadRequestSchema, VideoAnalysisSchema } from '../schemas/video.schemas.js';

export interface VideoRoutesDeps {
  videos: VideosService;
}

/** POST /videos/upload, POST /videos/upload/complete */
export function videoRoutes(app: Api, deps: VideoRoutesDeps) {
  const tags = ['Videos and submissions'];
  app.post(
    '/videos/upload',
    {
      schema: {
        tags,
        summary: 'Declare an upload and get where to PUT the bytes',
        body: UploadRequestSchema,
        response: { 200: UploadAnswerSchema, ...errorResponses(...AUTH_ERRORS, 'FILE_TOO_LARGE') },
      },
    },
    async (req) => deps.videos.createUpload(callerOf(req), req.body),
  );

  app.post(
    '/videos/upload/complete',
    {
      schema: {
        tags,
        summary: 'Register an uploaded file; the service probes it',
        body: UploadCompleteSchema,
        response: {
          200: VideoAnalysisSchema,
          ...errorResponses(...AUTH_ERRORS, 'VIDEO_TOO_SHORT', 'VIDEO_TOO_LONG', 'VIDEO_NOT_FOUND', 'FILE_NOT_FOUND'),
        },
      },
    },
    async (req) => deps.videos.completeUpload(callerOf(req), req.body),
  );
}
