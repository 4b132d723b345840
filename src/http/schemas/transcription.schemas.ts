import { Type } from '@sinclair/typebox';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';

const Nullable = (s: ReturnType<typeof Type.String>) => Type.Union([s, Type.Null()]);

export const MediaUploadRequestSchema = Type.Object(
  {
    file_name: Type.String({ minLength: 1, maxLength: 255, description: 'Audio: .mp3 .wav .m4a .aac .ogg .opus .flac; video: .mp4 .mov .webm .mkv.' }),
    file_size: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes; the PUT must send exactly this many.' }),
    content_type: Type.String({ minLength: 1, maxLength: 255, description: 'Must match the extension (audio/mpeg for .mp3, …); the PUT sends the same.' }),
  },
  { additionalProperties: false, examples: [{ file_name: 'interview.mp3', file_size: 7340032, content_type: 'audio/mpeg' }] },
);

export const MediaUploadAnswerSchema = Type.Object(
  {
    media_id: Type.String(),
    kind: Type.Union([Type.Literal('audio'), Type.Literal('video')]),
    upload_url: Type.String({
      description:
        'Signed; PUT the raw bytes with the declared Content-Type and no key. The first POST /transcriptions of the media completes the upload. ' +
        'An upload URL writes once: after the upload is completed, a PUT to it is 409 `UPLOAD_ALREADY_COMPLETED` (local storage) or has no effect (S3); the file measured at completion is the one processed and charged.',
    }),
    expires_in: Type.Integer({ description: 'Seconds (3600).' }),
  },
  { additionalProperties: false, $id: 'MediaUpload' },
);

export const CreateTranscriptionSchema = Type.Object(
  {
    media_id: Type.String({ minLength: 1, maxLength: 100 }),
    file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Names the downloads; default the uploaded file name.' })),
    file_size: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'When given, must equal the uploaded size.' })),
    speaker_labels: Type.Optional(Type.Boolean({ default: false })),
    speakers_expected: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10,
        description:
          'Beyond the spec: how many people speak, when you know (only with `speaker_labels`). The labels then use exactly that many speakers instead of an estimate; a result counted for another number is not reused.',
      }),
    ),
    source_language: Type.Optional(
      Type.String({
        pattern: '^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*)$',
        description: '`auto` (default) or an ISO 639-1 code such as `en`; the engine must support it.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ media_id: 'med_r5t8y1u4i7o0p3a6s9d2', speaker_labels: true, source_language: 'en' }] },
);

export const TranscriptionSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(['processing', 'ready', 'no_speech', 'failed'].map((s) => Type.Literal(s))),
    credits_charged: Type.Integer({ description: 'Credits taken: 0 on a cache hit, with no speech, under free usage and after a refund (failed).' }),
    media_id: Type.String(),
    file_name: Type.String(),
    speaker_labels: Type.Boolean(),
    speakers_expected: Type.Optional(Type.Integer({ description: 'As asked, when given.' })),
    source_language: Type.String({ description: '`auto` or the code asked for.' }),
    language: Nullable(Type.String({ description: 'Language transcribed; null until known.' })),
    from_cache: Type.Boolean({ description: 'True when an earlier transcription of the same bytes was reused.' }),
    error_code: Nullable(Type.String({ description: 'Set when `failed`.' })),
    created_at: IsoDate,
    finished_at: NullableIsoDate,
    stage: Type.Optional(
      Type.Union(
        ['queued', 'extracting_audio', 'detecting_speech', 'recognising', 'labelling_speakers'].map((s) => Type.Literal(s)),
        {
          description:
            'Beyond the spec, while `processing`: the step under way (`queued` until a worker takes the job; `labelling_speakers` only with speaker labels).',
        },
      ),
    ),
    progress: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          'Beyond the spec, while `processing`: how far the transcription is, 0 to 1, an estimate (the steps done by their usual share, the current one by the clock).',
      }),
    ),
    estimated_time: Type.Optional(Type.Integer({ description: 'Beyond the spec, while `processing`: seconds left, an estimate.' })),
  },
  { $id: 'Transcription' },
);

export const TranscriptionListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  status: Type.Optional(Type.Union(['processing', 'ready', 'no_speech', 'failed'].map((s) => Type.Literal(s)))),
  media_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const TranscriptionListSchema = Type.Object(
  { transcriptions: Type.Array(TranscriptionSchema), pagination: PaginationSchema },
  { $id: 'TranscriptionList' },
);

export const TranscriptionPath = Type.Object({ transcriptionId: Type.String({ minLength: 1, maxLength: 100 }) });

export const TranscriptSchema = Type.Object(
  {
    language: Type.String({ description: 'ISO 639-1; `und` for no speech when no language was asked.' }),
    speaker_labels: Type.Boolean(),
    cues: Type.Array(
      Type.Object({
        start: Type.Number(),
        end: Type.Number(),
        text: Type.String({ description: 'At most 2 lines of 42 characters, joined with \\n.' }),
        speaker: Type.Optional(Type.String({ description: 'A, B, … when speaker labels were asked.' })),
      }),
    ),
    words: Type.Array(
      Type.Object({
        text: Type.String({ description: 'The word as the cues show it, punctuation after it included.' }),
        start: Type.Number({ description: 'Seconds from the start of the media; inside the word’s cue.' }),
        end: Type.Number(),
        confidence: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
          description: 'The recogniser’s confidence in the word, 0 to 1; null when the engine reports none.',
        }),
        speaker: Type.Optional(Type.String({ description: 'A, B, … when speaker labels were asked.' })),
      }),
      {
        description: 'Every recognised word in time order (beyond the spec, additive). Empty for no speech and for transcriptions made before words were kept.',
      },
    ),
    text: Type.String({ description: 'The whole text: the cues’ lines joined with spaces (beyond the spec, additive).' }),
  },
  { $id: 'Transcript' },
);

export const DownloadQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('srt'), Type.Literal('vtt'), Type.Literal('txt')], { default: 'srt' })),
  speakers: Type.Optional(Type.Boolean({ default: true, description: '`false` removes speaker names.' })),
});

export const TranscriptionPricesSchema = Type.Object(
  {
    per_minute: Type.Integer({ minimum: 0, description: 'Credits per started minute of the file’s measured duration (at least one minute).' }),
    speaker_labels_per_minute: Type.Integer({ minimum: 0, description: 'Added per started minute when `speaker_labels` is asked.' }),
    discount_applies: Type.Literal(false, { description: 'The plan’s `discount_percent` does not apply to transcriptions.' }),
    free_usage: Type.Boolean({ description: 'True while the workspace is on free usage: transcriptions are then not charged.' }),
  },
  { $id: 'TranscriptionPrices' },
);

export const DeletedTranscriptionSchema = Type.Object({ id: Type.String(), deleted: Type.Literal(true) }, { $id: 'DeletedTranscription' });
