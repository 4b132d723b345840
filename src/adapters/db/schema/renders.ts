import { bigint, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { workspaceId } from './workspaces.js';
import { edits } from './clips.js';

/**
 * Renders of edits to MP4 files. A cache hit is its own row (`from_cache`) pointing at the same
 * `storage_key` as the render it reused; a file is deleted once no unexpired completed row uses it.
 */
export const renders = pgTable(
  'renders',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
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
    startedAt: timestamptz('started_at'),
    completedAt: timestamptz('completed_at'),
    expiresAt: timestamptz('expires_at'),
  },
  (t) => [
    index('renders_ws_hash_idx').on(t.workspaceId, t.editHash, t.status),
    index('renders_ws_status_idx').on(t.workspaceId, t.status),
    index('renders_status_expires_idx').on(t.status, t.expiresAt),
    index('renders_storage_key_idx').on(t.storageKey),
  ],
);
