import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

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
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
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
  unlimitedUntil: timestamp('unlimited_until', { withTimezone: true, mode: 'date' }),
  memberCount: integer('member_count').notNull().default(1),
  createdAt: createdAt(),
});

export const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  secretHash: text('secret_hash').notNull(),
  label: text('label'),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

export const apiKeyWorkspaces = pgTable(
  'api_key_workspaces',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.workspaceId] }), index('api_key_workspaces_ws_idx').on(t.workspaceId)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    waived: boolean('waived').notNull().default(false),
    jobType: text('job_type'),
    jobId: text('job_id'),
    /** Monotonic order inside a workspace (timestamps can tie). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_ws_seq_idx').on(t.workspaceId, t.seq),
    // A job is charged at most once and refunded at most once.
    uniqueIndex('ledger_entries_job_kind_uq').on(t.workspaceId, t.kind, t.jobType, t.jobId),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** The process (`processes.id`) running the request while it is unanswered; its claim ends with that process's heartbeat. */
    owner: text('owner'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * One row per running process (api, worker or all), its heartbeat refreshed every few seconds; a
 * process silent for longer than its lease is dead: its job runs and idempotency claims are taken over.
 */
export const processes = pgTable(
  'processes',
  {
    id: text('id').primaryKey(),
    role: text('role').notNull(),
    host: text('host').notNull(),
    pid: integer('pid').notNull(),
    /** How long this process may stay silent before others take over its work (CUTROOM_JOB_LEASE_SECONDS). */
    leaseSeconds: integer('lease_seconds').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('processes_heartbeat_idx').on(t.heartbeatAt)],
);

/** The job runs (pg-boss jobs in state `active`) each worker process holds; `run` is the job's retry count at fetch. */
export const jobLeases = pgTable(
  'job_leases',
  {
    jobId: uuid('job_id').primaryKey(),
    jobName: text('job_name').notNull(),
    run: integer('run').notNull(),
    processId: text('process_id').notNull(),
  },
  (t) => [index('job_leases_process_idx').on(t.processId)],
);

export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    bucket: text('bucket').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const videos = pgTable(
  'videos',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `upload` or `link`. */
    source: text('source').notNull(),
    /** `awaiting_upload` until an upload is completed, then `ready`. Links are `ready` once analysed. */
    status: text('status').notNull(),
    /** The caller's link (links only); one video per link and workspace. */
    sourceUrl: text('source_url'),
    /** What the downloader fetches for a link (a direct media URL or the platform page for yt-dlp). */
    mediaUrl: text('media_url'),
    platform: text('platform').notNull(),
    title: text('title').notNull(),
    author: text('author').notNull(),
    duration: doublePrecision('duration').notNull().default(0),
    width: integer('width').notNull().default(0),
    height: integer('height').notNull().default(0),
    hasAudio: boolean('has_audio').notNull().default(false),
    storageKey: text('storage_key'),
    fileName: text('file_name'),
    fileSize: bigint('file_size', { mode: 'number' }),
    contentType: text('content_type'),
    /** Multipart upload id while the parts are being sent. */
    uploadId: text('upload_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('videos_ws_created_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('videos_ws_source_url_uq').on(t.workspaceId, t.sourceUrl),
  ],
);

/** Caption templates and clipping strategies. Built-ins have no workspace and are shared by all. */
export const templates = pgTable(
  'templates',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `template` (captions and layout) or `strategy` (clip lengths and count). */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    builtin: boolean('builtin').notNull().default(false),
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('templates_ws_idx').on(t.workspaceId, t.kind)],
);

export const submissions = pgTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    waitingUntil: timestamp('waiting_until', { withTimezone: true, mode: 'date' }),
    /** Storage key of the downloaded source (links) or the upload itself. */
    sourceKey: text('source_key'),
    /** Stage results kept so a restarted job resumes where it stopped. */
    transcript: jsonb('transcript').$type<unknown>(),
    analysis: jsonb('analysis').$type<unknown>(),
    attempts: integer('attempts').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** When the retention sweep purged its source, previews and stage results (the API then answers 410). */
    expiredAt: timestamp('expired_at', { withTimezone: true, mode: 'date' }),
    /** The monitor that made it (docs/monitors.md); null for POST /clips. */
    monitorId: text('monitor_id'),
    /** A live monitor's batch: internal, not listed by GET /clips. */
    liveBatch: boolean('live_batch').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('submissions_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('submissions_monitor_idx').on(t.monitorId),
    index('submissions_status_created_idx').on(t.status, t.createdAt),
    index('submissions_video_idx').on(t.videoId),
    index('submissions_unexpired_finished_idx').on(t.finishedAt).where(sql`${t.expiredAt} is null`),
  ],
);

