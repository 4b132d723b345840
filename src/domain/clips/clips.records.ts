import type { Keyframe } from '../reframe/crop-keyframes.js';
import type { SourceFaces } from '../edits/clip-edit.js';
import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';
import type { ScoreDetails } from '../../ports/highlights.js';

/** A clip of a submission (table `clips`): one highlight, its preview and its current edit. */
export interface ClipRow {
  id: string;
  workspaceId: string;
  submissionId: string;
  /** Order of the clip inside its submission (by start time); makes finalizing idempotent. */
  position: number;
  title: string;
  text: string;
  rating: number;
  startTime: number;
  endTime: number;
  language: string;
  signals: Record<string, number> | null;
  /** The rating's sub-scores; null on clips made before them. */
  scoreDetails: ScoreDetails | null;
  /** What the clip is about and why it scored as it did; null on clips made before reasons. */
  reason: string | null;
  /** The keywords, or the words matching the prompt, said in the clip; null on clips made before. */
  matched: string[] | null;
  previewKey: string | null;
  editId: string | null;
  hasTemplateApplied: boolean;
  /** The caller's review (PATCH …/clips/{clipId}); null when not reviewed. */
  review: ClipReview | null;
  createdAt: Date;
}

export type ClipReview = 'kept' | 'skipped';

export type NewClip = Pick<
  ClipRow,
  'id' | 'workspaceId' | 'submissionId' | 'position' | 'title' | 'text' | 'rating' | 'startTime' | 'endTime' | 'language' | 'signals' | 'hasTemplateApplied'
> &
  Partial<Pick<ClipRow, 'scoreDetails' | 'reason' | 'matched'>>;

/** An edit (table `edits`): immutable; a clip points at its current one. */
export interface EditRow {
  id: string;
  workspaceId: string;
  /** The clip the edit was made for; null for an edit of no clip. */
  clipId: string | null;
  /** Content hash of `spec` (editHash): identical edits render to the same file. */
  hash: string;
  /** The edit (src/domain/edits/edit.ts), as stored. */
  spec: unknown;
  /** The template it was made with. */
  templateId: string | null;
  /** The edit it was derived from (POST /edits); null for an edit the service made. */
  parentEditId: string | null;
  /** The first edit of its lineage; null when it is one. */
  rootEditId: string | null;
  /** The lineage's word list (EditWord[], src/domain/edits/edit-words.ts); null: the spec's caption words. */
  words: unknown;
  createdAt: Date;
}

export type NewEdit = Omit<EditRow, 'createdAt' | 'parentEditId' | 'rootEditId' | 'words'> & Partial<Pick<EditRow, 'parentEditId' | 'rootEditId' | 'words'>>;

/** Where a clip comes from: its submission and the words of the submission's transcript (source seconds, time order). */
export interface ClipSource {
  submissionId: string;
  words: ReadonlyArray<{ start: number; end: number; text: string }>;
  /** The source's 9:16 speaker crop path (source time), when the submission's video analysis kept one. */
  cropPath9x16?: readonly Keyframe[];
  /** The source's face samples and scene cuts (source time), when the submission's analysis kept them. */
  faces?: SourceFaces;
  /** The source's loudness per second (LUFS), when the submission's analysis kept it. */
  loudness?: readonly number[];
  /** The voice's pitch per second (Hz), when the submission's analysis measured it. */
  pitch?: readonly number[];
}

/** An edit with what it belongs to: its clip's video (null for an edit of no clip). */
export interface EditWithVideo extends EditRow {
  videoId: string | null;
}

/** The order of a submission's clips in GET …/clips, and the review filter (`none`: not reviewed). */
export interface ClipListOrder {
  sort: 'rating' | 'start_time' | 'created_at';
  order: 'asc' | 'desc';
  review?: ClipReview | 'none';
}

/**
 * The clips and edits aggregate's storage (src/adapters/db/repositories/clips.repository.ts, which also
 * answers what renders and posts read of edits: EditsReader in src/domain/renders/renders.records.ts).
 */
export interface ClipsRepository {
  /** Inserts each clip whose position its submission does not have yet (a taken position keeps its clip). */
  insertMissing(clips: readonly NewClip[]): Promise<void>;
  /** The submission's clips by position. */
  ofSubmission(submissionId: string, tx?: Tx): Promise<ClipRow[]>;
  /** A page of the workspace's clips of a submission, ties broken by position. */
  listOfSubmission(workspaceId: string, submissionId: string, order: ClipListOrder, page: PageRequest): Promise<{ rows: ClipRow[]; total: number }>;
  /** The clip when it belongs to the submission and the workspace. */
  findInSubmission(workspaceId: string, submissionId: string, clipId: string): Promise<ClipRow | undefined>;
  setPreview(clipId: string, previewKey: string): Promise<void>;
  /** Sets the clip's review (null: not reviewed). */
  setReview(clipId: string, review: ClipReview | null): Promise<void>;
  /** Forgets the preview files of the submission's clips (they were deleted). */
  clearPreviews(submissionId: string): Promise<void>;
  /** The clip's submission and its transcript's words (source seconds). */
  clipSource(clipId: string, tx?: Tx): Promise<ClipSource | undefined>;
  /** Locks the submission's row until `tx` ends: one change of its clips' edits at a time. */
  lockSubmission(tx: Tx, submissionId: string): Promise<void>;
  insertEdit(tx: Tx, edit: NewEdit): Promise<void>;
  /** Points the clip at an edit (and sets `hasTemplateApplied` when given). */
  setEdit(tx: Tx, clipId: string, edit: { editId: string; hasTemplateApplied?: boolean }): Promise<void>;
  /** The edit when it belongs to the workspace. */
  findEdit(workspaceId: string, editId: string): Promise<EditRow | undefined>;
  /** The edits of those ids (any workspace). */
  editsByIds(tx: Tx, ids: readonly string[]): Promise<EditRow[]>;
  /** The edit with its clip's video, when it belongs to the workspace. */
  findEditWithVideo(workspaceId: string, editId: string): Promise<EditWithVideo | undefined>;
  /**
   * A page of the versions of an edit, newest first (ties by id, descending): every edit of the clip when
   * `clipId` is given, else the lineage of `rootEditId` (the root and every edit whose root it is).
   */
  listVersions(workspaceId: string, of: { clipId: string } | { rootEditId: string }, page: PageRequest): Promise<{ rows: EditWithVideo[]; total: number }>;
}
