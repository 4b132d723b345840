import { eq } from 'drizzle-orm';
import { clips, edits, submissions } from '../../src/adapters/db/schema/index.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { editHash, type CaptionWord } from '../../src/domain/edits/edit.js';
import { newId } from '../../src/shared/ids.js';
import type { TestApp } from './app.js';
import { readyVideo } from './videos.js';

export interface ClipsFixture {
  videoId: string;
  submissionId: string;
  /** Source storage key of the video. */
  sourceKey: string;
  clipIds: string[];
  editIds: string[];
}

/** A few caption words spread evenly over [start, end) (source seconds). */
export function captionWords(start: number, end: number, text = 'we cut long videos into short clips'): CaptionWord[] {
  const list = text.split(' ');
  const step = (end - start) / list.length;
  return list.map((w, i) => ({ start: start + i * step, end: start + (i + 0.9) * step, text: w }));
}

/**
 * A submission as the pipeline leaves it, without running the pipeline: the file uploaded as a
 * ready video, a `completed` submission, and one clip per range, each with its edit made by
 * buildClipEdit with the template (default: the built-in default) and a few caption words.
 * `status` other than `completed` leaves the clips without edits, as finalizing does midway.
 */
export async function clipsFixture(
  t: TestApp,
  workspaceId: string,
  file: string,
  opts: {
    ranges: Array<{ start: number; end: number; title?: string }>;
    templateId?: string;
    status?: string;
    watermark?: boolean;
    /** The source's words (source seconds); each clip gets those inside its range. Default: captionWords of each range. */
    words?: CaptionWord[];
  },
): Promise<ClipsFixture> {
  const db = t.c.database.db;
  const videoId = await readyVideo(t, workspaceId, file);
  const video = await t.c.videos.get(workspaceId, videoId);
  const tpl = await t.c.templates.templateOrDefault(workspaceId, opts.templateId);
  const status = opts.status ?? 'completed';
  const submissionId = newId('sub');
  await db.insert(submissions).values({
    id: submissionId,
    workspaceId,
    videoId,
    status,
    timeframeStart: 0,
    timeframeEnd: video.duration,
    templateId: opts.templateId ?? null,
    language: 'en',
    sourceKey: video.storageKey,
    clipsCount: status === 'completed' ? opts.ranges.length : 0,
    finishedAt: status === 'completed' ? new Date() : null,
  });
  const clipIds: string[] = [];
  const editIds: string[] = [];
  for (const [position, r] of opts.ranges.entries()) {
    const clipId = newId('clip');
    await db.insert(clips).values({
      id: clipId,
      workspaceId,
      submissionId,
      position,
      title: r.title ?? `Clip ${position + 1}`,
      rating: 8 - position,
      startTime: r.start,
      endTime: r.end,
      language: 'en',
      hasTemplateApplied: opts.templateId !== undefined,
    });
    clipIds.push(clipId);
    if (status !== 'completed') continue;
    const edit = buildClipEdit({
      source: { key: video.storageKey!, duration: video.duration, width: video.width, height: video.height },
      start: r.start,
      end: r.end,
      words: opts.words ? opts.words.filter((w) => w.start >= r.start && w.end <= r.end) : captionWords(r.start, r.end),
      template: { captions: tpl.config.captions, layout: tpl.config.layout },
      watermark: opts.watermark ?? false,
    });
    const editId = newId('edit');
    await db.insert(edits).values({ id: editId, workspaceId, clipId, hash: editHash(edit), spec: edit, templateId: tpl.id });
    await db.update(clips).set({ editId }).where(eq(clips.id, clipId));
    editIds.push(editId);
  }
  return { videoId, submissionId, sourceKey: video.storageKey!, clipIds, editIds };
}
