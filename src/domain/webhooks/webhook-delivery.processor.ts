import type { Logger } from 'pino';
import type { JobQueue } from '../../ports/queue.js';
import type { WebhookAnswer, WebhookSender } from '../../ports/webhook-sender.js';
import { sendJob } from '../jobs/enqueue.js';
import type { WebhooksRepository } from './webhooks.records.js';
import type { SecretSealer } from './webhooks.service.js';
import { nextAttemptAt, webhookHeaders } from './webhooks.rules.js';

export interface WebhookDeliveryDeps {
  repo: WebhooksRepository;
  sealer: Pick<SecretSealer, 'open'>;
  sender: Pick<WebhookSender, 'post'>;
  queue: JobQueue;
  logger: Logger;
  /** Seconds to wait after each failed attempt (CUTROOM_WEBHOOK_RETRY_SCHEDULE); its end fails the delivery. */
  retrySchedule: readonly number[];
  /** The sender's timeout: an attempt's lease is this plus a minute. */
  timeoutMs: number;
  now?: () => Date;
}

/** A job that should have run a minute ago and has not is taken as lost. */
const OVERDUE_MS = 60_000;
const SWEEP_BATCH = 200;

/**
 * Job `webhook.deliver`: one attempt of one delivery. The delivery is claimed (so that duplicate jobs
 * do nothing), signed at send time and POSTed; a 2xx delivers it, anything else schedules the next
 * attempt by the retry schedule (a job sent to start then) or, once the schedule is spent, fails it.
 * Job `webhook.dispatch` (every minute) sends the jobs that went missing: after a crash, a refused
 * send, or an event recorded in a transaction whose after-commit send did not happen. At least once:
 * a receiver deduplicates on `webhook-id`.
 */
export class WebhookDeliveryProcessor {
  private readonly now: () => Date;

  constructor(private readonly d: WebhookDeliveryDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async deliver(deliveryId: string): Promise<void> {
    const now = this.now();
    const row = await this.d.repo.claim(deliveryId, now, new Date(now.getTime() + this.d.timeoutMs + 60_000));
    if (!row) return;
    const endpoint = await this.d.repo.getEndpoint(row.endpointId);
    if (!endpoint) return; // deleted meanwhile, its deliveries with it
    const { secret } = (await this.d.sealer.open(endpoint.secretSealed)) as { secret: string };
    let answer: WebhookAnswer;
    try {
      answer = await this.d.sender.post(endpoint.url, webhookHeaders(secret, row.eventId, row.body, now), row.body);
    } catch (err) {
      this.d.logger.warn({ err, deliveryId }, 'webhook attempt failed unexpectedly');
      answer = { kind: 'failed', error: 'connection_failed' };
    }
    const at = this.now();
    const ok = answer.kind === 'answered' && answer.status >= 200 && answer.status < 300;
    const next = ok ? null : nextAttemptAt(row.attempts, at, this.d.retrySchedule);
    await this.d.repo.settle(
      row.id,
      row.attempts,
      {
        status: ok ? 'delivered' : next ? 'pending' : 'failed',
        lastStatusCode: answer.kind === 'answered' ? answer.status : null,
        lastError: ok ? null : answer.kind === 'answered' ? 'http_status' : answer.error,
        lastResponseExcerpt: answer.kind === 'answered' ? answer.excerpt : null,
        nextAttemptAt: next,
        deliveredAt: ok ? at : null,
      },
      at,
    );
    if (next) await sendJob(this.d.queue, { name: 'webhook.deliver', payload: { deliveryId: row.id }, startAfter: next });
  }

  /** Sends a job for every delivery whose job went missing; answers how many. */
  async sweep(): Promise<number> {
    const now = this.now();
    const ids = await this.d.repo.overdue(new Date(now.getTime() - OVERDUE_MS), now, SWEEP_BATCH);
    for (const deliveryId of ids) await sendJob(this.d.queue, { name: 'webhook.deliver', payload: { deliveryId } });
    return ids.length;
  }
}
