import type { Logger } from 'pino';
import type { LocalFiles } from '../../ports/local-files.js';
import { PublishError, type Publisher } from '../../ports/publisher.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import { sendJob } from '../jobs/enqueue.js';
import { retryOrFail, throwIfLost, type Attempt } from '../jobs/retry.js';
import type { RenderRow, RendersRepository } from '../renders/renders.records.js';
import { effectiveStatus } from '../renders/renders.rules.js';
import type { RendersService } from '../renders/renders.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import type { ConnectionsService } from './connections.service.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import { refreshPostStatus } from './posts.checks.js';
import type { PostItemRow, PostsRepository } from './posts.records.js';
import { CANCELLED, CONNECTION_REVOKED, PUBLISH_FAILED, RENDER_FAILED, notYetDue, retryDelayMs } from './posts.rules.js';

export interface PostItemProcessorDeps {
  posts: PostsRepository;
  /** The renders an item can publish. */
  renderRows: Pick<RendersRepository, 'get' | 'findReusable' | 'findUnfinishedOfEdit'>;
  tx: TransactionRunner;
  queue: JobQueue;
  storage: Storage;
  /** The size of the local copy of the render. */
  files: Pick<LocalFiles, 'size'>;
  /** Starts a render of an edit, or answers a cached file (RendersService.renderEdit). */
  renders: Pick<RendersService, 'renderEdit'>;
  workspaces: Pick<WorkspacesService, 'get'>;
  connections: ConnectionsService;
  /** Keyed by lowercase network name (createPublishers). */
  publishers: ReadonlyMap<string, Publisher>;
  logger: Logger;
  /** Publish attempts of a retryable failure before the item fails. */
  maxAttempts: number;
  /** First retry delay (doubled each attempt). */
  retryBaseMs: number;
  /** How often an item waiting for its render looks again. */
  renderWaitMs: number;
  now?: () => Date;
  /** Announces `post.completed`, `post.partial` and `post.failed` (webhooks) when an item's end settles the post. */
  events?: EventPublisher;
}

export interface ItemJob {
  itemId: string;
  /** The run's claim, carried by the jobs a run sends itself (render wait, backoff). */
  token?: string;
  /** pg-boss job id: the same on the job's own retries (crash, unexpected error). */
  jobId: string;
  /** Which run of the job this is (the job's own retries). */
  attempt: Attempt;
}

type RenderOutcome = { kind: 'ready'; render: RenderRow } | { kind: 'wait'; ms: number } | { kind: 'failed'; code: string };

/**
 * Job `post.publish_item`: one post item from `pending` to `published` or `failed`.
 *
 * 1. Claim: a pending item that is due becomes `processing` with a run token (the job's id); a job of an
 *    item that is not due (rescheduled), removed, or owned by another run does nothing.
 * 2. Render: reuse the item's render or any completed unexpired render of its edit; otherwise ask the
 *    renders service (a cache hit is immediate, else a `render.process` job) and send this job again
 *    after `renderWaitMs` until the render is done. No worker waits idle.
 * 3. Publish with the connection's publisher: `idempotencyKey` = item id, `resumeState` from the item,
 *    every `onState` saved on the item before the network creates anything, refreshed tokens saved on
 *    the connection. A crash anywhere comes back as a retry of the same job (same token) and the
 *    publisher resumes from the saved state, so nothing is published twice.
 * 4. A retryable PublishError sends the job again after a backoff (up to `maxAttempts`); any other
 *    failure fails the item with the error's `error_code`. The post's status follows each change.
 */
export class PostItemProcessor {
  private readonly now: () => Date;

