import { Type } from '@sinclair/typebox';
import { IsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';

export const RenderSchema = Type.Object(
  {
    id: Type.String(),
    edit_id: Type.String({ description: 'The edit; it never expires.' }),
    status: Type.Union(
      ['queued', 'active', 'completed', 'expired', 'failed'].map((s) => Type.Literal(s)),
      {
        description: '`failed` (with `error_code`) is Cutroom’s failure state; see docs/api-decisions.md.',
      },
    ),
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    output_resolution: Type.String({ description: '`1080p` or `720p` (short side of the output); `360p` for a preview.' }),
    quality: Type.Union([Type.Literal('final'), Type.Literal('preview')], {
      description: 'Cutroom’s addition: `final` (the edit’s resolution) or `preview` (360 px on the short side, fast, cached apart from the final file).',
    }),
    has_watermark: Type.Boolean(),
    from_cache: Type.Boolean({ description: 'True when an identical file already existed.' }),
    download_url: Type.Union([Type.String(), Type.Null()], {
      description: 'Signed MP4 URL valid one hour, filled whenever the render is `completed` (always when `from_cache`); null otherwise.',
    }),
    error_code: Type.Union([Type.String(), Type.Null()], { description: 'Set when `failed`.' }),
    created_at: IsoDate,
    expires_at: Type.Union([IsoDate, Type.Null()], { description: 'When the file is deleted (completed renders); null before.' }),
  },
  { $id: 'Render' },
);

export const RenderListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  status: Type.Optional(Type.Union(['queued', 'active', 'completed', 'expired', 'failed'].map((s) => Type.Literal(s)))),
});

export const RenderListSchema = Type.Object(
  { renders: Type.Array(RenderSchema, { description: 'Newest first.' }), pagination: PaginationSchema },
  { $id: 'RenderList' },
);

export const RenderPath = Type.Object({ renderId: Type.String({ minLength: 1, maxLength: 100 }) });

export const ClipRenderPath = Type.Object({
  videoId: Type.String({ minLength: 1, maxLength: 100 }),
  submissionId: Type.String({ minLength: 1, maxLength: 100 }),
  clipId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const CreateRenderSchema = Type.Object(
  {
    edit_id: Type.String({ minLength: 1, maxLength: 100 }),
    quality: Type.Optional(
      Type.Union([Type.Literal('final'), Type.Literal('preview')], {
        default: 'final',
        description:
          'Cutroom’s addition. `final` (default): the edit at its resolution. `preview`: the same edit, framed, cut and captioned the same, at 360 px on the ' +
          'short side (360x640 for 9:16), encoded fast; cached per edit apart from the final file.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ edit_id: 'edit_p4w8n1r6t2y9u3i7o5a0', quality: 'final' }] },
);

export const DownloadSchema = Type.Object(
  {
    url: Type.String({ description: 'Signed, valid one hour; no API key.' }),
    filename: Type.String({ description: 'Ends in .mp4.' }),
  },
  { $id: 'RenderDownload' },
);

export const RenderLimitsSchema = Type.Object(
  {
    render_expiry_hours: Type.Number({ description: 'Hours a rendered file is kept after completion.' }),
    max_concurrent_renders: Type.Integer({ description: 'Renders the plan allows queued or active at once; one more answers 429.' }),
    active_renders: Type.Integer({ description: 'Renders of the workspace queued or active now.' }),
  },
  { $id: 'RenderLimits' },
);

export const ApplyTemplateSchema = Type.Object(
  { template_id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false, examples: [{ template_id: 'tpl_bold_pop' }] },
);

export const AppliedTemplateSchema = Type.Object(
  {
    submission_id: Type.String(),
    template_id: Type.String(),
    clips: Type.Array(Type.Object({ id: Type.String(), edit_id: Type.String({ description: 'The clip’s new edit.' }) })),
  },
  { $id: 'AppliedTemplate' },
);
