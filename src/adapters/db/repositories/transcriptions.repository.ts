import { and, count, desc, eq, isNull, ne, type SQL } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type {
  CacheCandidateRow,
  MediaMeasurement,
  MediaRow,
  NewMedia,
  NewTranscription,
  TranscriptionEnd,
  TranscriptionRow,
  TranscriptionsRepository,
} from '../../../domain/transcriptions/transcriptions.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { media, transcriptions, workspaces } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Media uploads and standalone transcriptions (tables `media`, `transcriptions`), plus the workspace row lock. */
export class DrizzleTranscriptionsRepository implements TranscriptionsRepository {
  constructor(private readonly db: Db) {}

  async insertMedia(row: NewMedia): Promise<void> {
    await this.db.insert(media).values(row);
  }

  async getMedia(id: string): Promise<MediaRow | undefined> {
    const [row] = await this.db.select().from(media).where(eq(media.id, id));
    return row;
  }

  async findMedia(workspaceId: string, id: string): Promise<MediaRow | undefined> {
    const [row] = await this.db
      .select()
      .from(media)
      .where(and(eq(media.id, id), eq(media.workspaceId, workspaceId)));
    return row;
  }

  async markMediaReady(id: string, uploadKey: string, measured: MediaMeasurement): Promise<MediaRow | undefined> {
    const [row] = await this.db
      .update(media)
      .set({ ...measured, status: 'ready' })
      .where(and(eq(media.id, id), eq(media.storageKey, uploadKey), ne(media.status, 'ready')))
      .returning();
    return row;
  }

  async lockWorkspace(tx: Tx, workspaceId: string): Promise<void> {
    await executor(this.db, tx).select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  }

  async cacheCandidates(workspaceId: string, contentHash: string, tx?: Tx): Promise<CacheCandidateRow[]> {
    return executor(this.db, tx)
      .select({
        id: transcriptions.id,
        status: transcriptions.status,
        speakerLabels: transcriptions.speakerLabels,
        speakersExpected: transcriptions.speakersExpected,
        sourceLanguage: transcriptions.sourceLanguage,
        language: transcriptions.language,
        cachedFrom: transcriptions.cachedFrom,
        deletedAt: transcriptions.deletedAt,
        createdAt: transcriptions.createdAt,
      })
      .from(transcriptions)
      .where(and(eq(transcriptions.workspaceId, workspaceId), eq(transcriptions.contentHash, contentHash), ne(transcriptions.status, 'failed')));
  }

  async resultOf(tx: Tx, id: string): Promise<{ cues: unknown; words: unknown } | undefined> {
    const [row] = await executor(this.db, tx)
      .select({ cues: transcriptions.cues, words: transcriptions.words })
      .from(transcriptions)
      .where(eq(transcriptions.id, id));
    return row;
  }

  async setStage(id: string, stage: string, at: Date): Promise<void> {
    await this.db
      .update(transcriptions)
      .set({ stage, stageStartedAt: at })
      .where(and(eq(transcriptions.id, id), eq(transcriptions.status, 'processing')));
  }

  async insert(tx: Tx, row: NewTranscription): Promise<TranscriptionRow> {
    const [inserted] = await executor(this.db, tx).insert(transcriptions).values(row).returning();
    return inserted;
  }

  async undelete(tx: Tx, id: string): Promise<TranscriptionRow> {
    const [row] = await executor(this.db, tx).update(transcriptions).set({ deletedAt: null }).where(eq(transcriptions.id, id)).returning();
    return row;
  }

  async get(id: string): Promise<TranscriptionRow | undefined> {
    const [row] = await this.db.select().from(transcriptions).where(eq(transcriptions.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<TranscriptionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(transcriptions)
      .where(and(eq(transcriptions.id, id), eq(transcriptions.workspaceId, workspaceId), isNull(transcriptions.deletedAt)));
    return row;
  }

  async list(workspaceId: string, filter: { status?: string; mediaId?: string }, page: PageRequest): Promise<{ rows: TranscriptionRow[]; total: number }> {
    const conds: SQL[] = [eq(transcriptions.workspaceId, workspaceId), isNull(transcriptions.deletedAt)];
    if (filter.status) conds.push(eq(transcriptions.status, filter.status));
    if (filter.mediaId) conds.push(eq(transcriptions.mediaId, filter.mediaId));
    const where = and(...conds);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(transcriptions).where(where).orderBy(desc(transcriptions.createdAt), desc(transcriptions.id)).limit(page.limit).offset(page.offset),
      this.db.select({ n: count() }).from(transcriptions).where(where),
    ]);
    return { rows, total: Number(n) };
  }

  async markDeleted(workspaceId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(transcriptions)
      .set({ deletedAt: at })
      .where(and(eq(transcriptions.id, id), eq(transcriptions.workspaceId, workspaceId), isNull(transcriptions.deletedAt)))
      .returning({ id: transcriptions.id });
    return rows.length > 0;
  }

  async finish(id: string, end: TranscriptionEnd, tx?: Tx): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(transcriptions)
      .set(end)
      .where(and(eq(transcriptions.id, id), eq(transcriptions.status, 'processing')))
      .returning({ id: transcriptions.id });
    return rows.length > 0;
  }
}
