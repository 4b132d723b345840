import { Type } from '@sinclair/typebox';

export const VideoAnalysisSchema = Type.Object(
  {
    id: Type.String({ description: 'Used as `video_id` in every later call.' }),
    title: Type.String(),
    author: Type.String(),
    platform: Type.String({ description: 'Source platform; `upload` for uploaded files, `direct` for direct media links.' }),
    duration: Type.Number({ description: 'Seconds.' }),
    credits_cost: Type.Integer({ description: 'Cost of clipping the whole video.' }),
    current_balance: Type.Integer(),
    credits_unlimited: Type.Boolean(),
    force_watermark: Type.Boolean(),
    discount_percent: Type.Number(),
  },
  { $id: 'VideoAnalysis' },
);

export const UploadRequestSchema = Type.Object(
  {
    file_name: Type.String({ minLength: 1, maxLength: 255 }),
    file_size: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes.' }),
    content_type: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Matches the extension: video/mp4, video/quicktime, video/webm, video/x-matroska.',
    }),
    duration: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1e9,
        description:
          'Seconds, as the caller measured the file (optional): under 1 minute or over the plan’s maximum is refused at once (400 VIDEO_TOO_SHORT / VIDEO_TOO_LONG) instead of after the upload. The service still measures the file at completion.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ file_name: 'keynote.mp4', file_size: 48213004, content_type: 'video/mp4' }] },
);

export const UploadPartSchema = Type.Object(
  {
    part_number: Type.Integer({ description: 'From 1.' }),
    url: Type.String({ description: 'Signed; PUT this part’s bytes, no key.' }),
    size: Type.Integer({ description: 'Bytes of this part.' }),
  },
  { $id: 'UploadPart' },
);

export const UploadAnswerSchema = Type.Union(
  [
    Type.Object({ video_id: Type.String(), upload_url: Type.String(), expires_in: Type.Integer() }, { additionalProperties: false }),
    Type.Object(
      {
        video_id: Type.String(),
        mode: Type.Literal('multipart'),
        part_size: Type.Integer({ description: 'Bytes of every part but the last.' }),
        parts: Type.Array(UploadPartSchema),
        expires_in: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  ],
  {
    $id: 'VideoUpload',
    description:
      'One `upload_url`, or above the multipart threshold (5 GB) `mode: multipart` with one signed URL per part; POST /videos/upload/complete completes the upload. ' +
      'An upload URL writes once: after the upload is completed, a PUT to it is 409 `UPLOAD_ALREADY_COMPLETED` (local storage) or has no effect (S3); the file measured at completion is the one processed and charged.',
  },
);

export const UploadCompleteSchema = Type.Object(
  {
    video_id: Type.String({ minLength: 1 }),
    file_name: Type.String({ minLength: 1, maxLength: 255 }),
    duration: Type.Optional(Type.Number({ minimum: 0, description: 'Measured by the caller; the service measures again and uses its own value.' })),
    width: Type.Optional(Type.Integer({ minimum: 0 })),
    height: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false, examples: [{ video_id: 'vid_k3v9q2m7x1c8d4f6h0j5', file_name: 'keynote.mp4' }] },
);
