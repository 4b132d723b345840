import type { Tx } from '../../ports/transactions.js';

/**
 * The events the service announces to webhook endpoints (docs/webhooks.md has each one's `data`).
 * Every area adds its names here as it emits them; an endpoint subscribes to names of this list or
 * to `*` (POST /webhooks refuses any other name).
 */
export const WEBHOOK_EVENT_TYPES: string[] = [
  'submission.completed',
  'submission.failed',
  'render.completed',
  'render.failed',
  'transcription.ready',
  'transcription.failed',
  'post.completed',
  'post.partial',
  'post.failed',
  'broadcast.started',
  'broadcast.ended',
  'monitor.stopped',
  'persona.ready',
  'persona.failed',
  'persona_video.ready',
  'persona_video.failed',
  'generation.ready',
  'generation.failed',
  'edit.created',
];

/** Subscribes an endpoint to every event, those added later included. */
export const ALL_EVENTS = '*';

/** An event type: a name of WEBHOOK_EVENT_TYPES (`<resource>.<what happened>`, lowercase). */
export type WebhookEventType = string;

/**
 * How the domain announces a state change. `publish` records one delivery per subscribed endpoint of
 * the workspace; with `tx`, inside that transaction (the outbox: the event exists exactly when the
 * change committed), and the deliveries start once it commits. `data` is the event's `data` object
 * (snake_case, ids and the new state; never secrets).
 */
export interface EventPublisher {
  publish(workspaceId: string, type: WebhookEventType, data: Record<string, unknown>, tx?: Tx): Promise<void>;
}

/** The publisher of code paths without webhooks (unit tests, tools): announces nothing. */
export const noEvents: EventPublisher = {
  async publish() {},
};
