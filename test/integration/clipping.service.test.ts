import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleClipsRepository } from '../../src/adapters/db/repositories/clips.repository.js';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzleSubmissionsRepository } from '../../src/adapters/db/repositories/submissions.repository.js';
import { DrizzleTemplatesRepository } from '../../src/adapters/db/repositories/templates.repository.js';
import { DrizzleVideosRepository } from '../../src/adapters/db/repositories/videos.repository.js';
import { submissions, templates, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { ClipEditsService } from '../../src/domain/clips/clip-edits.service.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { editHash } from '../../src/domain/edits/edit.js';
import { SubmissionsService } from '../../src/domain/submissions/submissions.service.js';
import { SubmissionFailure } from '../../src/domain/submissions/submission-failure.js';
import { TemplatesService } from '../../src/domain/templates/templates.service.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.service.js';
import { DB_KINDS, openTestDatabase, insertTestPlan } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';

/**
 * Submissions, clip edits and templates on a real database, no HTTP and no worker in between: a
 * submission, its charge and its ledger row commit together and its job is sent after; a queue that
 * refuses leaves it failed with QUEUE_UNAVAILABLE and refunded; applying a template changes every clip's
 * edit in one transaction; the built-ins are written idempotently.
 */

describe.each(DB_KINDS)('clipping services on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let ctx: WorkspaceWithPlan;
  let credits: CreditsService;
  let templatesService: TemplatesService;
  let n = 0;
  const page = { page: 1, limit: 50, offset: 0 };

  const submissionsOf = (queue: FakeQueue) => {
    const db = database.db;
    const videos = new DrizzleVideosRepository(db);
    const repo = new DrizzleSubmissionsRepository(db);
    const tx = createTransactionRunner(db);
    return new SubmissionsService({
      repo,
      clips: new DrizzleClipsRepository(db),
      tx,
      videos: {
        get: async (ws, id) => {
          const v = await videos.findInWorkspace(ws, id);
          if (!v) throw new Error(`no video ${id}`);
          return v;
        },
      },
      credits,
      queue,
      checks: { checkStrategy: async () => {}, checkTemplate: async () => {}, supportsLanguage: () => true },
      storage: { presignGet: async (key) => `signed:${key}` },
      failure: new SubmissionFailure({ repo, transactions: tx, credits }),
    });
  };

  const clipEditsOf = (submissionsService: SubmissionsService) =>
    new ClipEditsService({
      repo: new DrizzleClipsRepository(database.db),
      tx: createTransactionRunner(database.db),
      getSubmission: (ws, videoId, id) => submissionsService.get(ws, videoId, id),
      async getTemplate(ws, id) {
        const t = await templatesService.getTemplate(ws, id);
        return { id: t.id, captions: t.config.captions, layout: t.config.layout };
      },
    });

  /** A ready 10-minute upload of the workspace. */
  async function video(): Promise<string> {
    const repo = new DrizzleVideosRepository(database.db);
    const id = `vid_${kind}_${++n}`;
    await repo.insertUpload({
      id,
      workspaceId: ctx.workspace.id,
      source: 'upload',
      status: 'awaiting_upload',
      platform: 'upload',
      title: 'talk',
      author: 'svc',
      storageKey: `uploads/videos/${id}/source.mp4`,
      fileName: 'talk.mp4',
      fileSize: 1000,
      contentType: 'video/mp4',
      uploadId: null,
    });
    const completion = {
      storageKey: `videos/${id}/source-x.mp4`,
      uploadId: null,
      title: 'talk',
      duration: 600,
      width: 1920,
      height: 1080,
      hasAudio: true,
      fileSize: 1000,
      updatedAt: new Date(),
    };
    expect(await repo.completeUpload(id, `uploads/videos/${id}/source.mp4`, completion)).toMatchObject({ status: 'ready', duration: 600 });
    // A second completion of the same upload finds it no longer awaiting its bytes.
    expect(await repo.completeUpload(id, `uploads/videos/${id}/source.mp4`, completion)).toBeUndefined();
    return id;
  }

  async function balance(): Promise<number> {
    const [ws] = await database.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, ctx.workspace.id));
    return ws.credits;
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const db = database.db;
    const runner = createTransactionRunner(db);
    const plan = await insertTestPlan(db);
    await db.insert(workspaces).values({ id: `ws_${kind}`, name: 'svc', planName: 'svc' });
    credits = new CreditsService({ repo: new DrizzleCreditsRepository(db), tx: runner });
    await credits.adjust({ workspaceId: `ws_${kind}`, amount: 100, reason: 'test' });
    const [workspace] = await db
      .select()
      .from(workspaces)
      .where(eq(workspaces.id, `ws_${kind}`));
    ctx = { workspace, plan };
    templatesService = new TemplatesService({ repo: new DrizzleTemplatesRepository(db), tx: runner });
    await templatesService.ensureBuiltins();
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('creates and charges a submission, then sends its job with the job table’s options; the same stretch again is refused', async () => {
    const videoId = await video();
    const queue = new FakeQueue();
    const service = submissionsOf(queue);
    const before = await balance();
    const row = await service.create(ctx, { video_id: videoId, timeframe: { start: 0, end: 120 } });
    expect(row).toMatchObject({ status: 'queued', timeframeStart: 0, timeframeEnd: 120, creditsCharged: 2 });
    expect(await balance()).toBe(before - 2);
    expect(queue.sent).toEqual([
      { name: 'submission.process', payload: { submissionId: row.id }, opts: { expireInSeconds: 14400, retryLimit: 2, retryDelaySeconds: 2 } },
    ]);
    await expect(service.create(ctx, { video_id: videoId, timeframe: { start: 0, end: 120 } })).rejects.toMatchObject({ code: 'VIDEO_ALREADY_PROCESSING' });
    expect(await balance()).toBe(before - 2);
    expect(await credits.ledgerSum(ctx.workspace.id)).toBe(await balance());
    const { rows, total } = await service.list(ctx.workspace.id, { video_id: videoId }, page);
    expect([rows.map((r) => r.id), total]).toEqual([[row.id], 1]);
    expect((await service.view(row)).queue_position).toBeGreaterThanOrEqual(1);
  });

  it('a submission the queue refuses ends failed with QUEUE_UNAVAILABLE and refunded, and the caller gets the queue’s error', async () => {
    const videoId = await video();
    const before = await balance();
    await expect(submissionsOf(new FakeQueue(1)).create(ctx, { video_id: videoId })).rejects.toThrow('queue down');
    const [row] = await database.db.select().from(submissions).where(eq(submissions.videoId, videoId));
    expect([row.status, row.errorCode, row.creditsCharged]).toEqual(['failed', 'QUEUE_UNAVAILABLE', 10]);
    expect(await balance()).toBe(before);
    expect(await credits.ledgerSum(ctx.workspace.id)).toBe(before);
  });

  it('removes and refunds a submission waiting for its source, and only such a one', async () => {
    const videoId = await video();
    const service = submissionsOf(new FakeQueue());
    const before = await balance();
    const row = await service.create(ctx, { video_id: videoId, timeframe: { start: 60, end: 180 } });
    await expect(service.cancelWaiting(ctx.workspace.id, videoId, row.id)).rejects.toMatchObject({ code: 'SUBMISSION_NOT_WAITING' });
    await database.db.update(submissions).set({ status: 'downloading', waitingReason: 'premiere' }).where(eq(submissions.id, row.id));
    expect(await service.cancelWaiting(ctx.workspace.id, videoId, row.id)).toEqual({ id: row.id, deleted: true, credits_refunded: 2 });
    expect(await balance()).toBe(before);
    await expect(service.get(ctx.workspace.id, videoId, row.id)).rejects.toMatchObject({ code: 'SUBMISSION_NOT_FOUND' });
  });

  it('applies a template to every clip of a completed submission in one go, and keeps edits that would not change', async () => {
    const videoId = await video();
    const service = submissionsOf(new FakeQueue());
    const row = await service.create(ctx, { video_id: videoId });
    const clipsRepo = new DrizzleClipsRepository(database.db);
    const clipEdits = clipEditsOf(service);
    await clipsRepo.insertMissing(
      [0, 1].map((position) => ({
        id: `clip_${row.id}_${position}`,
        workspaceId: ctx.workspace.id,
        submissionId: row.id,
        position,
        title: `Clip ${position}`,
        text: 'words',
        rating: 8 - position,
        startTime: position * 60,
        endTime: position * 60 + 30,
        language: 'en',
        signals: null,
        hasTemplateApplied: false,
      })),
    );
    const [clipA, clipB] = await clipsRepo.ofSubmission(row.id);
    await expect(clipEdits.currentEdit(ctx.workspace.id, videoId, row.id, clipA.id)).rejects.toMatchObject({ code: 'SUBMISSION_NOT_COMPLETED' });

    const tpl = await templatesService.defaultTemplate();
    const firstEdits: string[] = [];
    for (const clip of [clipA, clipB]) {
      const edit = buildClipEdit({
        source: { key: 'videos/source.mp4', duration: 600, width: 1920, height: 1080 },
        start: clip.startTime,
        end: clip.endTime,
        words: [{ start: clip.startTime + 1, end: clip.startTime + 2, text: 'hello' }],
        template: { captions: tpl.config.captions, layout: tpl.config.layout },
        watermark: false,
      });
      const editId = `edit_${clip.id}`;
      await createTransactionRunner(database.db).run(async (tx) => {
        await clipsRepo.insertEdit(tx, { id: editId, workspaceId: ctx.workspace.id, clipId: clip.id, hash: editHash(edit), spec: edit, templateId: tpl.id });
        await clipsRepo.setEdit(tx, clip.id, { editId });
      });
      firstEdits.push(editId);
    }
    await expect(clipEdits.applyTemplate(ctx.workspace.id, videoId, row.id, tpl.id)).rejects.toMatchObject({ code: 'SUBMISSION_NOT_COMPLETED' });
    await database.db.update(submissions).set({ status: 'completed' }).where(eq(submissions.id, row.id));

    expect(await clipEdits.currentEdit(ctx.workspace.id, videoId, row.id, clipA.id)).toMatchObject({ id: firstEdits[0], clipId: clipA.id });
    const same = await clipEdits.applyTemplate(ctx.workspace.id, videoId, row.id, tpl.id);
    expect(same.clips).toEqual([
      { id: clipA.id, edit_id: firstEdits[0] },
      { id: clipB.id, edit_id: firstEdits[1] },
    ]);
    const other = (await templatesService.list(ctx.workspace.id, { kind: 'template', page })).rows.find((t) => t.id !== tpl.id)!;
    const applied = await clipEdits.applyTemplate(ctx.workspace.id, videoId, row.id, other.id);
    expect(applied.clips.map((c) => c.edit_id).some((id) => firstEdits.includes(id))).toBe(false);
    const after = await clipsRepo.ofSubmission(row.id);
    expect(after.map((c) => [c.editId, c.hasTemplateApplied])).toEqual(applied.clips.map((c) => [c.edit_id, true]));
    expect(await clipsRepo.titleOfEdit(applied.clips[1].edit_id)).toBe('Clip 1');
    expect((await clipsRepo.existingEditIds(ctx.workspace.id, [...firstEdits, 'edit_unknown'])).sort()).toEqual([...firstEdits].sort());
    const { rows, total } = await service.clipsOf(ctx.workspace.id, row.id, 'rating', 'asc', page);
    expect([rows.map((c) => c.id), total]).toEqual([[clipB.id, clipA.id], 2]);
  });

  it('writes the built-ins idempotently, lists them before the workspace’s own, and keeps other workspaces’ out', async () => {
    const db = database.db;
    await db.insert(templates).values({ id: 'tpl_dropped', kind: 'template', name: 'gone', builtin: true, config: {} });
    await templatesService.ensureBuiltins();
    await templatesService.ensureBuiltins();
    const builtins = await db.select({ id: templates.id }).from(templates).where(eq(templates.builtin, true));
    expect(builtins.map((b) => b.id)).not.toContain('tpl_dropped');

    const own = await templatesService.create(ctx.workspace.id, { kind: 'strategy', name: 'mine', config: { min_seconds: 20, max_seconds: 40, max_clips: 3 } });
    const { rows, total } = await templatesService.list(ctx.workspace.id, { page });
    expect(total).toBe(builtins.length + 1);
    expect(rows[rows.length - 1].id).toBe(own.id);
    expect(rows.slice(0, -1).every((r) => r.builtin)).toBe(true);
    await expect(templatesService.getStrategy('ws_other', own.id)).rejects.toMatchObject({ code: 'STRATEGY_NOT_FOUND' });
    await expect(templatesService.listForWorkspace('ws_other', { page })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(templatesService.delete(ctx.workspace.id, builtins[0].id)).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    await templatesService.delete(ctx.workspace.id, own.id);
    await expect(templatesService.delete(ctx.workspace.id, own.id)).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
  });
});
