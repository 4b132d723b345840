import type { JobQueue } from '../../ports/queue.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import type { EditsReader } from '../renders/renders.records.js';
import { effectiveStatus } from '../renders/renders.rules.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { ConnectionsRepository } from './connections.records.js';
import { applyMetadataDefaults, networkMetadata, validateTargetMetadata } from './metadata.rules.js';
import { checkDailyLimit, checkDuplicates, checkEdits, checkTargetsMetadata, refreshPostStatus, usableConnections, type TargetCheck } from './posts.checks.js';
import type { PostItemRow, PostRow, PostsRepository } from './posts.records.js';
import type { PageRequest } from '../pagination.js';
import { CANCELLED, MAX_POST_ITEMS, type PostItemStatus, type PostStatus } from './posts.rules.js';

/** What the posts service stores and reads: its own records, the connections, and the edits it publishes. */
export interface PostsServiceDeps {
  posts: PostsRepository;
  connections: ConnectionsRepository;
  edits: EditsReader;
  tx: TransactionRunner;
  queue: JobQueue;
  now?: () => Date;
}

export interface CreatePostInput {
  videos: Array<{ edit_id: string; targets: Array<{ connection_id: string; metadata?: Record<string, unknown> }> }>;
  scheduled_at?: string | null;
}

export interface PatchPostInput {
  /** A new time in the future, or null to publish now. Absent: unchanged. */
  scheduled_at?: string | null;
  items?: Array<{ id: string; metadata?: Record<string, unknown> }>;
}

export interface PostCreated {
  id: string;
  item_count: number;
  scheduled_at: string | null;
  status: PostStatus;
}

export interface PostItemView {
  id: string;
  render_id: string | null;
  edit_id: string;
  platform: string;
  connection_id: string;
  status: PostItemStatus;
  published_url: string | null;
  error_code: string | null;
  /** Keyed by network like the request: `{ "<platform>": { …fields as published, defaults applied } }`. */
  metadata: Record<string, unknown>;
  published_at: string | null;
}

export interface PostView extends PostCreated {
  created_at: string;
  items: PostItemView[];
}

/** A timestamp of the body that must lie in the future: 400 VALIDATION_ERROR (rule `future`) otherwise. */
function futureInstant(raw: string | null | undefined, now: Date, field = 'scheduled_at'): Date | null {
  if (raw === undefined || raw === null) return null;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw validationError([{ field, rule: 'format' }]);
  if (at.getTime() <= now.getTime()) throw validationError([{ field, rule: 'future' }]);
  return at;
}

/**
 * Posts: POST /posts checks everything before creating anything (spec: Errors rule 2), then one
 * `post.publish_item` job per item (delayed to `scheduled_at`); GET, PATCH (before publishing), DELETE,
 * item retry and item removal. The publishing itself is PostItemProcessor (post-items.processor.ts).
 */
export class PostsService {
  private readonly posts: PostsRepository;
  private readonly connections: ConnectionsRepository;
  private readonly now: () => Date;

  constructor(private readonly d: PostsServiceDeps) {
    this.posts = d.posts;
    this.connections = d.connections;
    this.now = d.now ?? (() => new Date());
  }

  async create(ctx: WorkspaceWithPlan, input: CreatePostInput): Promise<PostCreated> {
    const ws = ctx.workspace.id;
    const now = this.now();
    const scheduledAt = futureInstant(input.scheduled_at, now);
    const targets: Array<TargetCheck & { metadata?: Record<string, unknown> }> = input.videos.flatMap((v) =>
      v.targets.map((t) => ({ editId: v.edit_id, connectionId: t.connection_id, metadata: t.metadata })),
    );
    if (targets.length === 0) throw validationError([{ field: 'videos', rule: 'minItems' }]);
    if (targets.length > MAX_POST_ITEMS) throw validationError([{ field: 'videos', rule: 'maxItems' }]);

    await checkEdits(
      this.d.edits,
      ws,
      targets.map((t) => t.editId),
    );
    const byId = await usableConnections(
      this.connections,
      ws,
      targets.map((t) => t.connectionId),
    );
    checkTargetsMetadata(targets, byId);

    const postId = newId('post');
    const dueAt = scheduledAt ?? now;
    const itemIds = await this.d.tx.run(async (tx) => {
      await this.connections.lock(tx, [...byId.keys()]);
      // Revoked between the check and the lock: answer as if it had been revoked before.
      await usableConnections(this.connections, ws, [...byId.keys()], tx);
      const requested = new Map<string, number>();
      for (const t of targets) requested.set(t.connectionId, (requested.get(t.connectionId) ?? 0) + 1);
      await checkDailyLimit(this.posts, tx, ctx.plan.dailyPostLimit, requested, dueAt);
      await checkDuplicates(this.posts, tx, targets);

      await this.posts.insertPost(tx, { id: postId, workspaceId: ws, status: 'pending', scheduledAt, createdAt: now, updatedAt: now });
      const rows = targets.map((t, position) => {
        const platform = byId.get(t.connectionId)!.platform;
        return {
          id: newId('item'),
          postId,
          workspaceId: ws,
          position,
          editId: t.editId,
          connectionId: t.connectionId,
          platform,
          status: 'pending',
          metadata: applyMetadataDefaults(platform, networkMetadata(platform, t.metadata)),
          dueAt,
        };
      });
      await this.posts.insertItems(tx, rows);
      return rows.map((r) => r.id);
    });
    await this.enqueue(itemIds, scheduledAt);
    return { id: postId, item_count: itemIds.length, scheduled_at: scheduledAt ? scheduledAt.toISOString() : null, status: 'pending' };
  }

