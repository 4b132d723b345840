import type { VideosService } from '../../domain/videos/videos.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer, errorResponses } from '../schemas/common.js';
import { UploadAnswerSchema, UploadCompleteSchema, UploadRequestSchema, VideoAnalysisSchema } from '../schemas/video.schemas.js';

export interface VideoRoutesDeps {
  videos: VideosService;
}

/** POST /videos/upload, POST /videos/upload/complete */
export function videoRoutes(app: Api, deps: VideoRoutesDeps) {
  const tags = ['Videos'];
  app.post(
    '/videos/upload',
    {
      schema: {
        operationId: 'createVideoUpload',
        tags,
        summary: 'Declare a video upload',
        description:
          'Declares a file (`.mp4`, `.mov`, `.webm` or `.mkv` with a matching `content_type`; `file_size` in bytes) and answers where to send its bytes: ' +
          'one signed `upload_url`, or above the multipart threshold (5 GB) `mode: multipart` with one signed URL per part (`part_size` bytes each but the last). ' +
          'PUT the raw bytes there with the declared Content-Type and no key (URLs valid one hour, exactly the declared size), then POST /videos/upload/complete. ' +
          'Refused before any byte is sent, nothing created: an extension or `content_type` the service does not take → 400 VALIDATION_ERROR ' +
          '(`file_name` `extension` or `content_type` `media_type`, with the accepted values in `allowed`); above the plan’s maximum upload size → ' +
          '413 FILE_TOO_LARGE with `extra.max_size`; a declared `duration` under 1 minute or over the plan’s maximum → 400 VIDEO_TOO_SHORT or ' +
          'VIDEO_TOO_LONG with `duration`, `min_duration` and `max_duration`.',
        body: UploadRequestSchema,
        response: { 200: answer(UploadAnswerSchema, 'Where to send the bytes.'), ...errorResponses('FILE_TOO_LARGE', 'VIDEO_TOO_SHORT', 'VIDEO_TOO_LONG') },
      },
    },
    async (req) => deps.videos.createUpload(callerOf(req), req.body),
  );

  app.post(
    '/videos/upload/complete',
    {
      schema: {
        operationId: 'completeVideoUpload',
        tags,
        summary: 'Complete a video upload',
        description:
          'The service measures the uploaded file itself (a `duration`, `width` or `height` sent is not trusted) and answers the video’s metadata and ' +
          '`credits_cost`, like POST /clips/info; its `id` is the `video_id` of POST /clips. Completing again answers the same. ' +
          '404 FILE_NOT_FOUND when the bytes (or some parts) are not in storage; 400 VIDEO_TOO_SHORT (under 1 minute) or VIDEO_TOO_LONG (over the plan’s maximum) ' +
          'with the measured `duration`, `min_duration` and `max_duration` in `extra`; 400 VALIDATION_ERROR (`field: file`) for a file that is not an MP4/MOV or Matroska/WebM video. ' +
          'An upload URL writes once: after completion a PUT to it is refused (local storage) or has no effect (S3).',
        body: UploadCompleteSchema,
        response: {
          200: answer(VideoAnalysisSchema, 'The measured video and its price.'),
          ...errorResponses('VIDEO_TOO_SHORT', 'VIDEO_TOO_LONG', 'VIDEO_NOT_FOUND', 'FILE_NOT_FOUND'),
        },
      },
    },
    async (req) => deps.videos.completeUpload(callerOf(req), req.body),
  );
}
