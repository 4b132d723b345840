import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { workspaceId } from './workspaces.js';
import { submissions } from './submissions.js';

export const edits = pgTable(
  'edits',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
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
    workspaceId: workspaceId(),
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