  /** GET /posts: the workspace's posts that are not deleted, newest first, each as GET /posts/{id} shows it. */
  async list(workspaceId: string, page: PageRequest): Promise<{ items: PostView[]; total: number }> {
    const { rows, total } = await this.posts.listLivePosts(workspaceId, page);
    return { items: await Promise.all(rows.map((post) => this.view(post))), total };
  }

  /** GET /posts/{id}. 404 POST_NOT_FOUND (unknown, another workspace's, or deleted). */
  async get(workspaceId: string, id: string): Promise<PostView> {
    return this.view(this.found(await this.posts.findLivePost(workspaceId, id)));
  }

  private async view(post: PostRow): Promise<PostView> {
    const id = post.id;
    const rows = await this.posts.liveItemsWithRenders(id);
    const now = this.now();
    return {
      id: post.id,
      item_count: rows.length,
      scheduled_at: post.scheduledAt ? post.scheduledAt.toISOString() : null,
      status: post.status as PostStatus,
      created_at: post.createdAt.toISOString(),
      items: rows.map(({ item, render }) => {
        // The render's file is purged once it expired: the item then points at no render.
        const renderId = item.renderId && render && effectiveStatus(render, now) !== 'expired' ? item.renderId : null;
        return {
          id: item.id,
          render_id: renderId,
          edit_id: item.editId,
          platform: item.platform,
          connection_id: item.connectionId,
          status: item.status as PostItemStatus,
          published_url: item.publishedUrl,
          error_code: item.errorCode,
          metadata: { [item.platform]: item.metadata },
          published_at: item.publishedAt ? item.publishedAt.toISOString() : null,
        };
      }),
    };
  }

  /**
   * PATCH /posts/{id}: the schedule and items' metadata, while the post is `pending` (no item taken by a
   * worker yet); otherwise 409 POST_ALREADY_PROCESSING with `extra.status`. Re-validated like POST /posts
   * (VALIDATION_ERROR, POST_ITEM_NOT_FOUND, INVALID_METADATA, DAILY_LIMIT_EXCEEDED for the new day).
   * A changed schedule sends new delayed jobs; the jobs of the old time find the item not due and stop.
   */
  async patch(ctx: WorkspaceWithPlan, id: string, input: PatchPostInput): Promise<PostView> {
    const ws = ctx.workspace.id;
    const now = this.now();
    const reschedule = input.scheduled_at !== undefined;
    const scheduledAt = futureInstant(input.scheduled_at, now);
    const pendingIds = await this.d.tx.run(async (tx) => {
      const post = this.found(await this.posts.lockLivePost(tx, ws, id));
      if (post.status !== 'pending' || post.startedAt) throw new DomainError('POST_ALREADY_PROCESSING', { status: post.status });
      const items = await this.posts.liveItems(id, tx);
      const byId = new Map(items.map((i) => [i.id, i] as const));
      for (const change of input.items ?? []) {
        const item = byId.get(change.id);
        if (!item) throw new DomainError('POST_ITEM_NOT_FOUND', { item_id: change.id });
        const violation = validateTargetMetadata(item.platform, change.metadata);
        if (violation) throw new DomainError('INVALID_METADATA', { field: violation.field, item_id: item.id });
      }
      if (reschedule) {
        const requested = new Map<string, number>();
        for (const i of items) if (i.status !== 'failed') requested.set(i.connectionId, (requested.get(i.connectionId) ?? 0) + 1);
        await this.connections.lock(tx, [...requested.keys()]);
        await checkDailyLimit(this.posts, tx, ctx.plan.dailyPostLimit, requested, scheduledAt ?? now, id);
        await this.posts.updatePost(id, { scheduledAt, updatedAt: now }, tx);
        await this.posts.updateLiveItems(tx, id, { dueAt: scheduledAt ?? now, updatedAt: now }, { status: 'pending' });
      }
      for (const change of input.items ?? []) {
        const item = byId.get(change.id)!;
        await this.posts.updateItem(
          item.id,
          { metadata: applyMetadataDefaults(item.platform, networkMetadata(item.platform, change.metadata)), updatedAt: now },
          {},
          tx,
        );
      }
      return items.filter((i) => i.status === 'pending').map((i) => i.id);
    });
    if (reschedule) await this.enqueue(pendingIds, scheduledAt);
    return this.get(ws, id);
  }

