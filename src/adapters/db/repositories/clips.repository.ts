import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, or } from 'drizzle-orm';
import type {
  ClipListOrder,
  ClipReview,
  ClipRow,
  ClipSource,
  ClipsRepository,
  EditRow,
  EditWithVideo,
  NewClip,
  NewEdit,
} from '../../../domain/clips/clips.records.js';
import type { PageRequest } from '../../../domain/pagination.js';
import { sourceFaces } from '../../../domain/edits/clip-edit.js';
import type { EditsReader } from '../../../domain/renders/renders.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { clips, edits, submissions } from '../schema/index.js';
import { executor } from '../transactions.js';

const SORT_COLUMNS = { rating: clips.rating, start_time: clips.startTime, created_at: clips.createdAt } as const;

/** Clips and their edits (tables `clips`, `edits`); also what renders and posts read of edits. */
export class DrizzleClipsRepository implements ClipsRepository, EditsReader {
  constructor(private readonly db: Db) {}

  async insertMissing(rows: readonly NewClip[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insert(clips)
      .values([...rows])
      .onConflictDoNothing();
  }

  async ofSubmission(submissionId: string, tx?: Tx): Promise<ClipRow[]> {
    return executor(this.db, tx).select().from(clips).where(eq(clips.submissionId, submissionId)).orderBy(asc(clips.position));
  }

  async listOfSubmission(workspaceId: string, submissionId: string, order: ClipListOrder, page: PageRequest): Promise<{ rows: ClipRow[]; total: number }> {
    const review = order.review === undefined ? undefined : order.review === 'none' ? isNull(clips.review) : eq(clips.review, order.review);
    const where = and(eq(clips.workspaceId, workspaceId), eq(clips.submissionId, submissionId), review);
    const dir = order.order === 'asc' ? asc : desc;
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(clips).where(where).orderBy(dir(SORT_COLUMNS[order.sort]), asc(clips.position)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(clips).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async findInSubmission(workspaceId: string, submissionId: string, clipId: string): Promise<ClipRow | undefined> {
    const [row] = await this.db
      .select()
      .from(clips)
      .where(and(eq(clips.id, clipId), eq(clips.submissionId, submissionId), eq(clips.workspaceId, workspaceId)));
    return row;
  }

  async setPreview(clipId: string, previewKey: string): Promise<void> {
    await this.db.update(clips).set({ previewKey }).where(eq(clips.id, clipId));
  }

  async setReview(clipId: string, review: ClipReview | null): Promise<void> {
    await this.db.update(clips).set({ review }).where(eq(clips.id, clipId));
  }

  async clearPreviews(submissionId: string): Promise<void> {
    await this.db.update(clips).set({ previewKey: null }).where(eq(clips.submissionId, submissionId));
  }

  async lockSubmission(tx: Tx, submissionId: string): Promise<void> {
    await executor(this.db, tx).select({ id: submissions.id }).from(submissions).where(eq(submissions.id, submissionId)).for('update');
  }

  async clipSource(clipId: string, tx?: Tx): Promise<ClipSource | undefined> {
    const [row] = await executor(this.db, tx)
      .select({ submissionId: clips.submissionId, transcript: submissions.transcript, analysis: submissions.analysis })
      .from(clips)
      .innerJoin(submissions, eq(submissions.id, clips.submissionId))
      .where(eq(clips.id, clipId));
    if (!row) return undefined;
    const words = (row.transcript as { words?: ClipSource['words'] } | null)?.words ?? [];
    const cropPath9x16 = (row.analysis as { cropPath9x16?: ClipSource['cropPath9x16'] } | null)?.cropPath9x16;
    const faces = sourceFaces(row.analysis);
    const { loudness, pitch } = (row.analysis as { loudness?: unknown; pitch?: unknown } | null) ?? {};
    return {
      submissionId: row.submissionId,
      words,
      ...(cropPath9x16?.length ? { cropPath9x16 } : {}),
      ...(faces ? { faces } : {}),
      ...(Array.isArray(loudness) ? { loudness: loudness as number[] } : {}),
      ...(Array.isArray(pitch) ? { pitch: pitch as number[] } : {}),
    };
  }

  async insertEdit(tx: Tx, edit: NewEdit): Promise<void> {
    await executor(this.db, tx).insert(edits).values(edit);
  }

  async setEdit(tx: Tx, clipId: string, edit: { editId: string; hasTemplateApplied?: boolean }): Promise<void> {
    await executor(this.db, tx).update(clips).set(edit).where(eq(clips.id, clipId));
  }

  async findEdit(workspaceId: string, editId: string): Promise<EditRow | undefined> {
    const [row] = await this.db
      .select()
      .from(edits)
      .where(and(eq(edits.id, editId), eq(edits.workspaceId, workspaceId)));
    return row;
  }

  async editsByIds(tx: Tx, ids: readonly string[]): Promise<EditRow[]> {
    if (ids.length === 0) return [];
    return executor(this.db, tx)
      .select()
      .from(edits)
      .where(inArray(edits.id, [...ids]));
  }

  /** An edit with its clip's video: edits left join clips left join submissions. */
  private editsWithVideo() {
    return this.db
      .select({ ...getTableColumns(edits), videoId: submissions.videoId })
      .from(edits)
      .leftJoin(clips, eq(clips.id, edits.clipId))
      .leftJoin(submissions, eq(submissions.id, clips.submissionId));
  }

  async findEditWithVideo(workspaceId: string, editId: string): Promise<EditWithVideo | undefined> {
    const [row] = await this.editsWithVideo().where(and(eq(edits.id, editId), eq(edits.workspaceId, workspaceId)));
    return row;
  }

  async listVersions(
    workspaceId: string,
    of: { clipId: string } | { rootEditId: string },
    page: PageRequest,
  ): Promise<{ rows: EditWithVideo[]; total: number }> {
    const lineage = 'clipId' in of ? eq(edits.clipId, of.clipId) : or(eq(edits.id, of.rootEditId), eq(edits.rootEditId, of.rootEditId));
    const where = and(eq(edits.workspaceId, workspaceId), lineage);
    const [rows, [{ n }]] = await Promise.all([
      this.editsWithVideo().where(where).orderBy(desc(edits.createdAt), desc(edits.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(edits).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async titleOfEdit(editId: string): Promise<string | null> {
    const [row] = await this.db.select({ title: clips.title }).from(edits).innerJoin(clips, eq(clips.id, edits.clipId)).where(eq(edits.id, editId));
    return row?.title ?? null;
  }

  async existingEditIds(workspaceId: string, editIds: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .select({ id: edits.id })
      .from(edits)
      .where(and(eq(edits.workspaceId, workspaceId), inArray(edits.id, [...editIds])));
    return rows.map((r) => r.id);
  }
}