export const edits = pgTable(
  'edits',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    clipId: text('clip_id'),
    /** Content hash of `spec`: identical edits render to the same file. */
    hash: text('hash').notNull(),
    spec: jsonb('spec').$type<unknown>().notNull(),
    templateId: text('template_id'),
    createdAt: createdAt(),
  },
  (t) => [index('edits_ws_idx').on(t.workspaceId), index('edits_hash_idx').on(t.hash)],
);

export const clips = pgTable(
  'clips',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Order of the clip inside its submission (by start time); makes finalizing idempotent. */
    position: integer('position').notNull(),
    title: text('title').notNull(),
    text: text('text').notNull().default(''),
    rating: doublePrecision('rating').notNull(),
    startTime: doublePrecision('start_time').notNull(),
    endTime: doublePrecision('end_time').notNull(),
    language: text('language').notNull(),
    signals: jsonb('signals').$type<Record<string, number>>(),
    previewKey: text('preview_key'),
    editId: text('edit_id'),
    hasTemplateApplied: boolean('has_template_applied').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clips_submission_position_uq').on(t.submissionId, t.position), index('clips_ws_idx').on(t.workspaceId)],
);

/**
 * Renders of edits to MP4 files. A cache hit is its own row (`from_cache`) pointing at the same
 * `storage_key` as the render it reused; a file is deleted once no unexpired completed row uses it.
 */
export const renders = pgTable(
  'renders',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    editId: text('edit_id')
      .notNull()
      .references(() => edits.id, { onDelete: 'cascade' }),
    /** Hash of the edit as rendered (with the plan's forced watermark): the cache key. */
    editHash: text('edit_hash').notNull(),
    /** `queued`, `active`, `completed`, `expired` or `failed`. */
    status: text('status').notNull(),
    progress: integer('progress').notNull().default(0),
    outputResolution: text('output_resolution').notNull(),
    hasWatermark: boolean('has_watermark').notNull(),
    fromCache: boolean('from_cache').notNull().default(false),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    errorCode: text('error_code'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('renders_ws_hash_idx').on(t.workspaceId, t.editHash, t.status),
    index('renders_ws_status_idx').on(t.workspaceId, t.status),
    index('renders_status_expires_idx').on(t.status, t.expiresAt),
    index('renders_storage_key_idx').on(t.storageKey),
  ],
);

/**
 * Audio or video files uploaded for standalone transcription (POST /transcriptions/upload). The
 * probe (duration, sound) and the SHA-256 of the bytes are taken on first use (POST /transcriptions).
 */
