import { Type } from '@sinclair/typebox';
import type { Container } from '../../main/container.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { VideoAnalysisSchema } from '../schemas/video.schemas.js';

/** /clips/* : link analysis (submissions and clips come with the clipping pipeline). */
export function clipRoutes(app: Api, c: Container) {
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
    async (req) => c.videos.analyzeLink(callerOf(req), req.body.url),
  );
}