  constructor(private readonly d: PostItemProcessorDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async run(job: ItemJob): Promise<void> {
    const claimed = await this.claim(job);
    if (!claimed) return;
    const { item, token } = claimed;
    try {
      throwIfLost(job.attempt);
      await this.work(item, token);
    } catch (err) {
      // Anything the run did not handle itself is unexpected: the job's own retries, then PUBLISH_FAILED.
      await retryOrFail(err, job.attempt, {
        retryable: () => true,
        onRetry: () => this.d.logger.warn({ err, itemId: item.id, retry: job.attempt.retryCount + 1 }, 'post item failed unexpectedly; retrying'),
        fail: async () => {
          this.d.logger.error({ err, itemId: item.id }, 'post item failed');
          await this.finish(item, token, { status: 'failed', errorCode: PUBLISH_FAILED });
        },
      });
    }
  }

  /** Takes the item for this run, or answers undefined when this job has nothing to do. */
  private async claim(job: ItemJob): Promise<{ item: PostItemRow; token: string } | undefined> {
    return this.d.tx.run(async (tx) => {
      const found = await this.d.posts.getItem(job.itemId, tx);
      if (!found) return undefined;
      const post = await this.d.posts.lockPost(tx, found.postId);
      if (!post) return undefined;
      const item = (await this.d.posts.getItem(job.itemId, tx))!;
      const now = this.now();
      const ownRun = item.status === 'processing' && !!item.runToken && (item.runToken === job.token || item.runToken === job.jobId);
      if (item.removedAt || post.deletedAt) {
        // Another run still owning the item stops on its own before uploading (cancelIfRemoved).
        if (item.status === 'pending' || ownRun) {
          await this.d.posts.updateItem(item.id, { status: 'failed', errorCode: CANCELLED, runToken: null, updatedAt: now }, {}, tx);
        }
        return undefined;
      }
      if (item.status === 'pending') {
        if (notYetDue(post.scheduledAt, now)) return undefined; // rescheduled: the job of the new time takes it
        const taken = await this.d.posts.updateItem(item.id, { status: 'processing', runToken: job.jobId, updatedAt: now }, { status: 'pending' }, tx);
        if (!taken) return undefined;
        if (!post.startedAt) await this.d.posts.updatePost(post.id, { startedAt: now }, tx);
        await refreshPostStatus(this.d.posts, post.id, tx);
        return { item: taken, token: job.jobId };
      }
      if (ownRun) return { item, token: item.runToken! };
      return undefined;
    });
  }

  private async work(item: PostItemRow, token: string): Promise<void> {
    const connection = await this.d.connections.get(item.connectionId);
    if (!connection || connection.status !== 'active') return this.finish(item, token, { status: 'failed', errorCode: CONNECTION_REVOKED });
    const publisher = this.d.publishers.get(item.platform);
    if (!publisher) return this.finish(item, token, { status: 'failed', errorCode: 'PLATFORM_UNAVAILABLE' });

    const outcome = await this.render(item);
    if (outcome.kind === 'failed') return this.finish(item, token, { status: 'failed', errorCode: outcome.code });
    if (outcome.kind === 'wait') return this.again(item.id, token, outcome.ms);

    // Removed while it was rendering: stop before anything reaches the network.
    if (await this.cancelIfRemoved(item.id, token)) return;
    const counted = (await this.d.posts.updateItem(item.id, { attempts: item.attempts + 1, updatedAt: this.now() }))!;
    const credentials = await this.d.connections.credentials(connection);

    try {
      const result = await this.d.storage.withLocalFile(outcome.render.storageKey!, async (file) =>
        publisher.publish({
          file,
          sizeBytes: await this.d.files.size(file),
          metadata: counted.metadata,
          credentials,
          idempotencyKey: item.id,
          account: connection.accountName,
          resumeState: counted.resumeState ?? undefined,
          onState: async (state) => {
            await this.d.posts.updateItem(item.id, { resumeState: state, updatedAt: this.now() });
          },
        }),
      );
      if (result.credentials) await this.d.connections.saveCredentials(connection.id, result.credentials);
      await this.finish(item, token, { status: 'published', publishedUrl: result.publishedUrl, externalId: result.externalId, publishedAt: this.now() });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'FILE_NOT_FOUND') {
        // The render's file was purged meanwhile: render again.
        await this.d.posts.updateItem(item.id, { renderId: null });
        return this.again(item.id, token, this.d.renderWaitMs);
      }
      if (!(err instanceof PublishError)) throw err;
      if (err.credentials) await this.d.connections.saveCredentials(connection.id, err.credentials);
      if (err.retryable && counted.attempts < this.d.maxAttempts) {
        this.d.logger.warn({ itemId: item.id, code: err.error_code, attempt: counted.attempts }, 'publish failed; retrying');
        return this.again(item.id, token, retryDelayMs(counted.attempts, this.d.retryBaseMs, err.retryAfterSeconds));
      }
      this.d.logger.warn({ itemId: item.id, code: err.error_code, err: err.message }, 'publish failed');
      await this.finish(item, token, { status: 'failed', errorCode: err.error_code });
    }
  }

