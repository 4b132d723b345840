import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';

/** What the running service keeps for itself: idempotency claims, processes and their job leases, rate-limit windows, settings. */

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
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    heartbeatAt: timestamptz('heartbeat_at').notNull().defaultNow(),
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
