import { timestamp } from 'drizzle-orm/pg-core';

/**
 * The column blocks every area repeats. The workspace owner column is `workspaceId()` in workspaces.ts
 * (it references that table). Each call builds a new column: a table's columns are its own.
 */

/** A `timestamp with time zone` read as a Date; nullable until `.notNull()`. */
export const timestamptz = <TName extends string>(name: TName) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `created_at`: now, when the row is written. */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** `updated_at`: now, when the row is written; the repository sets it on each change. */
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();
