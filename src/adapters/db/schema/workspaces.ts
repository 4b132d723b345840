import { bigint, boolean, doublePrecision, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from './columns.js';

/** Plans and workspaces: every other area's rows belong to a workspace (`workspaceId()`). */

export const plans = pgTable('plans', {
  name: text('name').primaryKey(),
  isFree: boolean('is_free').notNull().default(false),
  maxVideoDuration: integer('max_video_duration').notNull(),
  maxUploadSize: bigint('max_upload_size', { mode: 'number' }).notNull(),
  renderExpiryHours: doublePrecision('render_expiry_hours').notNull(),
  maxConcurrentRenders: integer('max_concurrent_renders').notNull(),
  dailyPostLimit: integer('daily_post_limit').notNull(),
  forceWatermark: boolean('force_watermark').notNull().default(false),
  rateLimitPerMinute: integer('rate_limit_per_minute').notNull(),
  analysisRateLimitPerMinute: integer('analysis_rate_limit_per_minute').notNull(),
  discountPercent: doublePrecision('discount_percent').notNull().default(0),
  /** Standalone transcription: credits per started minute of audio, and the surcharge per minute for speaker labels. */
  transcriptionCreditsPerMinute: integer('transcription_credits_per_minute').notNull().default(1),
  speakerLabelsCreditsPerMinute: integer('speaker_labels_credits_per_minute').notNull().default(1),
  /** Hours a finished submission's source, clip previews and stage results are kept (then purged: 410 SUBMISSION_EXPIRED). */
  submissionRetentionHours: doublePrecision('submission_retention_hours').notNull().default(720),
  /** Monitors a workspace may keep (deleted ones do not count): 409 MONITOR_LIMIT_REACHED past it. */
  maxMonitors: integer('max_monitors').notNull().default(20),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  isPersonal: boolean('is_personal').notNull().default(false),
  planName: text('plan_name')
    .notNull()
    .references(() => plans.name),
  credits: integer('credits').notNull().default(0),
  unlimited: boolean('unlimited').notNull().default(false),
  unlimitedUntil: timestamptz('unlimited_until'),
  memberCount: integer('member_count').notNull().default(1),
  createdAt: createdAt(),
});

/** The `workspace_id` of a row a workspace owns: required, and deleted with its workspace. */
export const workspaceId = () =>
  text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });
