import { and, asc, count, desc, eq, gte, inArray, isNull, lt, ne, notInArray, sql } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type {
  ItemCondition,
  ItemRenderState,
  NewPost,
  NewPostItem,
  PostChanges,
  PostItemChanges,
  PostItemRow,
  PostRow,
  PostsRepository,
} from '../../../domain/publishing/posts.records.js';
import { LIVE_ITEM_STATES } from '../../../domain/publishing/posts.rules.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { postItems, posts, renders } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Posts and their items (tables `posts`, `post_items`). */
export class DrizzlePostsRepository implements PostsRepository {
  constructor(private readonly db: Db) {}

  async insertPost(tx: Tx, post: NewPost): Promise<void> {
    await executor(this.db, tx).insert(posts).values(post);
  }

  async insertItems(tx: Tx, items: readonly NewPostItem[]): Promise<void> {
    await executor(this.db, tx)
      .insert(postItems)
      .values([...items]);
  }

  async getPost(id: string, tx?: Tx): Promise<PostRow | undefined> {
    const [post] = await executor(this.db, tx).select().from(posts).where(eq(posts.id, id));
    return post;
  }

  async listLivePosts(workspaceId: string, page: PageRequest): Promise<{ rows: PostRow[]; total: number }> {
    const where = and(eq(posts.workspaceId, workspaceId), isNull(posts.deletedAt));
    const rows = await this.db.select().from(posts).where(where).orderBy(desc(posts.createdAt), desc(posts.id)).limit(page.limit).offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(posts).where(where);
    return { rows, total: Number(n) };
  }

  async findLivePost(workspaceId: string, id: string): Promise<PostRow | undefined> {
    const [post] = await this.db.select().from(posts).where(livePost(workspaceId, id));
    return post;
  }

  async lockLivePost(tx: Tx, workspaceId: string, id: string): Promise<PostRow | undefined> {
    const [post] = await executor(this.db, tx).select().from(posts).where(livePost(workspaceId, id)).for('update');
    return post;
  }

  async lockPost(tx: Tx, id: string): Promise<PostRow | undefined> {
    const [post] = await executor(this.db, tx).select().from(posts).where(eq(posts.id, id)).for('update');
    return post;
  }

  async updatePost(id: string, changes: PostChanges, tx?: Tx): Promise<void> {
    await executor(this.db, tx).update(posts).set(changes).where(eq(posts.id, id));
  }

  async getItem(id: string, tx?: Tx): Promise<PostItemRow | undefined> {
    const [item] = await executor(this.db, tx).select().from(postItems).where(eq(postItems.id, id));
    return item;
  }

  async findLiveItem(postId: string, itemId: string, tx?: Tx): Promise<PostItemRow | undefined> {
    const [item] = await executor(this.db, tx)
      .select()
      .from(postItems)
      .where(and(eq(postItems.id, itemId), eq(postItems.postId, postId), isNull(postItems.removedAt)));
    return item;
  }

  liveItems(postId: string, tx?: Tx): Promise<PostItemRow[]> {
    return executor(this.db, tx)
      .select()
      .from(postItems)
      .where(and(eq(postItems.postId, postId), isNull(postItems.removedAt)))
      .orderBy(asc(postItems.position));
  }

  async liveItemsWithRenders(postId: string): Promise<Array<{ item: PostItemRow; render: ItemRenderState | null }>> {
    return this.db
      .select({ item: postItems, render: { status: renders.status, expiresAt: renders.expiresAt } })
      .from(postItems)
      .leftJoin(renders, eq(renders.id, postItems.renderId))
      .where(and(eq(postItems.postId, postId), isNull(postItems.removedAt)))
      .orderBy(asc(postItems.position));
  }

  async liveItemStatuses(postId: string, tx?: Tx): Promise<string[]> {
    const rows = await executor(this.db, tx)
      .select({ status: postItems.status })
      .from(postItems)
      .where(and(eq(postItems.postId, postId), isNull(postItems.removedAt)));
    return rows.map((r) => r.status);
  }

  async updateItem(id: string, changes: PostItemChanges, where: ItemCondition = {}, tx?: Tx): Promise<PostItemRow | undefined> {
    const [item] = await executor(this.db, tx)
      .update(postItems)
      .set(changes)
      .where(and(eq(postItems.id, id), ...meets(where)))
      .returning();
    return item;
  }

  async updateLiveItems(tx: Tx, postId: string, changes: PostItemChanges, scope: ItemCondition & { itemId?: string }): Promise<void> {
    await executor(this.db, tx)
      .update(postItems)
      .set(changes)
      .where(and(eq(postItems.postId, postId), isNull(postItems.removedAt), scope.itemId ? eq(postItems.id, scope.itemId) : undefined, ...meets(scope)));
  }

  async failPendingItems(ids: readonly string[], errorCode: string, at: Date): Promise<string[]> {
    const failed = await this.db
      .update(postItems)
      .set({ status: 'failed', errorCode, updatedAt: at })
      .where(and(inArray(postItems.id, [...ids]), eq(postItems.status, 'pending')))
      .returning({ postId: postItems.postId });
    return failed.map((f) => f.postId);
  }

  async removalOf(itemId: string): Promise<{ removed: boolean } | undefined> {
    const [row] = await this.db
      .select({ removedAt: postItems.removedAt, deletedAt: posts.deletedAt })
      .from(postItems)
      .innerJoin(posts, eq(posts.id, postItems.postId))
      .where(eq(postItems.id, itemId));
    return row && { removed: !!row.removedAt || !!row.deletedAt };
  }

  async countItemsOnDay(tx: Tx, connectionId: string, day: { start: Date; end: Date }, excludePostId?: string): Promise<number> {
    const on = sql`coalesce(${postItems.publishedAt}, ${postItems.dueAt})`;
    const [{ used }] = await executor(this.db, tx)
      .select({ used: count() })
      .from(postItems)
      .where(
        and(
          eq(postItems.connectionId, connectionId),
          ne(postItems.status, 'failed'),
          gte(on, day.start),
          lt(on, day.end),
          excludePostId ? ne(postItems.postId, excludePostId) : undefined,
        ),
      );
    return Number(used);
  }

  async findLiveDuplicate(
    tx: Tx,
    editId: string,
    connectionId: string,
    excludeItemIds: readonly string[],
  ): Promise<{ postId: string; itemId: string } | undefined> {
    const [hit] = await executor(this.db, tx)
      .select({ postId: postItems.postId, itemId: postItems.id })
      .from(postItems)
      .where(
        and(
          eq(postItems.editId, editId),
          eq(postItems.connectionId, connectionId),
          inArray(postItems.status, [...LIVE_ITEM_STATES]),
          isNull(postItems.removedAt),
          excludeItemIds.length > 0 ? notInArray(postItems.id, [...excludeItemIds]) : undefined,
        ),
      )
      .limit(1);
    return hit;
  }
}

function livePost(workspaceId: string, id: string) {
  return and(eq(posts.id, id), eq(posts.workspaceId, workspaceId), isNull(posts.deletedAt));
}

function meets(where: ItemCondition) {
  return [
    where.status !== undefined ? eq(postItems.status, where.status) : undefined,
    where.runToken !== undefined ? eq(postItems.runToken, where.runToken) : undefined,
  ];
}
