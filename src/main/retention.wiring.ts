import type { Logger } from 'pino';
import type { Database } from '../adapters/db/database.js';
import { DrizzleClipsRepository } from '../adapters/db/repositories/clips.repository.js';
import { DrizzleSubmissionsRepository } from '../adapters/db/repositories/submissions.repository.js';
import { DrizzleVideosRepository } from '../adapters/db/repositories/videos.repository.js';
import { SubmissionRetention } from '../domain/submissions/submissions.retention.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';

/** The submission retention sweep (job submission.expire) on the records' database and the storage. */
export function createRetention(w: { database: Database; storage: Storage; transactions: TransactionRunner; logger: Logger }): SubmissionRetention {
  const db = w.database.db;
  return new SubmissionRetention({
    repo: new DrizzleSubmissionsRepository(db),
    clips: new DrizzleClipsRepository(db),
    videos: new DrizzleVideosRepository(db),
    storage: w.storage,
    transactions: w.transactions,
    logger: w.logger,
  });
}
