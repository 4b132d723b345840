import { and, asc, count, eq, gte, inArray, isNull, lt, ne, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../adapters/db/database.js';
import { connections, edits, postItems, posts } from '../../adapters/db/schema.js';
import { DomainError } from '../errors.js';
import { validateTargetMetadata } from './metadata.rules.js';
import { LIVE_ITEM_STATES, derivePostStatus, utcDay, type PostStatus } from './posts.rules.js';
import type { ConnectionRow } from './connections.service.js';

/**
 * The checks of POST /posts (also used by PATCH and retry), in the order the API answers them, and the
 * post status refresh. Each throws the spec's DomainError; none writes anything.
 */

export type PostRow = typeof posts.$inferSelect;
export type PostItemRow = typeof postItems.$inferSelect;

export interface TargetCheck {
  editId: string;
  connectionId: string;
  metadata?: unknown;
}

const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** 404 EDITS_NOT_FOUND with `extra.invalid_edits` (unknown or another workspace's), in request order. */
export async function checkEdits(db: Executor, workspaceId: string, editIds: readonly string[]): Promise<void> {
  const ids = unique(editIds);
  const found = await db
    .select({ id: edits.id })
    .from(edits)
    .where(and(eq(edits.workspaceId, workspaceId), inArray(edits.id, ids)));
  const known = new Set(found.map((r) => r.id));
  const invalid = ids.filter((id) => !known.has(id));
  if (invalid.length > 0) throw new DomainError('EDITS_NOT_FOUND', { invalid_edits: invalid });
}

/**
 * The connections of the targets. 400 INVALID_CONNECTIONS with `extra.invalid_connections` (unknown,
 * another workspace's, revoked, or unable to publish video), in request order.
 */
export async function usableConnections(db: Executor, workspaceId: string, connectionIds: readonly string[]): Promise<Map<string, ConnectionRow>> {
  const ids = unique(connectionIds);
  const rows = await db
    .select()
    .from(connections)
    .where(and(eq(connections.workspaceId, workspaceId), inArray(connections.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r] as const));
  const invalid = ids.filter((id) => {
    const c = byId.get(id);
    return !c || c.status !== 'active' || !c.canPublishVideo;
  });
  if (invalid.length > 0) throw new DomainError('INVALID_CONNECTIONS', { invalid_connections: invalid });
  return byId;
}

/** 400 INVALID_METADATA with the network-qualified `extra.field` of the first failing target (plus its edit and connection). */
export function checkTargetsMetadata(targets: readonly TargetCheck[], byId: ReadonlyMap<string, ConnectionRow>): void {
  for (const t of targets) {
    const platform = byId.get(t.connectionId)!.platform;
    const violation = validateTargetMetadata(platform, t.metadata);
    if (violation) throw new DomainError('INVALID_METADATA', { field: violation.field, edit_id: t.editId, connection_id: t.connectionId });
  }
}

/**
 * 403 DAILY_LIMIT_EXCEEDED when a connection would hold more than `dailyLimit` items on the UTC day of
 * `at`. Counted: the connection's items that are not failed, on the day they were published, or (not yet
 * published) the day they are due; `excludePostId` leaves a post's own items out (PATCH of its schedule).
 */
export async function checkDailyLimit(
  db: Executor,
  dailyLimit: number,
  requested: ReadonlyMap<string, number>,
  at: Date,
  excludePostId?: string,
): Promise<void> {
  const { start, end } = utcDay(at);
  const day = sql`coalesce(${postItems.publishedAt}, ${postItems.dueAt})`;
  for (const [connectionId, n] of requested) {
    const [{ used }] = await db
      .select({ used: count() })
      .from(postItems)
      .where(
        and(
          eq(postItems.connectionId, connectionId),
          ne(postItems.status, 'failed'),
          gte(day, start),
          lt(day, end),
          excludePostId ? ne(postItems.postId, excludePostId) : undefined,
        ),
      );
    const usedToday = Number(used);
    if (usedToday + n > dailyLimit) {
      throw new DomainError('DAILY_LIMIT_EXCEEDED', { daily_limit: dailyLimit, used_today: usedToday, requested: n, connection_id: connectionId });
    }
  }
}

/**
 * 409 DUPLICATE_POST when the same edit is twice in the request for one connection, or already pending,
 * processing or published there (items still in a post; removed ones and failed ones do not count).
 */
export async function checkDuplicates(db: Executor, targets: readonly TargetCheck[], excludeItemIds: readonly string[] = []): Promise<void> {
  const seen = new Set<string>();
  for (const t of targets) {
    const key = `${t.editId}\u0000${t.connectionId}`;
    if (seen.has(key)) throw new DomainError('DUPLICATE_POST', { edit_id: t.editId, connection_id: t.connectionId });
    seen.add(key);
  }
  for (const t of targets) {
    const [hit] = await db
      .select({ postId: postItems.postId, itemId: postItems.id })
      .from(postItems)
      .where(
        and(
          eq(postItems.editId, t.editId),
          eq(postItems.connectionId, t.connectionId),
          inArray(postItems.status, [...LIVE_ITEM_STATES]),
          isNull(postItems.removedAt),
          excludeItemIds.length > 0 ? notInArray(postItems.id, [...excludeItemIds]) : undefined,
        ),
      )
      .limit(1);
    if (hit) throw new DomainError('DUPLICATE_POST', { edit_id: t.editId, connection_id: t.connectionId, post_id: hit.postId });
  }
}

/** Locks the connections' rows (serialises the ceiling and duplicate checks with the inserts). */
export async function lockConnections(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .select({ id: connections.id })
    .from(connections)
    .where(inArray(connections.id, unique(ids)))
    .orderBy(asc(connections.id))
    .for('update');
}

/** Recomputes and stores the post's status from its items that are not removed; returns it. */
export async function refreshPostStatus(db: Executor, postId: string): Promise<PostStatus | undefined> {
  const [post] = await db.select().from(posts).where(eq(posts.id, postId));
  if (!post) return undefined;
  const items = await db
    .select({ status: postItems.status })
    .from(postItems)
    .where(and(eq(postItems.postId, postId), isNull(postItems.removedAt)));
  const status = derivePostStatus(
    items.map((i) => i.status),
    post.startedAt !== null,
    post.status as PostStatus,
  );
  if (status !== post.status) await db.update(posts).set({ status, updatedAt: new Date() }).where(eq(posts.id, postId));
  return status;
}
