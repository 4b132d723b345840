import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleClipsRepository } from '../adapters/db/repositories/clips.repository.js';
import { DrizzleConnectionsRepository } from '../adapters/db/repositories/connections.repository.js';
import { DrizzlePostsRepository } from '../adapters/db/repositories/posts.repository.js';
import { DrizzleRendersRepository } from '../adapters/db/repositories/renders.repository.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { NodeLocalFiles } from '../adapters/files/local-files.js';
import { AesCredentialsSealer } from '../adapters/publishing/credentials-sealer.js';
import { generateCredentialsKey, parseCredentialsKey } from '../adapters/publishing/credentials-crypto.js';
import { createPublishers } from '../adapters/publishing/publisher.factory.js';
import { ConnectionsService } from '../domain/publishing/connections.service.js';
import { CredentialsKeyService } from '../domain/publishing/credentials-key.service.js';
import { PostItemProcessor, type PostItemProcessorDeps } from '../domain/publishing/post-items.processor.js';
import { PostsService } from '../domain/publishing/posts.service.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';
import type { EventPublisher } from '../domain/webhooks/events.js';

export interface PostsWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  renders: PostItemProcessorDeps['renders'];
  workspaces: PostItemProcessorDeps['workspaces'];
  /** Announces `post.completed`, `post.partial`, `post.failed` (webhooks). */
  events?: EventPublisher;
}

/** Publishers of every network, connections (sealed credentials), posts and the post item worker. */
export function createPosts(w: PostsWiring) {
  const db = w.database.db;
  const p = w.config.publishing;
  const publishers = createPublishers({ publishing: p, dataDir: w.config.dataDir, publicBaseUrl: w.config.publicBaseUrl });
  const keyFormat = { generate: generateCredentialsKey, parse: parseCredentialsKey };
  const credentialsKeys = new CredentialsKeyService({ settings: new DrizzleSettingsRepository(db), format: keyFormat, envKey: p.credentialsKey });
  const connectionRows = new DrizzleConnectionsRepository(db);
  const connections = new ConnectionsService({ repo: connectionRows, sealer: new AesCredentialsSealer(credentialsKeys), publishers });
  const postRows = new DrizzlePostsRepository(db);
  const posts = new PostsService({ posts: postRows, connections: connectionRows, edits: new DrizzleClipsRepository(db), tx: w.transactions, queue: w.queue });
  const postItems = new PostItemProcessor({
    posts: postRows,
    renderRows: new DrizzleRendersRepository(db),
    tx: w.transactions,
    queue: w.queue,
    storage: w.storage,
    files: new NodeLocalFiles(os.tmpdir()),
    renders: w.renders,
    workspaces: w.workspaces,
    connections,
    publishers,
    logger: w.logger,
    maxAttempts: p.maxAttempts,
    retryBaseMs: p.retryBaseMs,
    renderWaitMs: p.renderWaitMs,
    events: w.events,
  });
  return { publishers, connections, posts, postItems };
}
