import { and, asc, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type {
  FaceRow,
  Feedback,
  NewFace,
  NewPersona,
  NewPersonaVideo,
  NewPortrait,
  NewVersion,
  PersonaListFilter,
  PersonaRow,
  PersonasRepository,
  PersonaVideoRow,
  PortraitRow,
  VersionRow,
} from '../../../domain/personas/personas.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { personaFaces, personaPortraits, personaPresetFavorites, personas, personaVersions, personaVideos } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Personas, their portraits, versions, own-face photos, videos and preset favourites (docs/personas.md). */
export class DrizzlePersonasRepository implements PersonasRepository {
  constructor(private readonly db: Db) {}

  async insertPersona(tx: Tx, row: NewPersona): Promise<PersonaRow> {
    const [out] = await executor(this.db, tx).insert(personas).values(row).returning();
    return out;
  }

  async findPersona(workspaceId: string, id: string, tx?: Tx): Promise<PersonaRow | undefined> {
    const [row] = await executor(this.db, tx)
      .select()
      .from(personas)
      .where(and(eq(personas.id, id), eq(personas.workspaceId, workspaceId)));
    return row;
  }

  async getPersona(id: string, tx?: Tx): Promise<PersonaRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(personas).where(eq(personas.id, id));
    return row;
  }

  async lockPersona(tx: Tx, id: string): Promise<PersonaRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(personas).where(eq(personas.id, id)).for('update');
    return row;
  }

  async updatePersona(tx: Tx | undefined, id: string, fields: Parameters<PersonasRepository['updatePersona']>[2]): Promise<PersonaRow> {
    const [row] = await executor(this.db, tx)
      .update(personas)
      .set({ ...fields, updatedAt: new Date() })
      .where(eq(personas.id, id))
      .returning();
    return row;
  }

  async listPersonas(workspaceId: string, filter: PersonaListFilter, page: PageRequest): Promise<{ rows: PersonaRow[]; total: number }> {
    const where: SQL[] = [eq(personas.workspaceId, workspaceId)];
    if (filter.saved !== undefined) where.push(eq(personas.saved, filter.saved));
    if (filter.imageStatus) where.push(eq(personas.imageStatus, filter.imageStatus));
    if (filter.presetId) where.push(eq(personas.presetId, filter.presetId));
    if (filter.q) where.push(ilike(personas.name, `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    const cond = and(...where);
    const rows = await this.db.select().from(personas).where(cond).orderBy(desc(personas.createdAt), desc(personas.id)).limit(page.limit).offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(personas).where(cond);
    return { rows, total: Number(n) };
  }

  async insertPortrait(tx: Tx, row: NewPortrait): Promise<PortraitRow> {
    const [out] = await executor(this.db, tx).insert(personaPortraits).values(row).returning();
    return out;
  }

  async getPortrait(id: string): Promise<PortraitRow | undefined> {
    const [row] = await this.db.select().from(personaPortraits).where(eq(personaPortraits.id, id));
    return row;
  }

  async finishPortrait(tx: Tx, id: string, end: Parameters<PersonasRepository['finishPortrait']>[2]): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(personaPortraits)
      .set({ ...end, finishedAt: new Date() })
      .where(and(eq(personaPortraits.id, id), eq(personaPortraits.status, 'processing')))
      .returning({ id: personaPortraits.id });
    return rows.length > 0;
  }

  async insertVersion(tx: Tx, row: NewVersion): Promise<VersionRow> {
    const [out] = await executor(this.db, tx).insert(personaVersions).values(row).returning();
    return out;
  }

  async findVersion(personaId: string, id: string, tx?: Tx): Promise<VersionRow | undefined> {
    const [row] = await executor(this.db, tx)
      .select()
      .from(personaVersions)
      .where(and(eq(personaVersions.id, id), eq(personaVersions.personaId, personaId)));
    return row;
  }

  async versionsOf(personaIds: readonly string[]): Promise<VersionRow[]> {
    if (personaIds.length === 0) return [];
    return this.db
      .select()
      .from(personaVersions)
      .where(inArray(personaVersions.personaId, [...personaIds]))
      .orderBy(asc(personaVersions.createdAt), asc(personaVersions.id));
  }

  async setVersionFeedback(id: string, fb: Feedback): Promise<VersionRow> {
    const [row] = await this.db
      .update(personaVersions)
      .set({ feedbackVote: fb.vote, feedbackReason: fb.reason, feedbackAt: fb.at })
      .where(eq(personaVersions.id, id))
      .returning();
    return row;
  }

  async insertFace(row: NewFace): Promise<FaceRow> {
    const [out] = await this.db.insert(personaFaces).values(row).returning();
    return out;
  }

  async findFaces(workspaceId: string, ids: readonly string[]): Promise<FaceRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(personaFaces)
      .where(and(eq(personaFaces.workspaceId, workspaceId), inArray(personaFaces.id, [...ids])));
  }

  async insertVideo(tx: Tx, row: NewPersonaVideo): Promise<PersonaVideoRow> {
    const [out] = await executor(this.db, tx).insert(personaVideos).values(row).returning();
    return out;
  }

  async findVideo(personaId: string, id: string): Promise<PersonaVideoRow | undefined> {
    const [row] = await this.db
      .select()
      .from(personaVideos)
      .where(and(eq(personaVideos.id, id), eq(personaVideos.personaId, personaId)));
    return row;
  }

  async getVideo(id: string): Promise<PersonaVideoRow | undefined> {
    const [row] = await this.db.select().from(personaVideos).where(eq(personaVideos.id, id));
    return row;
  }

  async listVideos(personaId: string, filter: { versionId?: string }, page: PageRequest): Promise<{ rows: PersonaVideoRow[]; total: number }> {
    const where: SQL[] = [eq(personaVideos.personaId, personaId)];
    if (filter.versionId) where.push(eq(personaVideos.versionId, filter.versionId));
    const cond = and(...where);
    const rows = await this.db
      .select()
      .from(personaVideos)
      .where(cond)
      .orderBy(desc(personaVideos.createdAt), desc(personaVideos.id))
      .limit(page.limit)
      .offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(personaVideos).where(cond);
    return { rows, total: Number(n) };
  }

  async finishVideo(tx: Tx, id: string, end: Parameters<PersonasRepository['finishVideo']>[2]): Promise<boolean> {
    const rows = await executor(this.db, tx)
      .update(personaVideos)
      .set({ ...end, finishedAt: new Date() })
      .where(and(eq(personaVideos.id, id), eq(personaVideos.status, 'processing')))
      .returning({ id: personaVideos.id });
    return rows.length > 0;
  }

  async setVideoFeedback(id: string, fb: Feedback): Promise<PersonaVideoRow> {
    const [row] = await this.db
      .update(personaVideos)
      .set({ feedbackVote: fb.vote, feedbackReason: fb.reason, feedbackAt: fb.at })
      .where(eq(personaVideos.id, id))
      .returning();
    return row;
  }

  async favoritePresets(workspaceId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: personaPresetFavorites.presetId })
      .from(personaPresetFavorites)
      .where(eq(personaPresetFavorites.workspaceId, workspaceId));
    return rows.map((r) => r.id);
  }

  async setPresetFavorite(workspaceId: string, presetId: string, favorite: boolean): Promise<void> {
    if (favorite) await this.db.insert(personaPresetFavorites).values({ workspaceId, presetId }).onConflictDoNothing();
    else
      await this.db
        .delete(personaPresetFavorites)
        .where(and(eq(personaPresetFavorites.workspaceId, workspaceId), eq(personaPresetFavorites.presetId, presetId)));
  }
}
