import { ClipLengthSchema, KeywordsSchema, PromptSchema, SteeringFields } from './steering.schemas.js';
import { Type } from '@sinclair/typebox';
import { SOURCE_LANGUAGES } from '../../domain/submissions/submission.rules.js';
import { MONITOR_TYPES, STOP_REASONS } from '../../domain/monitors/monitor.rules.js';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';
import { ClipSchema } from './submission.schemas.js';

const Language = Type.Union(SOURCE_LANGUAGES.map((l) => Type.Literal(l)));
const NullableId = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]);

export const MonitorSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Union(MONITOR_TYPES.map((t) => Type.Literal(t))),
    name: Type.String(),
    url: Type.String({ description: 'The URL as sent.' }),
    platform: Type.Union([Type.Literal('youtube'), Type.Literal('twitch'), Type.Literal('feed'), Type.Literal('hls')], {
      description: 'What the URL was found to be: a YouTube or Twitch channel, an Atom/RSS feed of uploads, a live HLS playlist.',
    }),
    status: Type.Union([Type.Literal('stopped'), Type.Literal('watching'), Type.Literal('live')], {
      description: '`stopped`; `watching` (on, waiting for a broadcast or an upload); `live` (recording a broadcast).',
    }),
    stop_reason: Type.Union([...STOP_REASONS.map((r) => Type.Literal(r)), Type.Null()], {
      description:
        'Why it stopped: null before its first start; `USER` (POST …/stop, DELETE); `INSUFFICIENT_CREDITS` (a batch or an upload could not be paid); ' +
        '`SOURCE_GONE` (the channel or feed no longer exists); `STREAM_DURATION_MISMATCH` (a live stream’s segments measure longer than its playlist declares: ' +
        'batches are billed by measured time); `LIVE_BATCH_TOO_LARGE` (a live batch would go over its seconds, the batch length + 10 %, or its bytes). ' +
        'Every reason but `USER` is announced by the `monitor.stopped` webhook.',
    }),
    template_id: Type.Union([Type.String(), Type.Null()]),
    strategy_id: Type.Union([Type.String(), Type.Null()]),
    source_language: Type.String(),
    prompt: Type.Union([Type.String(), Type.Null()], { description: 'Cutroom’s addition: the prompt its submissions and batches are picked with.' }),
    keywords: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Cutroom’s addition: the keywords its clips must say.' }),
    clip_length: Type.Union([Type.Object({ min: Type.Number(), max: Type.Number() }), Type.Null()], {
      description: 'Cutroom’s addition: its clips’ length range in seconds.',
    }),
    started_at: NullableIsoDate,
    last_checked_at: NullableIsoDate,
    created_at: IsoDate,
  },
  { $id: 'Monitor' },
);

export const CreateMonitorSchema = Type.Object(
  {
    type: Type.Union(MONITOR_TYPES.map((t) => Type.Literal(t))),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'A YouTube channel (`/@handle`, `/channel/UC…`), a Twitch channel, an Atom/RSS feed of uploads or (live) a live HLS playlist.',
    }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    template_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    strategy_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    source_language: Type.Optional(Language),
    ...SteeringFields,
  },
  { additionalProperties: false, examples: [{ type: 'live', url: 'https://www.twitch.tv/cutroomlive', name: 'Weekly stream', strategy_id: 'str_short' }] },
);

export const UpdateMonitorSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    template_id: Type.Optional(NullableId),
    strategy_id: Type.Optional(NullableId),
    source_language: Type.Optional(Language),
    prompt: Type.Optional(Type.Union([PromptSchema, Type.Null()], { description: 'A new prompt, or null to remove it.' })),
    keywords: Type.Optional(Type.Union([KeywordsSchema, Type.Null()], { description: 'New keywords, or null to remove them.' })),
    clip_length: Type.Optional(Type.Union([ClipLengthSchema, Type.Null()], { description: 'A new length range, or null to remove it.' })),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Weekly stream (EN)', source_language: 'en' }] },
);

export const MonitorListSchema = Type.Object({ monitors: Type.Array(MonitorSchema), pagination: PaginationSchema }, { $id: 'MonitorList' });

export const BroadcastSchema = Type.Object(
  {
    id: Type.String(),
    monitor_id: Type.String(),
    title: Type.String(),
    status: Type.Union([Type.Literal('live'), Type.Literal('processing'), Type.Literal('ended')], {
      description: '`live` (recording), `processing` (ended; its last batch is still being clipped), `ended`.',
    }),
    started_at: IsoDate,
    ended_at: NullableIsoDate,
    batches_count: Type.Integer(),
    clips_count: Type.Integer(),
    credits_charged: Type.Integer({ description: 'Net credits taken for its batches (after refunds; 0 under free usage).' }),
  },
  { $id: 'Broadcast' },
);

export const BroadcastListSchema = Type.Object({ broadcasts: Type.Array(BroadcastSchema), pagination: PaginationSchema }, { $id: 'BroadcastList' });

export const BroadcastClipSchema = Type.Object(
  {
    ...ClipSchema.properties,
    batch_index: Type.Integer({ description: 'The batch the clip comes from, 0-based.' }),
    broadcast_offset: Type.Number({
      description: 'Seconds from the start of the broadcast to the clip’s start (`start_time` is inside the batch’s own recording).',
    }),
    video_id: Type.String({
      description:
        'Cutroom’s addition: the batch’s recording. With `submission_id`, the clip is also read and edited as a submission’s clip (`/clips/{video_id}/submissions/{submission_id}/clips/{id}`).',
    }),
    submission_id: Type.String({ description: 'Cutroom’s addition: the batch’s internal submission (not listed by GET /clips, readable by its id).' }),
  },
  { $id: 'BroadcastClip' },
);

export const BroadcastClipListSchema = Type.Object({ clips: Type.Array(BroadcastClipSchema), pagination: PaginationSchema }, { $id: 'BroadcastClipList' });

export const BroadcastAppliedTemplateSchema = Type.Object(
  {
    broadcast_id: Type.String(),
    template_id: Type.String(),
    clips: Type.Array(Type.Object({ id: Type.String(), edit_id: Type.String({ description: 'The clip’s new edit.' }) })),
  },
  { $id: 'BroadcastAppliedTemplate' },
);

export const MonitorPath = Type.Object({ id: Type.String() });
export const BroadcastPath = Type.Object({ id: Type.String(), broadcastId: Type.String() });
export const BroadcastClipPath = Type.Object({ id: Type.String(), broadcastId: Type.String(), clipId: Type.String() });
