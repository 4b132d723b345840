/**
 * The tables, one file per area (docs/architecture.md, "Repositories and transactions"). Repositories,
 * drizzle-kit (drizzle.config.ts) and the database's typed schema (database.ts) import this index.
 * It exports tables only: the column helpers stay inside the folder.
 */
export { plans, workspaces } from './workspaces.js';
export * from './api-keys.js';
export * from './credits.js';
export * from './runtime.js';
export * from './videos.js';
export * from './templates.js';
export * from './submissions.js';
export * from './clips.js';
export * from './renders.js';
export * from './transcriptions.js';
export * from './publishing.js';
export * from './monitors.js';
export * from './personas.js';
export * from './webhooks.js';
export * from './generations.js';
