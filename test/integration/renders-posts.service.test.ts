import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleClipsRepository } from '../../src/adapters/db/repositories/clips.repository.js';
import { DrizzleConnectionsRepository } from '../../src/adapters/db/repositories/connections.repository.js';
import { DrizzlePostsRepository } from '../../src/adapters/db/repositories/posts.repository.js';
import { DrizzleRendersRepository } from '../../src/adapters/db/repositories/renders.repository.js';
import { edits, posts, renders, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { DomainError } from '../../src/domain/errors.js';
import { PostsService } from '../../src/domain/publishing/posts.service.js';
import { RendersService } from '../../src/domain/renders/renders.service.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.service.js';
import { DB_KINDS, openTestDatabase, insertTestPlan } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';

/**
 * RendersService and PostsService on a real database, no HTTP and no worker in between: the records
 * commit before their jobs are sent; a queue that refuses leaves them failed with QUEUE_UNAVAILABLE and
 * the caller gets the queue's error; the render cache and the post checks run on the repositories.
 */

describe.each(DB_KINDS)('renders and posts services on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let ctx: WorkspaceWithPlan;
  let n = 0;
  const editIds: string[] = [];
  const rendersOf = (queue: FakeQueue) =>
    new RendersService({
      repo: new DrizzleRendersRepository(database.db),
      edits: new DrizzleClipsRepository(database.db),
      tx: createTransactionRunner(database.db),
      queue,
      storage: { presignGet: async (key) => `signed:${key}` },
      clipEdits: {
        currentEdit: async () => {
          throw new Error('not used');
        },
      },
    });
  const postsOf = (queue: FakeQueue) =>
    new PostsService({
      posts: new DrizzlePostsRepository(database.db),
      connections: new DrizzleConnectionsRepository(database.db),
      edits: new DrizzleClipsRepository(database.db),
      tx: createTransactionRunner(database.db),
      queue,
    });

  async function connection(): Promise<string> {
    const row = await new DrizzleConnectionsRepository(database.db).insert({
      id: `con_${kind}_${++n}`,
      workspaceId: ctx.workspace.id,
      platform: 'local',
      accountName: `account ${n}`,
      credentialsEncrypted: null,
      status: 'active',
      canPublishVideo: true,
    });
    return row.id;
  }

  const target = (editId: string, connectionId: string) => ({
    edit_id: editId,
    targets: [{ connection_id: connectionId, metadata: { local: { title: 'T' } } }],
  });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const db = database.db;
    const plan = await insertTestPlan(db);
    const [workspace] = await db
      .insert(workspaces)
      .values({ id: `ws_${kind}`, name: 'svc', planName: 'svc' })
      .returning();
    ctx = { workspace, plan };
    for (const i of [1, 2, 3]) {
      const id = `edit_${kind}_${i}`;
      await db.insert(edits).values({ id, workspaceId: workspace.id, hash: `hash_${i}`, spec: { resolution: '1080p', watermark: false } });
      editIds.push(id);
    }
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('a render the queue refuses ends failed with QUEUE_UNAVAILABLE and the caller gets the queue’s error', async () => {
    const queue = new FakeQueue(1);
    await expect(rendersOf(queue).renderEdit(ctx, editIds[0])).rejects.toThrow('queue down');
    const rows = await database.db.select().from(renders).where(eq(renders.editId, editIds[0]));
    expect(rows.map((r) => [r.status, r.errorCode])).toEqual([['failed', 'QUEUE_UNAVAILABLE']]);
    expect((await rendersOf(queue).limits(ctx)).active_renders).toBe(0);
  });

  it('queues a render with its job, then answers the completed file from the cache without a job', async () => {
    const queue = new FakeQueue();
    const service = rendersOf(queue);
    const first = await service.renderEdit(ctx, editIds[1]);
    expect(first).toMatchObject({ fromCache: false, render: { status: 'queued', edit_id: editIds[1], download_url: null } });
    expect(queue.sent).toEqual([
      {
        name: 'render.process',
        payload: { renderId: first.render.id },
        opts: { expireInSeconds: 3600, retryLimit: 2, retryDelaySeconds: 5, singletonKey: `render:${first.render.id}` },
      },
    ]);
    expect((await service.limits(ctx)).active_renders).toBe(1);

    const repo = new DrizzleRendersRepository(database.db);
    expect(await repo.start(first.render.id)).toBe(true);
    const now = new Date();
    expect(
      await repo.complete(first.render.id, { storageKey: 'renders/k.mp4', size: 10, completedAt: now, expiresAt: new Date(now.getTime() + 3600_000) }),
    ).toBe(true);
    const hit = await service.renderEdit(ctx, editIds[1]);
    expect(hit).toMatchObject({ fromCache: true, render: { status: 'completed', progress: 100, from_cache: true, download_url: 'signed:renders/k.mp4' } });
    expect(queue.sent).toHaveLength(1);
    await expect(service.renderEdit(ctx, 'edit_unknown')).rejects.toMatchObject({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: ['edit_unknown'] } });
  });

  it('a preview is cached apart from the final file, and posts never reuse or wait for one', async () => {
    const queue = new FakeQueue();
    const service = rendersOf(queue);
    const repo = new DrizzleRendersRepository(database.db);
    const editId = editIds[2];
    const preview = await service.renderEdit(ctx, editId, 'preview');
    expect(preview).toMatchObject({ fromCache: false, render: { status: 'queued', quality: 'preview', output_resolution: '360p' } });
    expect(await repo.findUnfinishedOfEdit(ctx.workspace.id, editId)).toBeUndefined();
    expect(await repo.start(preview.render.id)).toBe(true);
    const now = new Date();
    expect(
      await repo.complete(preview.render.id, { storageKey: 'renders/p.mp4', size: 10, completedAt: now, expiresAt: new Date(now.getTime() + 3600_000) }),
    ).toBe(true);
    expect(await repo.findReusable(ctx.workspace.id, editId, new Date())).toBeUndefined();
    expect(await service.renderEdit(ctx, editId, 'preview')).toMatchObject({
      fromCache: true,
      render: { quality: 'preview', download_url: 'signed:renders/p.mp4' },
    });
    const final = await service.renderEdit(ctx, editId);
    expect(final).toMatchObject({ fromCache: false, render: { status: 'queued', quality: 'final', output_resolution: '1080p' } });
    expect(await repo.findUnfinishedOfEdit(ctx.workspace.id, editId)).toEqual({ id: final.render.id });
  });

  it('a post whose jobs the queue refuses: every item still pending fails with QUEUE_UNAVAILABLE, and so does the post', async () => {
    const con = await connection();
    const queue = new FakeQueue(2);
    await expect(postsOf(queue).create(ctx, { videos: [target(editIds[0], con), target(editIds[1], con)] })).rejects.toThrow('queue down');
    expect(queue.sent).toHaveLength(1);
    const [post] = await database.db.select().from(posts).where(eq(posts.workspaceId, ctx.workspace.id));
    const view = await postsOf(new FakeQueue()).get(ctx.workspace.id, post.id);
    expect(view.status).toBe('failed');
    expect(view.items.map((i) => [i.status, i.error_code])).toEqual([
      ['failed', 'QUEUE_UNAVAILABLE'],
      ['failed', 'QUEUE_UNAVAILABLE'],
    ]);
  });

  it('checks duplicates and the daily ceiling per connection; a failed item is retried with a new job', async () => {
    const con = await connection();
    const queue = new FakeQueue();
    const service = postsOf(queue);
    const created = await service.create(ctx, { videos: [target(editIds[0], con)] });
    expect(created).toMatchObject({ item_count: 1, status: 'pending', scheduled_at: null });
    expect(queue.sent.map((s) => [s.name, s.opts])).toEqual([['post.publish_item', { retryLimit: 3, retryDelaySeconds: 2, expireInSeconds: 7200 }]]);

    const duplicate = await service.create(ctx, { videos: [target(editIds[0], con)] }).catch((e: DomainError) => e);
    expect(duplicate).toMatchObject({ code: 'DUPLICATE_POST', extra: { edit_id: editIds[0], connection_id: con, post_id: created.id } });
    await service.create(ctx, { videos: [target(editIds[1], con)] });
    const third = await service.create(ctx, { videos: [target(editIds[2], con)] }).catch((e: DomainError) => e);
    expect(third).toMatchObject({ code: 'DAILY_LIMIT_EXCEEDED', extra: { daily_limit: 2, used_today: 2, requested: 1, connection_id: con } });

    const [item] = (await service.get(ctx.workspace.id, created.id)).items;
    await expect(service.retry(ctx, created.id, item.id)).rejects.toMatchObject({ code: 'POST_ITEM_NOT_FAILED' });
    await new DrizzlePostsRepository(database.db).updateItem(item.id, { status: 'failed', errorCode: 'UPLOAD_FAILED' });
    const retried = await service.retry(ctx, created.id, item.id);
    expect(retried.items[0]).toMatchObject({ status: 'pending', error_code: null });
    expect(queue.sent.filter((s) => (s.payload as { itemId: string }).itemId === item.id)).toHaveLength(2);

    await service.removeItem(ctx.workspace.id, created.id, item.id);
    await expect(service.get(ctx.workspace.id, created.id)).rejects.toMatchObject({ code: 'POST_NOT_FOUND' });
  });
});
