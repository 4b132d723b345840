import type { PostsService } from '../../domain/publishing/posts.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { NoContent, answer, errorResponses } from '../schemas/common.js';
import { CreatePostBody, PatchPostBody, PostCreatedSchema, PostItemPath, PostListSchema, PostPath, PostSchema } from '../schemas/post.schemas.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';

export interface PostRoutesDeps {
  posts: PostsService;
}

/** POST /posts, GET/PATCH/DELETE /posts/{id}, item retry and removal (docs/publishing.md "Posts API"). */
export function postRoutes(app: Api, deps: PostRoutesDeps) {
  const tags = ['Posts'];

  app.post(
    '/posts',
    {
      schema: {
        operationId: 'createPost',
        tags,
        summary: 'Publish edits to connected accounts',
        description:
          'Publishes now, or at `scheduled_at` (in the future). Everything is checked before anything is created, in this order: 400 VALIDATION_ERROR (body; `scheduled_at` not in the future), ' +
          '404 EDITS_NOT_FOUND (`extra.invalid_edits`), 400 INVALID_CONNECTIONS (`extra.invalid_connections`: unknown, revoked or unable to publish video), ' +
          '400 INVALID_METADATA (`extra.field`, network-qualified such as `youtube.title`), 403 DAILY_LIMIT_EXCEEDED (`extra`: `daily_limit`, `used_today`, `requested`, `connection_id`), ' +
          '409 DUPLICATE_POST (the same edit already pending, processing or published to the same account). Items publish asynchronously: poll GET /posts/{id}.',
        body: CreatePostBody,
        response: {
          201: answer(PostCreatedSchema, 'The post, `pending`.'),
          ...errorResponses('EDITS_NOT_FOUND', 'INVALID_CONNECTIONS', 'INVALID_METADATA', 'DAILY_LIMIT_EXCEEDED', 'DUPLICATE_POST'),
        },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.posts.create(callerOf(req), req.body)),
  );

  app.get(
    '/posts',
    {
      schema: {
        operationId: 'listPosts',
        tags,
        summary: 'List posts',
        description: 'The workspace’s posts, newest first, deleted ones left out; each with its items, as GET /posts/{id} shows it.',
        querystring: PageQuery,
        response: { 200: answer(PostListSchema, 'One page of posts.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.posts.list(callerOf(req).workspace.id, page);
      return listResponse('posts', items, total, page);
    },
  );

  app.get(
    '/posts/:id',
    {
      schema: {
        operationId: 'getPost',
        tags,
        summary: 'Get a post with its items',
        description:
          'States: `pending`, `processing`, then `completed` (every item published), `partial` (some published, some failed: not a success, read `items`) ' +
          'or `failed` (none published). Items fail independently (`error_code`); a failed item can be retried. Poll every 5 to 10 seconds.',
        params: PostPath,
        response: { 200: answer(PostSchema, 'The post.'), ...errorResponses('POST_NOT_FOUND') },
      },
    },
    async (req) => deps.posts.get(callerOf(req).workspace.id, req.params.id),
  );

  app.patch(
    '/posts/:id',
    {
      schema: {
        operationId: 'updatePost',
        tags,
        summary: 'Change a post before it is published',
        description:
          'Only while the post is `pending` (no item started): otherwise 409 POST_ALREADY_PROCESSING with `extra.status`. ' +
          '`scheduled_at`: a new time in the future, or null to publish now. `items`: `[{ id, metadata }]` replaces those items’ metadata, re-validated (400 INVALID_METADATA).',
        params: PostPath,
        body: PatchPostBody,
        response: {
          200: answer(PostSchema, 'The post as changed.'),
          ...errorResponses('POST_NOT_FOUND', 'POST_ITEM_NOT_FOUND', 'INVALID_METADATA', 'DAILY_LIMIT_EXCEEDED', 'POST_ALREADY_PROCESSING'),
        },
      },
    },
    async (req) => deps.posts.patch(callerOf(req), req.params.id, req.body),
  );

  app.delete(
    '/posts/:id',
    {
      schema: {
        operationId: 'deletePost',
        tags,
        summary: 'Delete a post',
        description: 'Pending items are cancelled; items already published stay published on their networks. 204, no body.',
        params: PostPath,
        response: { 204: NoContent, ...errorResponses('POST_NOT_FOUND') },
      },
    },
    async (req, reply) => {
      await deps.posts.delete(callerOf(req).workspace.id, req.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/posts/:id/items/:itemId/retry',
    {
      schema: {
        operationId: 'retryPostItem',
        tags,
        summary: 'Retry a failed item of a post',
        description:
          'The item goes back to `pending` and the post to `processing`; the post’s status then follows its items. 409 POST_ITEM_NOT_FAILED (with `extra.status`) unless the item is `failed`. ' +
          'Checked like a new target: INVALID_CONNECTIONS, DAILY_LIMIT_EXCEEDED (today), DUPLICATE_POST. Answers the Post.',
        params: PostItemPath,
        response: {
          200: answer(PostSchema, 'The post, the item `pending` again.'),
          ...errorResponses('POST_NOT_FOUND', 'POST_ITEM_NOT_FOUND', 'POST_ITEM_NOT_FAILED', 'INVALID_CONNECTIONS', 'DAILY_LIMIT_EXCEEDED', 'DUPLICATE_POST'),
        },
      },
    },
    async (req) => deps.posts.retry(callerOf(req), req.params.id, req.params.itemId),
  );

  app.delete(
    '/posts/:id/items/:itemId',
    {
      schema: {
        operationId: 'deletePostItem',
        tags,
        summary: 'Remove one item of a post',
        description: 'A pending item is cancelled; a published one stays published on its network. Removing the last item deletes the post. 204, no body.',
        params: PostItemPath,
        response: { 204: NoContent, ...errorResponses('POST_NOT_FOUND', 'POST_ITEM_NOT_FOUND') },
      },
    },
    async (req, reply) => {
      await deps.posts.removeItem(callerOf(req).workspace.id, req.params.id, req.params.itemId);
      return reply.code(204).send();
    },
  );
}
