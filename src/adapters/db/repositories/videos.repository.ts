import { and, eq } from 'drizzle-orm';
import type { LinkAnalysis, NewUpload, UploadCompletion, VideoMeasurements, VideoRow, VideosRepository } from '../../../domain/videos/videos.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { executor } from '../transactions.js';
import { videos } from '../schema/index.js';

/** Videos (table `videos`). */
export class DrizzleVideosRepository implements VideosRepository {
  constructor(private readonly db: Db) {}

  async get(id: string): Promise<VideoRow | undefined> {
    const [row] = await this.db.select().from(videos).where(eq(videos.id, id));
    return row;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<VideoRow | undefined> {
    const [row] = await this.db
      .select()
      .from(videos)
      .where(and(eq(videos.id, id), eq(videos.workspaceId, workspaceId)));
    return row;
  }

  async upsertLink(video: { id: string; workspaceId: string; sourceUrl: string }, analysis: LinkAnalysis): Promise<VideoRow> {
    const [row] = await this.db
      .insert(videos)
      .values({ ...video, source: 'link', ...analysis })
      .onConflictDoUpdate({ target: [videos.workspaceId, videos.sourceUrl], set: analysis })
      .returning();
    return row;
  }

  async insertUpload(video: NewUpload): Promise<void> {
    await this.db.insert(videos).values(video);
  }

  async completeUpload(id: string, storageKey: string, done: UploadCompletion): Promise<VideoRow | undefined> {
    const [row] = await this.db
      .update(videos)
      .set({ status: 'ready', ...done })
      .where(and(eq(videos.id, id), eq(videos.status, 'awaiting_upload'), eq(videos.storageKey, storageKey)))
      .returning();
    return row;
  }

  async markUploadExpired(tx: Tx, id: string, at: Date): Promise<void> {
    await executor(this.db, tx)
      .update(videos)
      .set({ status: 'expired', updatedAt: at })
      .where(and(eq(videos.id, id), eq(videos.source, 'upload')));
  }

  async setMeasurements(id: string, measured: VideoMeasurements, at: Date): Promise<void> {
    await this.db
      .update(videos)
      .set({ ...measured, updatedAt: at })
      .where(eq(videos.id, id));
  }
}
