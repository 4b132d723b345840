import { Type } from '@sinclair/typebox';
import { PaginationSchema } from './pagination.schemas.js';
import { IsoDate } from './common.js';
import { SteeringFields } from './steering.schemas.js';
import { SOURCE_LANGUAGES, SUBMISSION_STATES } from '../../domain/submissions/submission.rules.js';

export const SubmissionSchema = Type.Object(
  {
    id: Type.String(),
    video_id: Type.String(),
    status: Type.Union(SUBMISSION_STATES.map((s) => Type.Literal(s))),
    credits_charged: Type.Integer({ description: '0 under free usage.' }),
    error_code: Type.Union([Type.String(), Type.Null()], { description: 'Set when `failed`; see docs/api-decisions.md.' }),
    clips_count: Type.Integer(),
    queue_position: Type.Optional(Type.Integer({ description: 'While `queued`: 1 is next.' })),
    estimated_time: Type.Optional(
      Type.Integer({
        description: 'Seconds until done, an estimate: while `queued` (with the queue ahead) and while running (the stage and the time since it started).',
      }),
    ),
    stage: Type.Optional(
      Type.Union(
        SUBMISSION_STATES.filter((s) => ['downloading', 'transcribing', 'video_analysis', 'analyzing', 'finalizing'].includes(s)).map((s) => Type.Literal(s)),
        { description: 'Cutroom’s addition, while running (not while waiting for its source): the stage under way, the same as `status`.' },
      ),
    ),
    progress: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          'Cutroom’s addition, while running: how far the whole submission is, 0 to 1 (below 1 until it completes). The stages done count by their usual share of the time; the current one as far as it reports (video analysis, finalizing: the clips’ previews), else by the clock.',
      }),
    ),
    waiting_reason: Type.Optional(Type.String()),
    waiting_until: Type.Optional(IsoDate),
    monitor_id: Type.Union([Type.String(), Type.Null()], { description: 'The video monitor that made it (docs/monitors.md); null for POST /clips.' }),
    prompt: Type.Optional(Type.String({ description: 'Cutroom’s addition: the prompt the picks follow, when one was given.' })),
    keywords: Type.Optional(Type.Array(Type.String(), { description: 'Cutroom’s addition: the keywords, when given (trimmed, duplicates dropped).' })),
    clip_length: Type.Optional(
      Type.Object({ min: Type.Number(), max: Type.Number() }, { description: 'Cutroom’s addition: the clips’ length range, when given.' }),
    ),
    created_at: IsoDate,
  },
  { $id: 'Submission' },
);

export const CreateSubmissionSchema = Type.Object(
  {
    video_id: Type.String({ minLength: 1 }),
    timeframe: Type.Optional(
      Type.Object({ start: Type.Optional(Type.Number({ minimum: 0 })), end: Type.Optional(Type.Number({ minimum: 0 })) }, { additionalProperties: false }),
    ),
    strategy_id: Type.Optional(Type.String({ minLength: 1 })),
    template_id: Type.Optional(Type.String({ minLength: 1 })),
    source_language: Type.Optional(Type.Union(SOURCE_LANGUAGES.map((l) => Type.Literal(l)))),
    ...SteeringFields,
  },
  {
    additionalProperties: false,
    examples: [
      {
        video_id: 'vid_k3v9q2m7x1c8d4f6h0j5',
        timeframe: { start: 0, end: 600 },
        strategy_id: 'str_default',
        template_id: 'tpl_bold_pop',
        source_language: 'en',
      },
    ],
  },
);

export const CreatedSubmissionSchema = Type.Object(
  {
    id: Type.String(),
    video_id: Type.String(),
    status: Type.String({ description: '`queued`.' }),
    credits_charged: Type.Integer({ description: '0 under free usage.' }),
  },
  { $id: 'SubmissionCreated' },
);

export const SubmissionListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  status: Type.Optional(Type.Union(SUBMISSION_STATES.map((s) => Type.Literal(s)))),
  video_id: Type.Optional(Type.String()),
  monitor_id: Type.Optional(Type.String({ description: 'Only the submissions of this monitor.' })),
});

export const SubmissionListSchema = Type.Object({ submissions: Type.Array(SubmissionSchema), pagination: PaginationSchema }, { $id: 'SubmissionList' });

export const ClipSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    rating: Type.Number({
      description:
        '0 to 10; higher means more potential. The combination of `score_details` (weights in docs/highlights.md); with a prompt or keywords, ' +
        'half of it and half the clip’s relevance, every matching clip rated above every clip that matches nothing.',
    }),
    score_details: Type.Union(
      [
        Type.Object(
          {
            hook: Type.Number({ minimum: 0, maximum: 10, description: 'The first seconds make a viewer stay.' }),
            coherence: Type.Number({ minimum: 0, maximum: 10, description: 'It stands alone: starts and ends on a complete thought.' }),
            value: Type.Number({ minimum: 0, maximum: 10, description: 'Information, emotion or humour density.' }),
            delivery: Type.Number({ minimum: 0, maximum: 10, description: 'Pace and energy of the speech.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Cutroom’s addition: the sub-scores the rating is made of, each 0 to 10.' },
    ),
    reason: Type.String({
      description: 'Cutroom’s addition: one sentence on what the clip is about and why it scored as it did (empty on clips made before reasons).',
    }),
    matched: Type.Array(Type.String(), {
      description:
        'Cutroom’s addition: the keywords, or the words said that matched the prompt (its words or their synonyms); empty without a prompt or keywords.',
    }),
    start_time: Type.Number(),
    end_time: Type.Number(),
    language: Type.String(),
    play_url: Type.String({ description: 'Signed stream URL (Range requests), valid one hour.' }),
    download_url: Type.String({ description: 'Signed download URL, valid one hour.' }),
    has_template_applied: Type.Boolean(),
    edit_id: Type.Union([Type.String(), Type.Null()], { description: 'The clip’s current edit (for POST /renders and POST /posts).' }),
    review: Type.Union([Type.Literal('kept'), Type.Literal('skipped'), Type.Null()], {
      description: 'Cutroom’s addition: the caller’s review of the clip (PATCH …/clips/{clipId}); null when not reviewed.',
    }),
  },
  { $id: 'Clip' },
);

export const ClipListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  sort: Type.Optional(Type.Union([Type.Literal('rating'), Type.Literal('start_time'), Type.Literal('created_at')], { default: 'rating' })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
  review: Type.Optional(
    Type.Union([Type.Literal('kept'), Type.Literal('skipped'), Type.Literal('none')], {
      description: 'Cutroom’s addition: only the clips with this review (`none`: not reviewed).',
    }),
  ),
});

export const ClipReviewSchema = Type.Object(
  { review: Type.Union([Type.Literal('kept'), Type.Literal('skipped'), Type.Null()], { description: '`kept`, `skipped`, or null to clear.' }) },
  { additionalProperties: false, examples: [{ review: 'kept' }] },
);

export const ClipPath = Type.Object({ videoId: Type.String(), submissionId: Type.String(), clipId: Type.String() });

export const ClipListSchema = Type.Object({ clips: Type.Array(ClipSchema), pagination: PaginationSchema }, { $id: 'ClipList' });

export const SubmissionPath = Type.Object({ videoId: Type.String(), submissionId: Type.String() });
