/**
 * Post rules (pure): the post status derived from its items, the UTC day of the daily ceiling, publish
 * retry delays. docs/publishing.md ("Posts API") and docs/api-decisions.md ("Posts and connections").
 */

export type PostStatus = 'pending' | 'processing' | 'completed' | 'partial' | 'failed';
export type PostItemStatus = 'pending' | 'processing' | 'published' | 'failed';

/** Items that count for the duplicate check: on their way to the account, or already there. */
export const LIVE_ITEM_STATES: readonly PostItemStatus[] = ['pending', 'processing', 'published'];

/** Item `error_code` of an item removed (or its post deleted) before it was published. */
export const CANCELLED = 'CANCELLED';
/** Item `error_code` when the connection was revoked before the item was published. */
export const CONNECTION_REVOKED = 'CONNECTION_REVOKED';
/** Item `error_code` when the render of the item's edit failed. */
export const RENDER_FAILED = 'RENDER_FAILED';
/** Item `error_code` of an unexpected failure that survived the job's retries. */
export const PUBLISH_FAILED = 'PUBLISH_FAILED';

/** At most this many items (videos x targets) in one POST /posts. */
export const MAX_POST_ITEMS = 100;

/** A delayed job may start this early (clock skew, pg-boss rounding) and still count as due. */
export const SCHEDULE_TOLERANCE_MS = 1000;

/**
 * The post's status from its items (removed items excluded):
 * - every item pending and no worker has started the post: `pending`;
 * - any item pending or processing: `processing` (also after a retry re-queues a failed item);
 * - all finished: every one published `completed`, none published `failed`, else `partial`.
 * A post without items keeps `current`.
 */
export function derivePostStatus(items: readonly string[], started: boolean, current: PostStatus): PostStatus {
  if (items.length === 0) return current;
  const open = items.filter((s) => s === 'pending' || s === 'processing').length;
  if (open > 0) return !started && items.every((s) => s === 'pending') ? 'pending' : 'processing';
  const published = items.filter((s) => s === 'published').length;
  if (published === items.length) return 'completed';
  return published === 0 ? 'failed' : 'partial';
}

/** The UTC day [start, end) holding `at`. */
export function utcDay(at: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return { start, end: new Date(start.getTime() + 24 * 3600 * 1000) };
}

/** Delay before publish attempt `attempt + 1`: base x 2^(attempt-1), at least the network's Retry-After, at most one hour. */
export function retryDelayMs(attempt: number, baseMs: number, retryAfterSeconds?: number): number {
  const backoff = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(3600_000, Math.max(backoff, (retryAfterSeconds ?? 0) * 1000));
}

/** Whether a pending item's job should wait: the post is scheduled later than now (beyond the tolerance). */
export function notYetDue(scheduledAt: Date | null, now: Date): boolean {
  return scheduledAt !== null && scheduledAt.getTime() - now.getTime() > SCHEDULE_TOLERANCE_MS;
}
