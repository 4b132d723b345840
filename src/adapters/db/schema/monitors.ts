import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestamptz, updatedAt } from './columns.js';
import { workspaceId } from './workspaces.js';
import type { PickSteering } from '../../../domain/highlights/steering.js';

/**
 * Channel monitors (issue 13). A `video` monitor turns each new upload into a submission; a `live`
 * monitor records each broadcast into batches (docs/monitors.md). Deleted monitors stay as rows
 * (`deleted_at`) so that their submissions, broadcasts and clips keep their references.
 */
export const monitors = pgTable(
  'monitors',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    /** `live` or `video`. */
    type: text('type').notNull(),
    name: text('name').notNull(),
    /** The caller's URL as sent. */
    url: text('url').notNull(),
    /** `youtube`, `twitch`, `feed` or `hls`: the watcher that reads it. */
    platform: text('platform').notNull(),
    /** What the watcher reads: the feed or playlist URL, the canonical channel URL, the Twitch login. */
    watchUrl: text('watch_url').notNull(),
    /** `stopped`, `watching` or `live`. */
    status: text('status').notNull().default('stopped'),
    /** null, `USER`, `INSUFFICIENT_CREDITS`, `SOURCE_GONE`, `STREAM_DURATION_MISMATCH` or `LIVE_BATCH_TOO_LARGE` (STOP_REASONS). */
    stopReason: text('stop_reason'),
    templateId: text('template_id'),
    strategyId: text('strategy_id'),
    sourceLanguage: text('source_language').notNull().default('auto'),
    /** The prompt, keywords and clip length its submissions and batches are picked with; null: none. */
    steering: jsonb('steering').$type<PickSteering>(),
    startedAt: timestamptz('started_at'),
    lastCheckedAt: timestamptz('last_checked_at'),
    /** The watching chain: a monitor.poll job runs only while its `seq` is this one (one watcher per monitor). */
    pollSeq: integer('poll_seq').notNull().default(0),
    /** Held by the poll run at work; another run waits for it to pass. */
    pollLeaseUntil: timestamptz('poll_lease_until'),
    /** The watcher's cursor (the baseline taken, the last live stream seen). */
    watchState: jsonb('watch_state').$type<unknown>(),
    deletedAt: timestamptz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('monitors_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * The uploads a video monitor has seen, keyed by the channel's own entry id: the baseline (present when
 * the monitor started; no submission) and every later entry with the one submission it became.
 */
export const monitorEntries = pgTable(
  'monitor_entries',
  {
    monitorId: text('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    entryId: text('entry_id').notNull(),
    url: text('url').notNull(),
    title: text('title').notNull().default(''),
    baseline: boolean('baseline').notNull().default(false),
    /** `pending` (seen, not yet submitted), `submitted`, `skipped` (baseline) or `failed` (error_code set). */
    status: text('status').notNull(),
    submissionId: text('submission_id'),
    errorCode: text('error_code'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.entryId] })],
);

/** One airing of a live monitor's channel. */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    monitorId: text('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** `live`, `processing` (ended, batches still being clipped) or `ended`. */
    status: text('status').notNull(),
    /** The live stream's id on its platform (the playlist URL for `hls`). */
    externalId: text('external_id').notNull(),
    /** The media playlist the recorder reads. */
    playlistUrl: text('playlist_url').notNull(),
    /** Next media sequence number to fetch; null before the first read. */
    nextSequence: integer('next_sequence'),
    /** When the playlist last gained a segment (the stall rule). */
    lastGrowthAt: timestamptz('last_growth_at'),
    /** Why it ended: `ENDLIST`, `STALLED`, `STOPPED`, `INSUFFICIENT_CREDITS`, `SOURCE_GONE`, an error code. */
    endReason: text('end_reason'),
    startedAt: timestamptz('started_at').notNull(),
    endedAt: timestamptz('ended_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('broadcasts_monitor_started_idx').on(t.monitorId, t.startedAt),
    // One broadcast on air per monitor: a restarted recorder finds it and continues.
    uniqueIndex('broadcasts_monitor_live_uq')
      .on(t.monitorId)
      .where(sql`${t.status} = 'live'`),
  ],
);

/** A batch of a broadcast's recording (CUTROOM_LIVE_BATCH_SECONDS), processed by the submission pipeline. */
export const broadcastBatches = pgTable(
  'broadcast_batches',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    broadcastId: text('broadcast_id')
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    /** 0-based. */
    index: integer('index').notNull(),
    /** `recording`, `recorded` (cut; its job queued), `processing`, `done`. */
    status: text('status').notNull(),
    /** Seconds from the broadcast's start to the batch's first second. */
    offsetSeconds: doublePrecision('offset_seconds').notNull(),
    /** Seconds recorded (sum of its segments). */
    seconds: doublePrecision('seconds').notNull().default(0),
    /** Storage keys and durations of the recorded chunks, in order. */
    chunks: jsonb('chunks').$type<unknown>().notNull(),
    /** Credits taken when recording started (0 under free usage) and the net after settling. */
    creditsCharged: integer('credits_charged').notNull().default(0),
    /** The internal submission that clips it (not listed by GET /clips). */
    submissionId: text('submission_id'),
    clipsCount: integer('clips_count').notNull().default(0),
    errorCode: text('error_code'),
    startedAt: timestamptz('started_at').notNull(),
    recordedAt: timestamptz('recorded_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [uniqueIndex('broadcast_batches_broadcast_index_uq').on(t.broadcastId, t.index), uniqueIndex('broadcast_batches_submission_uq').on(t.submissionId)],
);
