import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { workspaceId } from './workspaces.js';
import { submissions } from './submissions.js';
import type { ScoreDetails } from '../../../ports/highlights.js';

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
    /** The edit it was derived from (POST /edits); null for an edit the service made. */
    parentEditId: text('parent_edit_id'),
    /** The first edit of its lineage; null for a root. Versions of an edit of no clip are its root's lineage. */
    rootEditId: text('root_edit_id'),
    /** The lineage's word list (index, text as captioned, times, speaker); null: the spec's caption words. */
    words: jsonb('words').$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('edits_ws_idx').on(t.workspaceId),
    index('edits_hash_idx').on(t.hash),
    index('edits_clip_idx').on(t.clipId),
    index('edits_root_idx').on(t.rootEditId),
  ],
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
    /** The rating's sub-scores (hook, coherence, value, delivery; 0..10); null on clips made before them. */
    scoreDetails: jsonb('score_details').$type<ScoreDetails>(),
    /** One sentence: what the clip is about and why it scored as it did; null on clips made before reasons. */
    reason: text('reason'),
    /** The keywords, or the words matching the prompt, said in the clip; null on clips made before. */
    matched: jsonb('matched').$type<string[]>(),
    previewKey: text('preview_key'),
    editId: text('edit_id'),
    hasTemplateApplied: boolean('has_template_applied').notNull().default(false),
    /** The caller's review: 'kept', 'skipped', or null (not reviewed). */
    review: text('review').$type<'kept' | 'skipped'>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clips_submission_position_uq').on(t.submissionId, t.position), index('clips_ws_idx').on(t.workspaceId)],
);
