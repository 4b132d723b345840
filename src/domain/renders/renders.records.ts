import type { Tx } from '../../ports/transactions.js';
import type { PageRequest } from '../pagination.js';
import type { RenderStatus } from './renders.rules.js';

/** A render of an edit (table `renders`). A cache hit is its own row pointing at the file of the render it reused. */
export interface RenderRow {
  id: string;
  workspaceId: string;
  editId: string;
  /** Hash of the edit as rendered (with the plan's forced watermark): the cache key. */
  editHash: string;
  /** `queued`, `active`, `completed`, `expired` or `failed`. */
  status: string;
  progress: number;
  outputResolution: string;
  hasWatermark: boolean;
  fromCache: boolean;
  storageKey: string | null;
  size: number | null;
  errorCode: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  expiresAt: Date | null;
}

export type NewRender = Pick<RenderRow, 'id' | 'workspaceId' | 'editId' | 'editHash' | 'status' | 'outputResolution' | 'hasWatermark'> &
  Partial<Pick<RenderRow, 'progress' | 'fromCache' | 'storageKey' | 'size' | 'startedAt' | 'completedAt' | 'expiresAt'>>;

/** What a completed render records. */
export interface RenderCompletion {
  storageKey: string;
  size: number;
  completedAt: Date;
  expiresAt: Date;
}

/** The renders aggregate's storage (src/adapters/db/repositories/renders.repository.ts). */
export interface RendersRepository {
  /** Locks the workspace's row until `tx` ends: a workspace's render requests (allowance check, insert) run one at a time. */
  lockWorkspace(tx: Tx, workspaceId: string): Promise<void>;
  /** The workspace's completed, unexpired render of `editHash` expiring last, locked until `tx` ends. */
  findCacheHit(tx: Tx, workspaceId: string, editHash: string, now: Date): Promise<RenderRow | undefined>;
  insert(tx: Tx, render: NewRender): Promise<RenderRow>;
  /** Renders of the workspace that are queued or active. */
  countUnfinished(workspaceId: string, tx?: Tx): Promise<number>;
  get(id: string): Promise<RenderRow | undefined>;
  /** The render when it belongs to the workspace. */
  findInWorkspace(workspaceId: string, id: string): Promise<RenderRow | undefined>;
  /** The workspace's completed, unexpired final render (not a preview) of the edit with a file, expiring last. */
  findReusable(workspaceId: string, editId: string, now: Date): Promise<RenderRow | undefined>;
  /** The workspace's newest final render (not a preview) of the edit that is queued or active. */
  findUnfinishedOfEdit(workspaceId: string, editId: string): Promise<{ id: string } | undefined>;
  /** The render retention (hours) of the plan of the workspace; undefined when there is no such workspace. */
  planExpiryHours(workspaceId: string): Promise<number | undefined>;
  /** Marks the render failed whatever its state. */
  setFailed(id: string, errorCode: string, at: Date): Promise<void>;
  /** Marks the render failed if it is still queued or active; false when it was in neither state. */
  failIfUnfinished(id: string, errorCode: string, at: Date): Promise<boolean>;
  /** Queued or active → active at progress 0 (keeping the first start time); false when it was in neither state. */
  start(id: string): Promise<boolean>;
  /** Active → completed at 100 with its file; false when it was no longer active. */
  complete(id: string, done: RenderCompletion): Promise<boolean>;
  /** Raises the progress of an active render (never lowers it). */
  raiseProgress(id: string, progress: number): Promise<void>;
  /** Completed renders whose `expires_at` has passed. */
  dueForExpiry(now: Date): Promise<Array<{ id: string; storageKey: string | null }>>;
  /** Completed, unexpired renders using the file. */
  countUnexpiredUsing(storageKey: string, now: Date): Promise<number>;
  /** Completed → expired; the number of renders changed. */
  markExpired(ids: readonly string[]): Promise<number>;
  /** The workspace's renders, newest first; `status` as the API shows it at `now` (a completed render past its expiry is `expired`). */
  list(workspaceId: string, filter: { status?: RenderStatus }, page: PageRequest, now: Date): Promise<{ rows: RenderRow[]; total: number }>;
  /** Queued or active renders created before `createdBefore` → failed with `errorCode`; the renders failed. */
  failUnfinishedCreatedBefore(createdBefore: Date, errorCode: string, at: Date): Promise<Array<{ id: string; workspaceId: string; editId: string }>>;
}

/** What a render needs of an edit. */
export interface RenderableEdit {
  id: string;
  /** The clip the edit was made for; null for an edit of no clip. */
  clipId: string | null;
  /** Content hash of `spec`: identical edits render to the same file. */
  hash: string;
  /** The edit (src/domain/edits/edit.ts), as stored. */
  spec: unknown;
}

/**
 * What renders and posts read of edits and clips, which are another aggregate's. Implemented by that
 * aggregate's repository (src/adapters/db/repositories/clips.repository.ts).
 */
export interface EditsReader {
  /** The edit when it belongs to the workspace. */
  findEdit(workspaceId: string, editId: string): Promise<RenderableEdit | undefined>;
  /** The title of the clip the edit was made for; null when none. */
  titleOfEdit(editId: string): Promise<string | null>;
  /** Those of `editIds` that are edits of the workspace. */
  existingEditIds(workspaceId: string, editIds: readonly string[]): Promise<string[]>;
}

/** A clip's current edit (made from the clip when it has none yet): ClipEditsService. */
export interface ClipEdits {
  currentEdit(workspaceId: string, videoId: string, submissionId: string, clipId: string): Promise<RenderableEdit>;
}
