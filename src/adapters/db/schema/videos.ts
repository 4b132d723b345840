import { bigint, boolean, doublePrecision, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { workspaceId } from './workspaces.js';

export const videos = pgTable(
  'videos',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
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
    updatedAt: updatedAt(),
  },
  (t) => [index('videos_ws_created_idx').on(t.workspaceId, t.createdAt), uniqueIndex('videos_ws_source_url_uq').on(t.workspaceId, t.sourceUrl)],
);
