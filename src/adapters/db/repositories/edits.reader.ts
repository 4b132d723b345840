import { and, eq, inArray } from 'drizzle-orm';
import type { EditsReader, RenderableEdit } from '../../../domain/renders/renders.records.js';
import type { Db } from '../database.js';
import { clips, edits } from '../schema.js';

/** What renders and posts read of edits and clips (tables `edits`, `clips`). */
export class DrizzleEditsReader implements EditsReader {
  constructor(private readonly db: Db) {}

  async findEdit(workspaceId: string, editId: string): Promise<RenderableEdit | undefined> {
    const [edit] = await this.db
      .select({ id: edits.id, clipId: edits.clipId, hash: edits.hash, spec: edits.spec })
      .from(edits)
      .where(and(eq(edits.id, editId), eq(edits.workspaceId, workspaceId)));
    return edit;
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