  /**
   * DELETE /posts/{id}: the post disappears from the API. Pending items are cancelled (never published);
   * an item being published right now is stopped before its upload when it can be, else it finishes; what
   * is already published stays published on the network.
   */
  async delete(workspaceId: string, id: string): Promise<void> {
    const now = this.now();
    await this.d.tx.run(async (tx) => {
      this.found(await this.posts.lockLivePost(tx, workspaceId, id));
      await this.posts.updatePost(id, { deletedAt: now, updatedAt: now }, tx);
      await this.cancelItems(tx, id, undefined, now);
    });
  }

  /**
   * DELETE /posts/{id}/items/{itemId}: removes one item (cancelled when still pending); the siblings are
   * untouched and the post's status follows the remaining items. Removing the last item deletes the post.
   */
  async removeItem(workspaceId: string, postId: string, itemId: string): Promise<void> {
    const now = this.now();
    await this.d.tx.run(async (tx) => {
      this.found(await this.posts.lockLivePost(tx, workspaceId, postId));
      await this.loadItem(tx, postId, itemId);
      await this.cancelItems(tx, postId, itemId, now);
      const left = await this.posts.liveItems(postId, tx);
      if (left.length === 0) await this.posts.updatePost(postId, { deletedAt: now, updatedAt: now }, tx);
      else await refreshPostStatus(this.posts, postId, tx);
    });
  }

  /**
   * POST /posts/{id}/items/{itemId}/retry: a `failed` item goes back to `pending` and is queued at once
   * (409 POST_ITEM_NOT_FAILED otherwise); the post becomes `processing` and follows its items again.
   * Checked like a new target: the connection (400 INVALID_CONNECTIONS), today's ceiling (403) and
   * duplicates (409). The item's upload state is kept, so a network session is resumed when still valid.
   */
  async retry(ctx: WorkspaceWithPlan, postId: string, itemId: string): Promise<PostView> {
    const ws = ctx.workspace.id;
    const now = this.now();
    const startAfter = await this.d.tx.run(async (tx) => {
      const post = this.found(await this.posts.lockLivePost(tx, ws, postId));
      const item = await this.loadItem(tx, postId, itemId);
      if (item.status !== 'failed') throw new DomainError('POST_ITEM_NOT_FAILED', { status: item.status });
      // Only an item that failed before its time (queue outage) still waits for the schedule.
      const due = post.scheduledAt && post.scheduledAt > now ? post.scheduledAt : null;
      await this.connections.lock(tx, [item.connectionId]);
      await usableConnections(this.connections, ws, [item.connectionId], tx);
      await checkDailyLimit(this.posts, tx, ctx.plan.dailyPostLimit, new Map([[item.connectionId, 1]]), due ?? now);
      await checkDuplicates(this.posts, tx, [{ editId: item.editId, connectionId: item.connectionId }], [item.id]);
      await this.posts.updateItem(
        item.id,
        { status: 'pending', errorCode: null, attempts: 0, runToken: null, renderId: null, dueAt: due ?? now, updatedAt: now },
        {},
        tx,
      );
      await refreshPostStatus(this.posts, postId, tx);
      return due;
    });
    await this.enqueue([itemId], startAfter);
    return this.get(ws, postId);
  }

  /** One `post.publish_item` job per item; when the queue refuses, the items still pending fail with QUEUE_UNAVAILABLE. */
  private async enqueue(itemIds: readonly string[], startAfter: Date | null): Promise<void> {
    await enqueueAfterCommit(
      this.d.queue,
      itemIds.map((itemId) => ({ name: 'post.publish_item' as const, payload: { itemId }, startAfter })),
      async (code) => {
        const postIds = await this.posts.failPendingItems(itemIds, code, this.now());
        for (const postId of new Set(postIds)) await refreshPostStatus(this.posts, postId);
      },
    );
  }

  /** Marks items removed (all of the post's, or one); pending ones are cancelled. */
  private async cancelItems(tx: Tx, postId: string, itemId: string | undefined, now: Date): Promise<void> {
    await this.posts.updateLiveItems(tx, postId, { status: 'failed', errorCode: CANCELLED, runToken: null, updatedAt: now }, { itemId, status: 'pending' });
    await this.posts.updateLiveItems(tx, postId, { removedAt: now, updatedAt: now }, { itemId });
  }

  /** 404 POST_NOT_FOUND for a post that is not there (unknown, another workspace's, or deleted). */
  private found(post: PostRow | undefined): PostRow {
    if (!post) throw new DomainError('POST_NOT_FOUND');
    return post;
  }

  private async loadItem(tx: Tx, postId: string, itemId: string): Promise<PostItemRow> {
    const item = await this.posts.findLiveItem(postId, itemId, tx);
    if (!item) throw new DomainError('POST_ITEM_NOT_FOUND');
    return item;
  }
}
