import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { DrizzleWebhooksRepository } from '../adapters/db/repositories/webhooks.repository.js';
import { SafeWebhookSender } from '../adapters/net/webhook-sender.js';
import { generateCredentialsKey, parseCredentialsKey } from '../adapters/publishing/credentials-crypto.js';
import { AesCredentialsSealer } from '../adapters/publishing/credentials-sealer.js';
import { CredentialsKeyService } from '../domain/publishing/credentials-key.service.js';
import { WebhookDeliveryProcessor } from '../domain/webhooks/webhook-delivery.processor.js';
import { WebhooksService } from '../domain/webhooks/webhooks.service.js';
import type { JobQueue } from '../ports/queue.js';
import type { TransactionRunner } from '../ports/transactions.js';

export interface WebhooksWiring {
  config: Config;
  logger: Logger;
  database: Database;
  queue: JobQueue;
  transactions: TransactionRunner;
}

/**
 * Webhook endpoints and the event publisher (`webhooks`, which every service announces its events
 * through), and the delivery worker. Signing secrets are sealed like connection credentials: the same
 * AES-256-GCM sealer under the installation's credentials key (CUTROOM_CREDENTIALS_KEY or the stored one).
 */
export function createWebhooks(w: WebhooksWiring) {
  const db = w.database.db;
  const repo = new DrizzleWebhooksRepository(db);
  const keys = new CredentialsKeyService({
    settings: new DrizzleSettingsRepository(db),
    format: { generate: generateCredentialsKey, parse: parseCredentialsKey },
    envKey: w.config.publishing.credentialsKey,
  });
  const sealer = new AesCredentialsSealer(keys);
  const cfg = w.config.webhooks;
  const sender = new SafeWebhookSender({ allowPrivate: cfg.allowPrivate, timeoutMs: cfg.timeoutMs });
  const webhooks = new WebhooksService({ repo, sealer, sender, queue: w.queue, transactions: w.transactions, logger: w.logger });
  const webhookDelivery = new WebhookDeliveryProcessor({
    repo,
    sealer,
    sender,
    queue: w.queue,
    logger: w.logger,
    retrySchedule: cfg.retrySchedule,
    timeoutMs: cfg.timeoutMs,
  });
  return { webhooks, webhookDelivery };
}
