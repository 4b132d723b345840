import type { TranscriptionsService } from '../../domain/transcriptions/transcriptions.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
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
        tags,
        summary: 'Declare an audio or video file to transcribe and get where to PUT its bytes',
        description: 'Above the plan’s `max_upload_size` (and above 5 GB, the single-PUT ceiling): 413 FILE_TOO_LARGE with `extra.max_size`.',
        body: MediaUploadRequestSchema,
        response: { 200: MediaUploadAnswerSchema, ...errorResponses(...AUTH_ERRORS, 'FILE_TOO_LARGE') },
      },
    },
    async (req) => deps.transcriptions.createUpload(callerOf(req), req.body),
  );

  app.post(
    '/transcriptions',
    {
      schema: {
        tags,
        summary: 'Transcribe an uploaded file',
        description:
          '202 `processing` when work starts (charged per started minute, plus the speaker-labels surcharge) or when the same work is already under way (that transcription is answered); ' +
          '200 `ready` with `credits_charged: 0` when the same bytes were already transcribed in the workspace with labels covering the request; ' +
          '200 `no_speech` (no charge) when nobody talks.',
        body: CreateTranscriptionSchema,
        response: {
          200: TranscriptionSchema,
          202: TranscriptionSchema,
          ...errorResponses(...AUTH_ERRORS, 'INSUFFICIENT_CREDITS', 'MEDIA_NOT_FOUND', 'FILE_NOT_FOUND', 'VIDEO_TOO_LONG'),
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
        tags,
        summary: 'The workspace’s transcriptions, newest first (deleted ones left out)',
        querystring: TranscriptionListQuery,
        response: { 200: TranscriptionListSchema, ...errorResponses(...AUTH_ERRORS) },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.transcriptions.list(callerOf(req).workspace.id, { status: req.query.status, media_id: req.query.media_id }, page);
      return listResponse('transcriptions', items, total, page);
    },
  );

  app.get(
    '/transcriptions/:transcriptionId',
    {
      schema: {
        tags,
        summary: 'A transcription; poll it until it leaves `processing`',
        params: TranscriptionPath,
        response: { 200: TranscriptionSchema, ...errorResponses(...AUTH_ERRORS, 'TRANSCRIPTION_NOT_FOUND') },
      },
    },
    async (req) => deps.transcriptions.get(callerOf(req).workspace.id, req.params.transcriptionId),
  );

  app.get(
    '/transcriptions/:transcriptionId/transcript',
    {
      schema: {
        tags,
        summary: 'The transcript: language, speaker_labels and timed cues',
        description: '409 TRANSCRIPTION_NOT_READY while processing; 409 TRANSCRIPTION_FAILED (`extra.error_code`) when failed; `no_speech` answers empty cues.',
        params: TranscriptionPath,
        response: { 200: TranscriptSchema, ...errorResponses(...AUTH_ERRORS, ...NOT_FINISHED) },
      },
    },
    async (req) => deps.transcriptions.transcript(callerOf(req).workspace.id, req.params.transcriptionId),
  );

  app.get(
    '/transcriptions/:transcriptionId/download',
    {
      schema: {
        tags,
        summary: 'The transcript as a file: SRT (default), WebVTT or plain text',
        description:
          'The body is the file itself with its Content-Type and `Content-Disposition: attachment; filename=…`. `speakers=false` removes speaker names. ' +
          '409 TRANSCRIPTION_NOT_READY while processing; 409 TRANSCRIPTION_FAILED when failed; `no_speech` gives an empty file.',
        params: TranscriptionPath,
        querystring: DownloadQuery,
        produces: ['application/x-subrip', 'text/vtt', 'text/plain'],
        response: {
          200: { description: 'The file (text).', content: { 'application/x-subrip': { schema: { type: 'string' } }, 'text/vtt': { schema: { type: 'string' } }, 'text/plain': { schema: { type: 'string' } } } },
          ...errorResponses(...AUTH_ERRORS, ...NOT_FINISHED),
        },
      },
    },
    async (req, reply) => {
      const file = await deps.transcriptions.download(callerOf(req).workspace.id, req.params.transcriptionId, req.query.format ?? 'srt', req.query.speakers ?? true);
      return reply.type(file.contentType).header('content-disposition', contentDisposition(file.fileName)).send(file.body);
    },
  );

  app.delete(
    '/transcriptions/:transcriptionId',
    {
      schema: {
        tags,
        summary: 'Remove a transcription from the listings',
        description: 'The media stays, and so does the result: the same POST /transcriptions again is a cache hit (200, no charge). A transcription still processing keeps running and stays charged.',
        params: TranscriptionPath,
        response: { 200: DeletedTranscriptionSchema, ...errorResponses(...AUTH_ERRORS, 'TRANSCRIPTION_NOT_FOUND') },
      },
    },
    async (req) => deps.transcriptions.remove(callerOf(req).workspace.id, req.params.transcriptionId),
  );
}
