import type { Logger } from 'pino';
import type { JobQueue } from '../../ports/queue.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import type { WebhookSender } from '../../ports/webhook-sender.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { sendJob } from '../jobs/enqueue.js';
import type { PageRequest } from '../pagination.js';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES, type EventPublisher, type WebhookEventType } from './events.js';
import type { DeliveryStatus, WebhookDeliveryRow, WebhookEndpointRow, WebhooksRepository } from './webhooks.records.js';
import { MAX_ENDPOINTS_PER_WORKSPACE, eventBody, newWebhookSecret } from './webhooks.rules.js';

/** Seals the signing secrets at rest (the connections' sealer: src/adapters/publishing/credentials-sealer.ts). */
export interface SecretSealer {
  seal(value: Record<string, unknown>): Promise<string>;
  open(sealed: string): Promise<Record<string, unknown>>;
}

export interface WebhooksServiceDeps {
  repo: WebhooksRepository;
  sealer: SecretSealer;
  sender: Pick<WebhookSender, 'checkUrl'>;
  queue: JobQueue;
  transactions: TransactionRunner;
  logger: Logger;
}

/** A webhook endpoint as the API shows it; `secret` only in the answer of its creation. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: string[];
  created_at: string;
  secret?: string;
}

export function endpointView(r: WebhookEndpointRow, secret?: string): WebhookEndpointView {
  return { id: r.id, url: r.url, events: r.events, created_at: r.createdAt.toISOString(), ...(secret ? { secret } : {}) };
}

/** A delivery as GET /webhooks/{id}/deliveries shows it (never the body or the secret). */
export function deliveryView(r: WebhookDeliveryRow) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: r.id,
    event_id: r.eventId,
    event_type: r.eventType,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    last_status_code: r.lastStatusCode,
    last_error: r.lastError,
    last_response_excerpt: r.lastResponseExcerpt,
    last_attempt_at: iso(r.lastAttemptAt),
    next_attempt_at: iso(r.nextAttemptAt),
    delivered_at: iso(r.deliveredAt),
    created_at: r.createdAt.toISOString(),
  };
}

/**
 * Webhook endpoints (POST/GET/DELETE /webhooks) and the publisher of events: each event becomes one
 * delivery row per subscribed endpoint (in the caller's transaction when there is one), sent by job
 * `webhook.deliver` (WebhookDeliveryProcessor) once committed. docs/webhooks.md.
 */
export class WebhooksService implements EventPublisher {
  constructor(private readonly d: WebhooksServiceDeps) {}

  /** A new endpoint and its signing secret (answered once, stored sealed). */
  async create(workspaceId: string, input: { url: string; events: string[] }): Promise<WebhookEndpointView & { secret: string }> {
    const bad = input.events.findIndex((e) => e !== ALL_EVENTS && !WEBHOOK_EVENT_TYPES.includes(e));
    if (bad >= 0) throw validationError([{ field: `events.${bad}`, rule: 'enum', allowed: [ALL_EVENTS, ...WEBHOOK_EVENT_TYPES] }]);
    if ((await this.d.repo.countEndpoints(workspaceId)) >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw new DomainError('WEBHOOK_LIMIT_REACHED', { max_webhooks: MAX_ENDPOINTS_PER_WORKSPACE });
    }
    await this.d.sender.checkUrl(input.url);
    const secret = newWebhookSecret();
    const row = await this.d.repo.insertEndpoint({
      id: newId('whk'),
      workspaceId,
      url: input.url,
      events: input.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(input.events)],
      secretSealed: await this.d.sealer.seal({ secret }),
    });
    return { ...endpointView(row), secret };
  }

  list(workspaceId: string, page: PageRequest) {
    return this.d.repo.listEndpoints(workspaceId, page);
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.d.repo.deleteEndpoint(workspaceId, id))) throw new DomainError('WEBHOOK_NOT_FOUND');
  }

  async deliveries(workspaceId: string, id: string, page: PageRequest) {
    if (!(await this.d.repo.findEndpoint(workspaceId, id))) throw new DomainError('WEBHOOK_NOT_FOUND');
    return this.d.repo.listDeliveries(id, page);
  }

  /**
   * Records the event for every endpoint of the workspace subscribed to it. With `tx`: inside it, and
   * the deliveries' jobs are sent once it commits (a job lost on the way is sent again by the sweep,
   * job `webhook.dispatch`). Without: at once; a failure is logged, never thrown at the caller, whose
   * state change is already done.
   */
  async publish(workspaceId: string, type: WebhookEventType, data: Record<string, unknown>, tx?: Tx): Promise<void> {
    if (!tx) {
      try {
        await this.record(workspaceId, type, data);
      } catch (err) {
        this.d.logger.warn({ err, workspaceId, type }, 'webhook event not recorded');
      }
      return;
    }
    await this.record(workspaceId, type, data, tx);
  }

  private async record(workspaceId: string, type: WebhookEventType, data: Record<string, unknown>, tx?: Tx): Promise<void> {
    const endpoints = await this.d.repo.subscribers(workspaceId, type, tx);
    if (endpoints.length === 0) return;
    const at = new Date();
    const eventId = newId('evt');
    const body = eventBody({ id: eventId, type, workspaceId, data, at });
    const rows = endpoints.map((e) => ({ id: newId('whd'), endpointId: e.id, workspaceId, eventId, eventType: type, body, nextAttemptAt: at }));
    await this.d.repo.insertDeliveries(rows, tx);
    const start = () => this.start(rows.map((r) => r.id));
    if (!tx) await start();
    else this.d.transactions.afterCommit?.(tx, start);
  }

  /** Sends the deliveries' first jobs; a refusal leaves them to the sweep. */
  private async start(ids: string[]): Promise<void> {
    for (const deliveryId of ids) {
      try {
        await sendJob(this.d.queue, { name: 'webhook.deliver', payload: { deliveryId } });
      } catch (err) {
        this.d.logger.warn({ err, deliveryId }, 'webhook delivery job not sent; the sweep will send it');
      }
    }
  }
}
