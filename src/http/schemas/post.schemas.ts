import { Type } from '@sinclair/typebox';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';
import { PUBLISH_PLATFORMS } from '../../domain/publishing/metadata.rules.js';

/** Connections and posts as the API shows them (docs/publishing.md "Posts API", docs/api-decisions.md). */

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Platform = Type.String({ description: `Lowercase network name: ${PUBLISH_PLATFORMS.map((p) => `\`${p}\``).join(', ')}.` });

/** Keyed by lowercase network name; inner keys are the network's own (camelCase allowed) and forwarded untouched. */
const Metadata = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'Keyed by lowercase network name (`local`, `youtube`, `tiktok`, `instagram`), each holding that network’s own fields, e.g. ' +
      '`{ "youtube": { "title": "…", "privacyStatus": "public" } }`. Only the entry of the target’s network is used. Fields per network: docs/publishing.md.',
  },
);

export const ConnectionSchema = Type.Object(
  {
    id: Type.String({ description: 'Pass it as `connection_id` in POST /posts.' }),
    platform: Platform,
    account_name: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
    can_publish_video: Type.Boolean(),
    created_at: IsoDate,
  },
  { $id: 'Connection' },
);

export const ConnectionListSchema = Type.Object(
  {
    connections: Type.Array(ConnectionSchema, { description: 'Newest first; revoked accounts included.' }),
    pagination: PaginationSchema,
  },
  { $id: 'ConnectionList' },
);

export const CreatePostBody = Type.Object(
  {
    videos: Type.Array(
      Type.Object(
        {
          edit_id: Id,
          targets: Type.Array(Type.Object({ connection_id: Id, metadata: Type.Optional(Metadata) }, { additionalProperties: false }), {
            minItems: 1,
            maxItems: 100,
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100, description: 'At most 100 items in all (videos x targets).' },
    ),
    scheduled_at: Type.Optional(
      Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'In the future; absent or null publishes at once.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        videos: [
          {
            edit_id: 'edit_p4w8n1r6t2y9u3i7o5a0',
            targets: [
              {
                connection_id: 'con_b7c2x9z4v1n8m3l6k0j5',
                metadata: { youtube: { title: 'Why most people never start', description: 'From the keynote.', privacyStatus: 'public' } },
              },
            ],
          },
        ],
        scheduled_at: '2030-01-15T09:00:00.000Z',
      },
    ],
  },
);

export const PatchPostBody = Type.Object(
  {
    scheduled_at: Type.Optional(
      Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'A new time in the future, or null to publish now.' }),
    ),
    items: Type.Optional(
      Type.Array(Type.Object({ id: Id, metadata: Metadata }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 100,
        description: 'Replaces each listed item’s metadata (same shape as a target’s).',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ scheduled_at: '2030-01-16T18:30:00.000Z' }] },
);

export const PostCreatedSchema = Type.Object(
  {
    id: Type.String(),
    item_count: Type.Integer(),
    scheduled_at: NullableIsoDate,
    status: Type.String({ description: '`pending` at creation.' }),
  },
  { $id: 'PostCreated' },
);

export const PostItemSchema = Type.Object(
  {
    id: Type.String(),
    render_id: Type.Union([Type.String(), Type.Null()], { description: 'The render published; null before it exists and once its file was purged.' }),
    edit_id: Type.String(),
    platform: Platform,
    connection_id: Type.String(),
    status: Type.Union(['pending', 'processing', 'published', 'failed'].map((s) => Type.Literal(s))),
    published_url: Type.Union([Type.String(), Type.Null()]),
    error_code: Type.Union([Type.String(), Type.Null()], { description: 'Set when `failed`; codes in docs/publishing.md.' }),
    metadata: Type.Object({}, { additionalProperties: true, description: 'Exactly what is (or was) published, defaults applied, keyed by network.' }),
    published_at: NullableIsoDate,
  },
  { $id: 'PostItem' },
);

export const PostSchema = Type.Object(
  {
    id: Type.String(),
    item_count: Type.Integer(),
    scheduled_at: NullableIsoDate,
    status: Type.Union(['pending', 'processing', 'completed', 'partial', 'failed'].map((s) => Type.Literal(s))),
    created_at: IsoDate,
    items: Type.Array(PostItemSchema),
  },
  { $id: 'Post' },
);

export const PostListSchema = Type.Object({ posts: Type.Array(PostSchema), pagination: PaginationSchema }, { $id: 'PostList' });

export const PostPath = Type.Object({ id: Id });
export const PostItemPath = Type.Object({ id: Id, itemId: Id });
