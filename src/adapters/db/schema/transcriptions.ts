import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { workspaceId } from './workspaces.js';

/**
 * Audio or video files uploaded for standalone transcription (POST /transcriptions/upload). The
 * probe (duration, sound) and the SHA-256 of the bytes are taken on first use (POST /transcriptions).
 */
export const media = pgTable(
  'media',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    /** `audio` or `video`, from the declared file name. */
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Hex SHA-256 of the uploaded bytes: the transcription cache key. */
    contentHash: text('content_hash'),
    duration: doublePrecision('duration'),
    hasAudio: boolean('has_audio'),
    /** `awaiting_upload` until first used with its bytes in storage, then `ready`. */
    status: text('status').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('media_ws_created_idx').on(t.workspaceId, t.createdAt), index('media_ws_hash_idx').on(t.workspaceId, t.contentHash)],
);

/**
 * Standalone transcriptions. A cache hit is its own row (`cached_from` = the row whose result it
 * copied) with the cues copied; deleted rows (`deleted_at`) leave listings but stay in the cache.
 */
export const transcriptions = pgTable(
  'transcriptions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    mediaId: text('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    /** The media's content hash when created (the cache key with `speaker_labels` and the language). */
    contentHash: text('content_hash').notNull(),
    /** Base name for downloads (the request's `file_name`, else the media's). */
    fileName: text('file_name').notNull(),
    speakerLabels: boolean('speaker_labels').notNull(),
    /** The number of speakers the caller gave with `speakers_expected` (1–10); null: the diarizer estimates it. */
    speakersExpected: integer('speakers_expected'),
    /** As asked: `auto` or an ISO 639-1 code. */
    sourceLanguage: text('source_language').notNull().default('auto'),
    /** The language transcribed (detected or asked); null until known. */
    language: text('language'),
    /** `processing`, `ready`, `no_speech` or `failed`. */
    status: text('status').notNull(),
    /** Credits taken in the end (0 for cache hits, no speech, and after a refund). */
    creditsCharged: integer('credits_charged').notNull().default(0),
    errorCode: text('error_code'),
    cachedFrom: text('cached_from'),
    cues: jsonb('cues').$type<unknown>(),
    /** The recognised words (TranscriptWord[] of src/domain/transcripts/cues.ts); null on rows made before words were kept. */
    words: jsonb('words').$type<unknown>(),
    /** While processing: the step under way (TRANSCRIPTION_STAGES) and when it began; null before the job starts. */
    stage: text('stage'),
    stageStartedAt: timestamptz('stage_started_at'),
    /** The media's measured seconds when created (what the progress estimate counts on); null on older rows. */
    mediaSeconds: doublePrecision('media_seconds'),
    deletedAt: timestamptz('deleted_at'),
    createdAt: createdAt(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('transcriptions_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('transcriptions_ws_hash_idx').on(t.workspaceId, t.contentHash, t.status),
  ],
);
