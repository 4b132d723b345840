import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { workspaceId } from './workspaces.js';

/** API keys and the workspaces each may act on. */

export const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  secretHash: text('secret_hash').notNull(),
  label: text('label'),
  expiresAt: timestamptz('expires_at'),
  revokedAt: timestamptz('revoked_at'),
  createdAt: createdAt(),
});

export const apiKeyWorkspaces = pgTable(
  'api_key_workspaces',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    workspaceId: workspaceId(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.workspaceId] }), index('api_key_workspaces_ws_idx').on(t.workspaceId)],
);