  /** The render to publish: the item's, a completed unexpired one of its edit, or a new one. */
  private async render(item: PostItemRow): Promise<RenderOutcome> {
    const now = this.now();
    if (item.renderId) {
      const r = await this.d.renderRows.get(item.renderId);
      const status = r ? effectiveStatus(r, now) : 'expired';
      if (r && status === 'completed' && r.storageKey) return { kind: 'ready', render: r };
      if (status === 'queued' || status === 'active') return { kind: 'wait', ms: this.d.renderWaitMs };
      if (status === 'failed') return { kind: 'failed', code: RENDER_FAILED };
    }
    const reuse = await this.d.renderRows.findReusable(item.workspaceId, item.editId, now);
    if (reuse) {
      await this.setRender(item.id, reuse.id);
      return { kind: 'ready', render: reuse };
    }
    // A render of the same edit already on its way (a sibling item asked for it): wait for that one.
    const inFlight = await this.d.renderRows.findUnfinishedOfEdit(item.workspaceId, item.editId);
    if (inFlight) {
      await this.setRender(item.id, inFlight.id);
      return { kind: 'wait', ms: this.d.renderWaitMs };
    }
    try {
      const ctx = await this.d.workspaces.get(item.workspaceId);
      const started = await this.d.renders.renderEdit(ctx, item.editId);
      await this.setRender(item.id, started.render.id);
      if (!started.fromCache) return { kind: 'wait', ms: this.d.renderWaitMs };
      const r = await this.d.renderRows.get(started.render.id);
      return { kind: 'ready', render: r! };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'RATE_LIMIT_EXCEEDED') return { kind: 'wait', ms: Math.max(this.d.renderWaitMs, 1000) };
      if (err instanceof DomainError && (err.code === 'EDITS_NOT_FOUND' || err.code === 'WORKSPACE_NOT_FOUND'))
        return { kind: 'failed', code: 'EDITS_NOT_FOUND' };
      throw err;
    }
  }

  private async setRender(itemId: string, renderId: string): Promise<void> {
    await this.d.posts.updateItem(itemId, { renderId, updatedAt: this.now() });
  }

  /** The same run continues later in a new job carrying the run's token. */
  private async again(itemId: string, token: string, delayMs: number): Promise<void> {
    await sendJob(this.d.queue, { name: 'post.publish_item', payload: { itemId, token }, startAfter: new Date(this.now().getTime() + delayMs) });
  }

  private async cancelIfRemoved(itemId: string, token: string): Promise<boolean> {
    const state = await this.d.posts.removalOf(itemId);
    if (!state || !state.removed) return false;
    await this.d.posts.updateItem(itemId, { status: 'failed', errorCode: CANCELLED, runToken: null, updatedAt: this.now() }, { runToken: token });
    return true;
  }

  /** Ends the run: the item's final state (only while this run owns it), then the post's status. */
  private async finish(
    item: PostItemRow,
    token: string,
    change: { status: 'published' | 'failed'; errorCode?: string; publishedUrl?: string; externalId?: string; publishedAt?: Date },
  ): Promise<void> {
    await this.d.tx.run(async (tx) => {
      await this.d.posts.lockPost(tx, item.postId);
      const before = (await this.d.posts.getPost(item.postId, tx))?.status;
      await this.d.posts.updateItem(
        item.id,
        { ...change, errorCode: change.errorCode ?? null, runToken: null, updatedAt: this.now() },
        { status: 'processing', runToken: token },
        tx,
      );
      const after = await refreshPostStatus(this.d.posts, item.postId, tx);
      if (after !== before && (after === 'completed' || after === 'partial' || after === 'failed')) {
        await (this.d.events ?? noEvents).publish(item.workspaceId, `post.${after}`, { id: item.postId, status: after }, tx);
      }
    });
  }
}
