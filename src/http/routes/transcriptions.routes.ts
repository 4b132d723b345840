import type { TranscriptionsService } from '../../domain/transcriptions/transcriptions.service.js';
import type { Api } from '../types.js';
import { isFreeUsageActive } from '../../domain/credits/credits.rules.js';
import { callerOf } from '../plugins/auth.js';
import { answer, errorResponses } from '../schemas/common.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { contentDisposition } from '../../shared/content-disposition.js';
import {
  CreateTranscriptionSchema,
  DeletedTranscriptionSchema,
  DownloadQuery,
  MediaUploadAnswerSchema,
  MediaUploadRequestSchema,
  TranscriptionListQuery,
  TranscriptionListSchema,
  TranscriptionPath,
  TranscriptionPricesSchema,
  TranscriptionSchema,
  TranscriptSchema,
} from '../schemas/transcription.schemas.js';

const NOT_FINISHED = ['TRANSCRIPTION_NOT_FOUND', 'TRANSCRIPTION_NOT_READY', 'TRANSCRIPTION_FAILED'] as const;

export interface TranscriptionRoutesDeps {
  transcriptions: TranscriptionsService;
}

/** Standalone transcription: upload, create, get, transcript, download, delete, list (docs/transcription.md#api). */
export function transcriptionRoutes(app: Api, deps: TranscriptionRoutesDeps) {
  const tags = ['Transcriptions'];

  app.post(
    '/transcriptions/upload',
    {
      schema: {
        operationId: 'createTranscriptionUpload',
        tags,
        summary: 'Declare a file to transcribe',
        description:
          'An audio (.mp3 .wav .m4a .aac .ogg .opus .flac) or video (.mp4 .mov .webm .mkv) file with a matching `content_type`; `file_size` in bytes decides ' +
          'the plan and storage fit. Answers a `media_id` and a signed `upload_url` (valid one hour): PUT the raw bytes there with the declared Content-Type and no key, ' +
          'then POST /transcriptions. Above the plan’s maximum upload size (and above 5 GB, the single-PUT ceiling): 413 FILE_TOO_LARGE with `extra.max_size`.',
        body: MediaUploadRequestSchema,
        response: { 200: answer(MediaUploadAnswerSchema, 'Where to send the bytes.'), ...errorResponses('FILE_TOO_LARGE') },
      },
    },
    async (req) => deps.transcriptions.createUpload(callerOf(req), req.body),
  );

  app.post(
    '/transcriptions',
    {
      schema: {
        operationId: 'createTranscription',
        tags,
        summary: 'Transcribe an uploaded file',
        description:
          'Charged per started minute of audio, plus a surcharge per minute when `speaker_labels` is asked (402 INSUFFICIENT_CREDITS when short). ' +
          'Send `source_language` when known: short audio is often detected wrongly. 202 `processing` when work starts (charged per started minute, plus the speaker-labels surcharge) or when the same work is already under way (that transcription is answered); ' +
          '200 `ready` with `credits_charged: 0` when the same bytes were already transcribed in the workspace with labels covering the request; ' +
          '200 `no_speech` (no charge) when nobody talks. Asking labels after a run without them transcribes and charges again. ' +
          'Poll GET /transcriptions/{transcriptionId} every 5 to 10 seconds.',
        body: CreateTranscriptionSchema,
        response: {
          200: answer(TranscriptionSchema, 'Done already: `ready` from an earlier transcription of the same bytes (no charge), or `no_speech`.'),
          202: answer(TranscriptionSchema, 'Started (or already under way): `processing`.'),
          ...errorResponses('INSUFFICIENT_CREDITS', 'MEDIA_NOT_FOUND', 'FILE_NOT_FOUND', 'VIDEO_TOO_LONG'),
        },
      },
    },
    async (req, reply) => {
      const out = await deps.transcriptions.create(callerOf(req), req.body);
      return reply.code(out.started ? 202 : 200).send(out.transcription);
    },
  );

  app.get(
    '/transcriptions',
    {
      schema: {
        operationId: 'listTranscriptions',
        tags,
        summary: 'List transcriptions',
        description: 'The workspace’s transcriptions, newest first, deleted ones left out. `status` and `media_id` filter the list.',
        querystring: TranscriptionListQuery,
        response: { 200: answer(TranscriptionListSchema, 'One page of transcriptions.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.transcriptions.list(callerOf(req).workspace.id, { status: req.query.status, media_id: req.query.media_id }, page);
      return listResponse('transcriptions', items, total, page);
    },
  );

  app.get(
    '/transcriptions/prices',
    {
      schema: {
        operationId: 'getTranscriptionPrices',
        tags,
        summary: 'The plan’s transcription prices',
        description:
          'What POST /transcriptions charges, to quote it before asking: started minutes of the measured duration (at least 1) × (`per_minute` + ' +
          '`speaker_labels_per_minute` when `speaker_labels` is asked). Nothing under free usage, a cache hit or no speech.',
        response: { 200: answer(TranscriptionPricesSchema, 'The prices of the caller’s plan.') },
      },
    },
    async (req) => {
      const { plan, workspace } = callerOf(req);
      return {
        per_minute: plan.transcriptionCreditsPerMinute,
        speaker_labels_per_minute: plan.speakerLabelsCreditsPerMinute,
        discount_applies: false as const,
        free_usage: isFreeUsageActive(workspace),
      };
    },
  );

  app.get(
    '/transcriptions/:transcriptionId',
    {
      schema: {
        operationId: 'getTranscription',
        tags,
        summary: 'Get a transcription',
        description:
          'States: `processing`, then `ready`, `no_speech` (nobody talks; no charge) or `failed` (`error_code`; the charge is refunded). ' +
          'Poll every 5 to 10 seconds until it leaves `processing`.',
        params: TranscriptionPath,
        response: { 200: answer(TranscriptionSchema, 'The transcription.'), ...errorResponses('TRANSCRIPTION_NOT_FOUND') },
      },
    },
    async (req) => deps.transcriptions.get(callerOf(req).workspace.id, req.params.transcriptionId),
  );

  app.get(
    '/transcriptions/:transcriptionId/transcript',
    {
      schema: {
        operationId: 'getTranscript',
        tags,
        summary: 'Get the transcript of a transcription',
        description: '409 TRANSCRIPTION_NOT_READY while processing; 409 TRANSCRIPTION_FAILED (`extra.error_code`) when failed; `no_speech` answers empty cues.',
        params: TranscriptionPath,
        response: { 200: answer(TranscriptSchema, 'The language, whether speakers are labelled, and the timed cues.'), ...errorResponses(...NOT_FINISHED) },
      },
    },
    async (req) => deps.transcriptions.transcript(callerOf(req).workspace.id, req.params.transcriptionId),
  );

  app.get(
    '/transcriptions/:transcriptionId/download',
    {
      schema: {
        operationId: 'downloadTranscription',
        tags,
        summary: 'Download the transcript as SRT, WebVTT or text',
        description:
          'The body is the file itself with its Content-Type and `Content-Disposition: attachment; filename=…`. `speakers=false` removes speaker names. ' +
          '409 TRANSCRIPTION_NOT_READY while processing; 409 TRANSCRIPTION_FAILED when failed; `no_speech` gives an empty file.',
        params: TranscriptionPath,
        querystring: DownloadQuery,
        produces: ['application/x-subrip', 'text/vtt', 'text/plain'],
        response: {
          200: {
            description: 'The file (text).',
            content: {
              'application/x-subrip': { schema: { type: 'string' } },
              'text/vtt': { schema: { type: 'string' } },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          ...errorResponses(...NOT_FINISHED),
        },
      },
    },
    async (req, reply) => {
      const file = await deps.transcriptions.download(
        callerOf(req).workspace.id,
        req.params.transcriptionId,
        req.query.format ?? 'srt',
        req.query.speakers ?? true,
      );
      return reply.type(file.contentType).header('content-disposition', contentDisposition(file.fileName)).send(file.body);
    },
  );

  app.delete(
    '/transcriptions/:transcriptionId',
    {
      schema: {
        operationId: 'deleteTranscription',
        tags,
        summary: 'Delete a transcription',
        description:
          'The media stays, and so does the result: the same POST /transcriptions again is a cache hit (200, no charge). A transcription still processing keeps running and stays charged.',
        params: TranscriptionPath,
        response: { 200: answer(DeletedTranscriptionSchema, 'Removed from the listings.'), ...errorResponses('TRANSCRIPTION_NOT_FOUND') },
      },
    },
    async (req) => deps.transcriptions.remove(callerOf(req).workspace.id, req.params.transcriptionId),
  );
}
