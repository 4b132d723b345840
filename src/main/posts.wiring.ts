import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { generateCredentialsKey, parseCredentialsKey } from '../adapters/publishing/credentials-crypto.js';
import { createPublishers } from '../adapters/publishing/publisher.factory.js';
import { ConnectionsService } from '../domain/publishing/connections.service.js';
import { CredentialsKeyService } from '../domain/publishing/credentials-key.service.js';
import { PostItemProcessor, type PostItemProcessorDeps } from '../domain/publishing/post-items.processor.js';
import { PostsService } from '../domain/publishing/posts.service.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';

export interface PostsWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  renders: PostItemProcessorDeps['renders'];
  workspaces: PostItemProcessorDeps['workspaces'];
}

/** Publishers of every network, connections (sealed credentials), posts and the post item worker. */
export function createPosts(w: PostsWiring) {
  const db = w.database.db;
  const p = w.config.publishing;
  const publishers = createPublishers({ publishing: p, dataDir: w.config.dataDir, publicBaseUrl: w.config.publicBaseUrl });
  const keyFormat = { generate: generateCredentialsKey, parse: parseCredentialsKey };
  const credentialsKeys = new CredentialsKeyService(new DrizzleSettingsRepository(db), keyFormat, p.credentialsKey);
  const connections = new ConnectionsService(db, credentialsKeys, publishers);
  const posts = new PostsService(db, w.queue);
  const postItems = new PostItemProcessor({
    db,
    queue: w.queue,
    storage: w.storage,
    renders: w.renders,
    workspaces: w.workspaces,
    connections,
    publishers,
    logger: w.logger,
    maxAttempts: p.maxAttempts,
    retryBaseMs: p.retryBaseMs,
    renderWaitMs: p.renderWaitMs,
  });
  return { publishers, connections, posts, postItems };
}
