import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { workspaceId } from './workspaces.js';

/**
 * Webhook endpoints of a workspace (docs/webhooks.md): where events are sent and which. The signing
 * secret is sealed like connection credentials (AES-256-GCM under the installation's credentials key).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    url: text('url').notNull(),
    /** Event types sent to it (`*`: every event). */
    events: jsonb('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * One event for one endpoint (the outbox): written in the transaction of the state change that
 * raised it, sent by job `webhook.deliver` until a 2xx or the retry schedule's end.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: workspaceId(),
    /** The event's id (`webhook-id`), the same for every endpoint and attempt. */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body exactly as it is sent (and signed). */
    body: text('body').notNull(),
    /** `pending`, `sending`, `delivered`, `failed`. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    /** `http_status`, `timeout`, `address_not_allowed`, `connection_failed`; null after a 2xx. */
    lastError: text('last_error'),
    /** At most the first 1 KiB of the last answer's body. */
    lastResponseExcerpt: text('last_response_excerpt'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    /** When the next attempt is due; null once delivered or failed. */
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** While `sending`: the attempt's lease (a lost attempt is taken again after it). */
    lockedUntil: timestamptz('locked_until'),
    deliveredAt: timestamptz('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt), index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt)],
);
