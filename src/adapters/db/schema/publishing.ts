import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from './columns.js';
import { workspaceId } from './workspaces.js';

/**
 * Publishing accounts of a workspace (issue 7), added by an operator through the admin API. The
 * credentials are sealed with AES-256-GCM (src/adapters/publishing/credentials-crypto.ts) and wiped on revoke.
 */
export const connections = pgTable(
  'connections',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    /** Lowercase network name: `local`, `youtube`, `tiktok`, `instagram`. */
    platform: text('platform').notNull(),
    accountName: text('account_name').notNull(),
    credentialsEncrypted: text('credentials_encrypted'),
    /** `active` or `revoked`. */
    status: text('status').notNull().default('active'),
    canPublishVideo: boolean('can_publish_video').notNull().default(true),
    createdAt: createdAt(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [index('connections_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/** POST /posts: one post, one item per edit-and-connection target. */
export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    /** `pending`, `processing`, `completed`, `partial`, `failed` (derived from the items). */
    status: text('status').notNull().default('pending'),
    scheduledAt: timestamptz('scheduled_at'),
    /** When a worker first took one of its items: the post never goes back to `pending`. */
    startedAt: timestamptz('started_at'),
    /** DELETE /posts/{id}: hidden from the API; its published items still count for the daily ceiling. */
    deletedAt: timestamptz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
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
    workspaceId: workspaceId(),
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
    dueAt: timestamptz('due_at').notNull(),
    publishedAt: timestamptz('published_at'),
    /** DELETE of the item or its post. */
    removedAt: timestamptz('removed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('post_items_post_idx').on(t.postId, t.position),
    index('post_items_connection_status_idx').on(t.connectionId, t.status),
    index('post_items_edit_connection_idx').on(t.editId, t.connectionId),
  ],
);
