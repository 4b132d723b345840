import type { Tx } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import type { EditsReader } from '../renders/renders.records.js';
import type { ConnectionRow, ConnectionsRepository } from './connections.records.js';
import { validateTargetMetadata } from './metadata.rules.js';
import type { PostsRepository } from './posts.records.js';
import { derivePostStatus, utcDay, type PostStatus } from './posts.rules.js';

/**
 * The checks of POST /posts (also used by PATCH and retry), in the order the API answers them, and the
 * post status refresh. Each check throws the spec's DomainError; none writes anything.
 */

export interface TargetCheck {
  editId: string;
  connectionId: string;
  metadata?: unknown;
}

const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** 404 EDITS_NOT_FOUND with `extra.invalid_edits` (unknown or another workspace's), in request order. */
export async function checkEdits(edits: EditsReader, workspaceId: string, editIds: readonly string[]): Promise<void> {
  const ids = unique(editIds);
  const known = new Set(await edits.existingEditIds(workspaceId, ids));
  const invalid = ids.filter((id) => !known.has(id));
  if (invalid.length > 0) throw new DomainError('EDITS_NOT_FOUND', { invalid_edits: invalid });
}

/**
 * The connections of the targets. 400 INVALID_CONNECTIONS with `extra.invalid_connections` (unknown,
 * another workspace's, revoked, or unable to publish video), in request order.
 */
export async function usableConnections(
  connections: ConnectionsRepository,
  workspaceId: string,
  connectionIds: readonly string[],
  tx?: Tx,
): Promise<Map<string, ConnectionRow>> {
  const ids = unique(connectionIds);
  const byId = new Map((await connections.findMany(workspaceId, ids, tx)).map((r) => [r.id, r] as const));
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
  posts: PostsRepository,
  tx: Tx,
  dailyLimit: number,
  requested: ReadonlyMap<string, number>,
  at: Date,
  excludePostId?: string,
): Promise<void> {
  const day = utcDay(at);
  for (const [connectionId, n] of requested) {
    const usedToday = await posts.countItemsOnDay(tx, connectionId, day, excludePostId);
    if (usedToday + n > dailyLimit) {
      throw new DomainError('DAILY_LIMIT_EXCEEDED', { daily_limit: dailyLimit, used_today: usedToday, requested: n, connection_id: connectionId });
    }
  }
}

/**
 * 409 DUPLICATE_POST when the same edit is twice in the request for one connection, or already pending,
 * processing or published there (items still in a post; removed ones and failed ones do not count).
 */
export async function checkDuplicates(posts: PostsRepository, tx: Tx, targets: readonly TargetCheck[], excludeItemIds: readonly string[] = []): Promise<void> {
  const seen = new Set<string>();
  for (const t of targets) {
    const key = `${t.editId}\u0000${t.connectionId}`;
    if (seen.has(key)) throw new DomainError('DUPLICATE_POST', { edit_id: t.editId, connection_id: t.connectionId });
    seen.add(key);
  }
  for (const t of targets) {
    const hit = await posts.findLiveDuplicate(tx, t.editId, t.connectionId, excludeItemIds);
    if (hit) throw new DomainError('DUPLICATE_POST', { edit_id: t.editId, connection_id: t.connectionId, post_id: hit.postId });
  }
}

/** Recomputes and stores the post's status from its items that are not removed; returns it. */
export async function refreshPostStatus(posts: PostsRepository, postId: string, tx?: Tx): Promise<PostStatus | undefined> {
  const post = await posts.getPost(postId, tx);
  if (!post) return undefined;
  const items = await posts.liveItemStatuses(postId, tx);
  const status = derivePostStatus(items, post.startedAt !== null, post.status as PostStatus);
  if (status !== post.status) await posts.updatePost(postId, { status, updatedAt: new Date() }, tx);
  return status;
}
