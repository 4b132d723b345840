import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';

/** A post (table `posts`): one per POST /posts; its status is derived from its items. */
export interface PostRow {
  id: string;
  workspaceId: string;
  /** `pending`, `processing`, `completed`, `partial`, `failed`. */
  status: string;
  scheduledAt: Date | null;
  /** When a worker first took one of its items: the post never goes back to `pending`. */
  startedAt: Date | null;
  /** DELETE /posts/{id}: hidden from the API; its published items still count for the daily ceiling. */
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One edit to one connection (table `post_items`). */
export interface PostItemRow {
  id: string;
  postId: string;
  workspaceId: string;
  /** Order of the target in the request. */
  position: number;
  editId: string;
  connectionId: string;
  platform: string;
  /** `pending`, `processing`, `published`, `failed`. */
  status: string;
  /** The network's own fields exactly as they are (or were) published, defaults applied. */
  metadata: Record<string, unknown>;
  renderId: string | null;
  publishedUrl: string | null;
  externalId: string | null;
  errorCode: string | null;
  /** The publisher's `onState` progress: resumes without publishing twice. */
  resumeState: unknown;
  /** Publish attempts of the current run (reset by a retry). */
  attempts: number;
  /** The claim of the job run that owns a `processing` item. */
  runToken: string | null;
  /** When the item is due: its day for the daily ceiling until published. */
  dueAt: Date;
  publishedAt: Date | null;
  /** DELETE of the item or its post. */
  removedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPost = Pick<PostRow, 'id' | 'workspaceId' | 'status' | 'scheduledAt' | 'createdAt' | 'updatedAt'>;
export type NewPostItem = Pick<
  PostItemRow,
  'id' | 'postId' | 'workspaceId' | 'position' | 'editId' | 'connectionId' | 'platform' | 'status' | 'metadata' | 'dueAt'
>;
export type PostChanges = Partial<Pick<PostRow, 'status' | 'scheduledAt' | 'startedAt' | 'deletedAt' | 'updatedAt'>>;
export type PostItemChanges = Partial<Omit<PostItemRow, 'id' | 'postId' | 'workspaceId' | 'position' | 'editId' | 'connectionId' | 'platform' | 'createdAt'>>;

/** An update of items applies only to those in this state (or owned by this run). */
export interface ItemCondition {
  status?: string;
  runToken?: string;
}

/** What GET /posts/{id} shows of an item's render. */
export interface ItemRenderState {
  status: string;
  expiresAt: Date | null;
}

/** The posts aggregate's storage: posts and their items (src/adapters/db/repositories/posts.repository.ts). */
export interface PostsRepository {
  insertPost(tx: Tx, post: NewPost): Promise<void>;
  insertItems(tx: Tx, items: readonly NewPostItem[]): Promise<void>;
  getPost(id: string, tx?: Tx): Promise<PostRow | undefined>;
  /** The workspace's posts that are not deleted, newest first: one page and the total. */
  listLivePosts(workspaceId: string, page: PageRequest): Promise<{ rows: PostRow[]; total: number }>;
  /** The workspace's post unless deleted. */
  findLivePost(workspaceId: string, id: string): Promise<PostRow | undefined>;
  /** The workspace's post unless deleted, its row locked until `tx` ends. */
  lockLivePost(tx: Tx, workspaceId: string, id: string): Promise<PostRow | undefined>;
  /** The post (in any state), its row locked until `tx` ends. */
  lockPost(tx: Tx, id: string): Promise<PostRow | undefined>;
  updatePost(id: string, changes: PostChanges, tx?: Tx): Promise<void>;

  getItem(id: string, tx?: Tx): Promise<PostItemRow | undefined>;
  /** The post's item unless removed. */
  findLiveItem(postId: string, itemId: string, tx?: Tx): Promise<PostItemRow | undefined>;
  /** The post's items that are not removed, in request order. */
  liveItems(postId: string, tx?: Tx): Promise<PostItemRow[]>;
  /** The post's items that are not removed, in request order, with the state of their render (null without one). */
  liveItemsWithRenders(postId: string): Promise<Array<{ item: PostItemRow; render: ItemRenderState | null }>>;
  /** The statuses of the post's items that are not removed. */
  liveItemStatuses(postId: string, tx?: Tx): Promise<string[]>;
  /** Changes one item when it meets `where`; the item as changed, or undefined when it did not. */
  updateItem(id: string, changes: PostItemChanges, where?: ItemCondition, tx?: Tx): Promise<PostItemRow | undefined>;
  /** Changes the post's items that are not removed (only `itemId` when given) and meet `where`. */
  updateLiveItems(tx: Tx, postId: string, changes: PostItemChanges, scope: ItemCondition & { itemId?: string }): Promise<void>;
  /** Those of the items still pending become failed with `errorCode`; the posts they belong to. */
  failPendingItems(ids: readonly string[], errorCode: string, at: Date): Promise<string[]>;
  /** Whether the item, or its post, was removed; undefined when there is no such item. */
  removalOf(itemId: string): Promise<{ removed: boolean } | undefined>;

  /**
   * The connection's items that count on a UTC day: not failed, published that day, or (not yet published)
   * due that day; `excludePostId` leaves a post's own items out.
   */
  countItemsOnDay(tx: Tx, connectionId: string, day: { start: Date; end: Date }, excludePostId?: string): Promise<number>;
  /** An item of the edit on the connection that is pending, processing or published and not removed, other than `excludeItemIds`. */
  findLiveDuplicate(tx: Tx, editId: string, connectionId: string, excludeItemIds: readonly string[]): Promise<{ postId: string; itemId: string } | undefined>;
}