export const media = pgTable(
  'media',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    mediaId: text('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    /** The media's content hash when created (the cache key with `speaker_labels` and the language). */
    contentHash: text('content_hash').notNull(),
    /** Base name for downloads (the request's `file_name`, else the media's). */
    fileName: text('file_name').notNull(),
    speakerLabels: boolean('speaker_labels').notNull(),
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
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('transcriptions_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('transcriptions_ws_hash_idx').on(t.workspaceId, t.contentHash, t.status),
  ],
);

/**
 * Publishing accounts of a workspace (issue 7), added by an operator through the admin API. The
 * credentials are sealed with AES-256-GCM (src/adapters/publishing/credentials-crypto.ts) and wiped on revoke.
 */
export const connections = pgTable(
  'connections',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Lowercase network name: `local`, `youtube`, `tiktok`, `instagram`. */
    platform: text('platform').notNull(),
    accountName: text('account_name').notNull(),
    credentialsEncrypted: text('credentials_encrypted'),
    /** `active` or `revoked`. */
    status: text('status').notNull().default('active'),
    canPublishVideo: boolean('can_publish_video').notNull().default(true),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('connections_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/** POST /posts: one post, one item per edit-and-connection target. */
export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `pending`, `processing`, `completed`, `partial`, `failed` (derived from the items). */
    status: text('status').notNull().default('pending'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    /** When a worker first took one of its items: the post never goes back to `pending`. */
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    /** DELETE /posts/{id}: hidden from the API; its published items still count for the daily ceiling. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('posts_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

export const postItems = pgTable(
  'post_items',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Order of the target in the request. */
    position: integer('position').notNull(),
    editId: text('edit_id').notNull(),
    connectionId: text('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** `pending`, `processing`, `published`, `failed`. */
    status: text('status').notNull().default('pending'),
    /** The network's own fields exactly as they are (or were) published, defaults applied. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    renderId: text('render_id'),
    publishedUrl: text('published_url'),
    externalId: text('external_id'),
    errorCode: text('error_code'),
    /** The publisher's `onState` progress (upload session, publish id, container id): resumes without publishing twice. */
    resumeState: jsonb('resume_state').$type<unknown>(),
    /** Publish attempts of the current run (reset by a retry). */
    attempts: integer('attempts').notNull().default(0),
    /** The claim of the job run that owns a `processing` item (its first job's id). */
    runToken: text('run_token'),
    /** When the item is due (scheduled_at, or the time it was queued): its day for the daily ceiling until published. */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    /** DELETE of the item or its post. */
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('post_items_post_idx').on(t.postId, t.position),
    index('post_items_connection_status_idx').on(t.connectionId, t.status),
    index('post_items_edit_connection_idx').on(t.editId, t.connectionId),
  ],
);

/**
 * Channel monitors (issue 13). A `video` monitor turns each new upload into a submission; a `live`
 * monitor records each broadcast into batches (docs/monitors.md). Deleted monitors stay as rows
 * (`deleted_at`) so that their submissions, broadcasts and clips keep their references.
 */
export const monitors = pgTable(
  'monitors',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, mode: 'date' }),
    /** The watching chain: a monitor.poll job runs only while its `seq` is this one (one watcher per monitor). */
    pollSeq: integer('poll_seq').notNull().default(0),
    /** Held by the poll run at work; another run waits for it to pass. */
    pollLeaseUntil: timestamp('poll_lease_until', { withTimezone: true, mode: 'date' }),
    /** The watcher's cursor (the baseline taken, the last live stream seen). */
    watchState: jsonb('watch_state').$type<unknown>(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
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
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    lastGrowthAt: timestamp('last_growth_at', { withTimezone: true, mode: 'date' }),
    /** Why it ended: `ENDLIST`, `STALLED`, `STOPPED`, `INSUFFICIENT_CREDITS`, `SOURCE_GONE`, an error code. */
    endReason: text('end_reason'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('broadcasts_monitor_started_idx').on(t.monitorId, t.startedAt),
    // One broadcast on air per monitor: a restarted recorder finds it and continues.
    uniqueIndex('broadcasts_monitor_live_uq').on(t.monitorId).where(sql`${t.status} = 'live'`),
  ],
);

/** A batch of a broadcast's recording (CUTROOM_LIVE_BATCH_SECONDS), processed by the submission pipeline. */
export const broadcastBatches = pgTable(
  'broadcast_batches',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('broadcast_batches_broadcast_index_uq').on(t.broadcastId, t.index),
    uniqueIndex('broadcast_batches_submission_uq').on(t.submissionId),
  ],
);

/**
 * AI personas (issue 14, docs/personas.md): a persona, its versions (each finished portrait), the
 * portrait jobs (one charge each), own-face photos, persona videos, preset favourites.
 */
export const personas = pgTable(
  'personas',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Null until saved. */
    name: text('name'),
    saved: boolean('saved').notNull().default(false),
    /** `processing`, `ready` or `failed`: the state of the last portrait asked for. */
    imageStatus: text('image_status').notNull(),
    /** The traits of the last request (all 14 keys). */
    chips: jsonb('chips').$type<Record<string, string>>().notNull(),
    faceIds: jsonb('face_ids').$type<string[]>().notNull(),
    currentVersionId: text('current_version_id'),
    /** The preset it was made from, if any. */
    presetId: text('preset_id'),
    /** The portrait job under way or last run. */
    portraitId: text('portrait_id'),
    errorCode: text('error_code'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('personas_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/** One portrait request (create or regenerate): the unit charged and refunded. */
export const personaPortraits = pgTable(
  'persona_portraits',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    chips: jsonb('chips').$type<Record<string, string>>().notNull(),
    note: text('note'),
    faceIds: jsonb('face_ids').$type<string[]>().notNull(),
    /** `processing`, `ready` or `failed`. */
    status: text('status').notNull(),
    engine: text('engine').notNull(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    errorCode: text('error_code'),
    versionId: text('version_id'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('persona_portraits_persona_idx').on(t.personaId, t.createdAt)],
);

/** A finished portrait of a persona (immutable but for its feedback). */
export const personaVersions = pgTable(
  'persona_versions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    imageKey: text('image_key').notNull(),
    /** `illustration` or `photo`: what the image is. */
    imageKind: text('image_kind').notNull(),
    engine: text('engine').notNull(),
    chips: jsonb('chips').$type<Record<string, string>>().notNull(),
    note: text('note'),
    faceIds: jsonb('face_ids').$type<string[]>().notNull(),
    feedbackVote: text('feedback_vote'),
    feedbackReason: text('feedback_reason'),
    feedbackAt: timestamp('feedback_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('persona_versions_persona_idx').on(t.personaId, t.createdAt)],
);

/** An own-face photo (POST /personas/faces): private to the workspace. */
export const personaFaces = pgTable(
  'persona_faces',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The photo as sent (its sniffed type's extension). */
    photoKey: text('photo_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The detected face: box (0..1) and landmarks in pixels. */
    face: jsonb('face').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('persona_faces_ws_idx').on(t.workspaceId, t.createdAt)],
);

/** A persona video (swap): charged when created, refunded when it fails. */
export const personaVideos = pgTable(
  'persona_videos',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    versionId: text('version_id').notNull(),
    /** A media id (persona source upload) or a library video id. */
    mediaId: text('media_id').notNull(),
    type: text('type').notNull(),
    quality: text('quality').notNull(),
    replace: text('replace').notNull(),
    engine: text('engine').notNull(),
    seconds: doublePrecision('seconds').notNull(),
    credits: integer('credits').notNull(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    /** `processing`, `ready` or `failed`. */
    status: text('status').notNull(),
    errorCode: text('error_code'),
    outputKey: text('output_key'),
    editId: text('edit_id'),
    feedbackVote: text('feedback_vote'),
    feedbackReason: text('feedback_reason'),
    feedbackAt: timestamp('feedback_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('persona_videos_persona_idx').on(t.personaId, t.createdAt)],
);

/** A workspace's favourite presets. */
export const personaPresetFavorites = pgTable(
  'persona_preset_favorites',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    presetId: text('preset_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.presetId] })],
);

/**
 * Webhook endpoints of a workspace (docs/webhooks.md): where events are sent and which. The signing
 * secret is sealed like connection credentials (AES-256-GCM under the installation's credentials key).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Event types sent to it (`*`: every event). */
    events: jsonb('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * One event for one endpoint (the outbox): written in the transaction of the state change that
 * raised it, sent by job `webhook.deliver` until a 2xx or the retry schedule's end.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The event's id (`webhook-id`), the same for every endpoint and attempt. */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body exactly as it is sent (and signed). */
    body: text('body').notNull(),
    /** `pending`, `sending`, `delivered`, `failed`. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    /** `http_status`, `timeout`, `address_not_allowed`, `connection_failed`; null after a 2xx. */
    lastError: text('last_error'),
    /** At most the first 1 KiB of the last answer's body. */
    lastResponseExcerpt: text('last_response_excerpt'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    /** When the next attempt is due; null once delivered or failed. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    /** While `sending`: the attempt's lease (a lost attempt is taken again after it). */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/**
 * The generation model catalog (operator configuration, docs/generations.md): embedded models and hosted
 * ones (fal, Replicate, OpenAI-compatible), each with its inputs, options and price. Keys are sealed
 * like connection credentials. A change applies to the next POST /generations.
 */
export const generationModels = pgTable('generation_models', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** `image` or `video`. */
  kind: text('kind').notNull(),
  /** `embedded`, `fal`, `replicate` or `openai`. */
  provider: text('provider').notNull(),
  /** The embedded engine's name, or the provider's model id. */
  providerModel: text('provider_model').notNull(),
  baseUrl: text('base_url'),
  /** The provider key, sealed (AES-256-GCM under the credentials key); never answered. */
  apiKeySealed: text('api_key_sealed'),
  description: text('description').notNull().default(''),
  /** `{ prompt: 'required' | 'optional' | 'none', image_ids: { min, max } }`. */
  inputs: jsonb('inputs').$type<unknown>().notNull(),
  /** Option name → `{ type, values?, minimum?, maximum?, default? }`. */
  options: jsonb('options').$type<unknown>().notNull(),
  pricePerImage: doublePrecision('price_per_image'),
  pricePerSecond: doublePrecision('price_per_second'),
  maxSeconds: doublePrecision('max_seconds'),
  /** The provider model's input field for reference images when not the protocol's usual one. */
  imageField: text('image_field'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Images usable in `image_ids`: uploads (POST /generations/images) and the image outputs of generations. */
export const generationImages = pgTable(
  'generation_images',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    /** `image/png`, `image/jpeg` or `image/webp`, sniffed from the bytes. */
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The generation that made it; null for an upload. */
    generationId: text('generation_id'),
    createdAt: createdAt(),
  },
  (t) => [index('generation_images_ws_idx').on(t.workspaceId, t.createdAt)],
);

/** Generations: queued → processing → ready or failed (refunded). */
export const generations = pgTable(
  'generations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    modelId: text('model_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    prompt: text('prompt'),
    imageIds: jsonb('image_ids').$type<string[]>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    /** Seconds of video charged for (video models), else null. */
    seconds: doublePrecision('seconds'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    errorCode: text('error_code'),
    /** The hosted provider's job id once submitted (a retried run polls it instead of submitting again). */
    providerJobId: text('provider_job_id'),
    /** The output once ready: `{ key, content_type, width, height, seconds?, image_id? }`. */
    output: jsonb('output').$type<unknown>(),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('generations_ws_created_idx').on(t.workspaceId, t.createdAt)],
);
