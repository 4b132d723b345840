import { boolean, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestamptz, updatedAt } from './columns.js';
import { workspaceId } from './workspaces.js';
import { videos } from './videos.js';
import type { PickSteering } from '../../../domain/highlights/steering.js';

export const submissions = pgTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    timeframeStart: doublePrecision('timeframe_start').notNull(),
    timeframeEnd: doublePrecision('timeframe_end').notNull(),
    strategyId: text('strategy_id'),
    templateId: text('template_id'),
    sourceLanguage: text('source_language').notNull().default('auto'),
    language: text('language'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    errorCode: text('error_code'),
    clipsCount: integer('clips_count').notNull().default(0),
    waitingReason: text('waiting_reason'),
    waitingUntil: timestamptz('waiting_until'),
    /** Storage key of the downloaded source (links) or the upload itself. */
    sourceKey: text('source_key'),
    /** Stage results kept so a restarted job resumes where it stopped. */
    transcript: jsonb('transcript').$type<unknown>(),
    analysis: jsonb('analysis').$type<unknown>(),
    attempts: integer('attempts').notNull().default(0),
    startedAt: timestamptz('started_at'),
    /** How far the current stage is, 0..1, where the stage reports it (video analysis, finalizing); null otherwise. `updated_at` is when the stage began. */
    stageProgress: doublePrecision('stage_progress'),
    finishedAt: timestamptz('finished_at'),
    /** When the retention sweep purged its source, previews and stage results (the API then answers 410). */
    expiredAt: timestamptz('expired_at'),
    /** The monitor that made it (docs/monitors.md); null for POST /clips. */
    monitorId: text('monitor_id'),
    /** A live monitor's batch: internal, not listed by GET /clips. */
    liveBatch: boolean('live_batch').notNull().default(false),
    /** What the caller asked the picks to follow (prompt, keywords, clip length); null: the strategy alone. */
    steering: jsonb('steering').$type<PickSteering>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('submissions_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('submissions_monitor_idx').on(t.monitorId),
    index('submissions_status_created_idx').on(t.status, t.createdAt),
    index('submissions_video_idx').on(t.videoId),
    index('submissions_unexpired_finished_idx')
      .on(t.finishedAt)
      .where(sql`${t.expiredAt} is null`),
  ],
);
