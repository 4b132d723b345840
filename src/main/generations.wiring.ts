import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleGenerationsRepository } from '../adapters/db/repositories/generations.repository.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { NodeLocalFiles } from '../adapters/files/local-files.js';
import { bytesToStorage } from '../adapters/storage/put-bytes.js';
import { createHostedClient } from '../adapters/generation/hosted-client.factory.js';
import { SafeOutputFetcher } from '../adapters/generation/output-fetcher.js';
import { LocalEmbeddedGenerator } from '../adapters/images/embedded.generator.js';
import { SharpImageInspector } from '../adapters/images/image-inspector.js';
import { AesCredentialsSealer } from '../adapters/publishing/credentials-sealer.js';
import { generateCredentialsKey, parseCredentialsKey } from '../adapters/publishing/credentials-crypto.js';
import type { WorkerPool } from '../adapters/workers/worker-pool.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { PricedCharges } from '../domain/credits/priced-charge.js';
import { GenerationProcessor } from '../domain/generations/generations.processor.js';
import { GenerationsService } from '../domain/generations/generations.service.js';
import { CredentialsKeyService } from '../domain/publishing/credentials-key.service.js';
import type { EventPublisher } from '../domain/webhooks/events.js';
import type { MediaProbe } from '../ports/media.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';

export interface GenerationsWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  media: MediaProbe;
  credits: CreditsService;
  /** The compute pool (the embedded image models run in its threads); null: on the event loop. */
  pool: WorkerPool | null;
  events?: EventPublisher;
}

/**
 * The generations service (catalog, images, priced generations) and the `generation.process` worker:
 * embedded engines in the compute pool, hosted providers through their clients, outputs fetched safely.
 */
export function createGenerations(w: GenerationsWiring) {
  const g = w.config.generations;
  const repo = new DrizzleGenerationsRepository(w.database.db);
  const files = new NodeLocalFiles(os.tmpdir());
  const images = new SharpImageInspector(w.pool);
  // Provider keys are sealed with the installation's credentials key, like connection credentials.
  const keys = new CredentialsKeyService({
    settings: new DrizzleSettingsRepository(w.database.db),
    format: { generate: generateCredentialsKey, parse: parseCredentialsKey },
    envKey: w.config.publishing.credentialsKey,
  });
  const generations = new GenerationsService({
    repo,
    transactions: w.transactions,
    storage: w.storage,
    priced: new PricedCharges({ credits: w.credits, topUpUrl: w.config.billing.topUpUrl }),
    queue: w.queue,
    images,
    sealer: new AesCredentialsSealer(keys),
    putBytes: bytesToStorage(w.storage, files, 'gen-upload-'),
    maxImageBytes: g.imageMaxBytes,
    events: w.events,
  });
  const generationProcessor = new GenerationProcessor({
    repo,
    storage: w.storage,
    generations,
    logger: w.logger,
    files,
    embedded: new LocalEmbeddedGenerator(w.pool, { videoTimeoutMs: g.timeoutMs }),
    hosted: createHostedClient,
    fetcher: new SafeOutputFetcher({ allowPrivate: w.config.sources.allowPrivateSources }),
    images,
    probe: w.media,
    pollMs: g.pollMs,
    timeoutMs: g.timeoutMs,
    maxOutputBytes: g.outputMaxBytes,
  });
  return { generations, generationProcessor };
}
