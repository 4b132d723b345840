import type { PostsService } from '../../domain/publishing/posts.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { AUTH_ERRORS, errorResponses } from '../schemas/common.js';
import { CreatePostBody, PatchPostBody, PostCreatedSchema, PostItemPath, PostPath, PostSchema } from '../schemas/post.schemas.js';

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
        tags,
        summary: 'Publish edits to connected accounts, now or at `scheduled_at`',
        description:
          'Everything is checked before anything is created, in this order: 400 VALIDATION_ERROR (body; `scheduled_at` not in the future), ' +
          '404 EDITS_NOT_FOUND (`extra.invalid_edits`), 400 INVALID_CONNECTIONS (`extra.invalid_connections`: unknown, revoked or unable to publish video), ' +
          '400 INVALID_METADATA (`extra.field`, network-qualified such as `youtube.title`), 403 DAILY_LIMIT_EXCEEDED (`extra`: `daily_limit`, `used_today`, `requested`, `connection_id`), ' +
          '409 DUPLICATE_POST (the same edit already pending, processing or published to the same account). Items publish asynchronously: poll GET /posts/{id}.',
        body: CreatePostBody,
        response: {
          201: PostCreatedSchema,
          ...errorResponses(...AUTH_ERRORS, 'EDITS_NOT_FOUND', 'INVALID_CONNECTIONS', 'INVALID_METADATA', 'DAILY_LIMIT_EXCEEDED', 'DUPLICATE_POST'),
        },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.posts.create(callerOf(req), req.body)),
  );

  app.get(
    '/posts/:id',
    { schema: { tags, summary: 'A post with its items', params: PostPath, response: { 200: PostSchema, ...errorResponses(...AUTH_ERRORS, 'POST_NOT_FOUND') } } },
    async (req) => deps.posts.get(callerOf(req).workspace.id, req.params.id),
  );

  app.patch(
    '/posts/:id',
    {
      schema: {
        tags,
        summary: 'Change the schedule or items’ metadata before publishing',
        description:
          'Only while the post is `pending` (no item started): otherwise 409 POST_ALREADY_PROCESSING with `extra.status`. ' +
          '`scheduled_at`: a new time in the future, or null to publish now. `items`: `[{ id, metadata }]` replaces those items’ metadata, re-validated (400 INVALID_METADATA).',
        params: PostPath,
        body: PatchPostBody,
        response: {
          200: PostSchema,
          ...errorResponses(...AUTH_ERRORS, 'POST_NOT_FOUND', 'POST_ITEM_NOT_FOUND', 'INVALID_METADATA', 'DAILY_LIMIT_EXCEEDED', 'POST_ALREADY_PROCESSING'),
        },
      },
    },
    async (req) => deps.posts.patch(callerOf(req), req.params.id, req.body),
  );

  app.delete(
    '/posts/:id',
    {
      schema: {
        tags,
        summary: 'Delete a post',
        description: 'Pending items are cancelled; items already published stay published on their networks. 204, no body.',
        params: PostPath,
        response: { ...errorResponses(...AUTH_ERRORS, 'POST_NOT_FOUND') },
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
        tags,
        summary: 'Queue a failed item again',
        description:
          'The item goes back to `pending` and the post to `processing`; the post’s status then follows its items. 409 POST_ITEM_NOT_FAILED (with `extra.status`) unless the item is `failed`. ' +
          'Checked like a new target: INVALID_CONNECTIONS, DAILY_LIMIT_EXCEEDED (today), DUPLICATE_POST. Answers the Post.',
        params: PostItemPath,
        response: {
          200: PostSchema,
          ...errorResponses(...AUTH_ERRORS, 'POST_NOT_FOUND', 'POST_ITEM_NOT_FOUND', 'POST_ITEM_NOT_FAILED', 'INVALID_CONNECTIONS', 'DAILY_LIMIT_EXCEEDED', 'DUPLICATE_POST'),
        },
      },
    },
    async (req) => deps.posts.retry(callerOf(req), req.params.id, req.params.itemId),
  );

  app.delete(
    '/posts/:id/items/:itemId',
    {
      schema: {
        tags,
        summary: 'Remove one item; its siblings are untouched',
        description: 'A pending item is cancelled; a published one stays published on its network. Removing the last item deletes the post. 204, no body.',
        params: PostItemPath,
        response: { ...errorResponses(...AUTH_ERRORS, 'POST_NOT_FOUND', 'POST_ITEM_NOT_FOUND') },
      },
    },
    async (req, reply) => {
      await deps.posts.removeItem(callerOf(req).workspace.id, req.params.id, req.params.itemId);
      return reply.code(204).send();
    },
  );
}
