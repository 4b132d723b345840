import { boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { workspaces } from './workspaces.js';

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
