import { Type } from '@sinclair/typebox';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';

/** Generations and the model catalog (docs/generations.md). */

const Id = Type.String({ minLength: 1, maxLength: 100 });

const PromptRule = Type.Union([Type.Literal('required'), Type.Literal('optional'), Type.Literal('none')]);

export const ModelInputsSchema = Type.Object(
  {
    prompt: PromptRule,
    image_ids: Type.Object({ min: Type.Integer({ minimum: 0, maximum: 16 }), max: Type.Integer({ minimum: 0, maximum: 16 }) }, { additionalProperties: false }),
  },
  { additionalProperties: false, description: 'Whether a prompt is required, optional or refused, and how many reference images.' },
);

const Description = Type.Optional(Type.String({ maxLength: 500 }));

export const OptionSpecSchema = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('string'),
        values: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
        pattern: Type.Optional(Type.String({ maxLength: 200 })),
        max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
        default: Type.Optional(Type.String({ maxLength: 1000 })),
        description: Description,
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Union([Type.Literal('number'), Type.Literal('integer')]),
        minimum: Type.Optional(Type.Number()),
        maximum: Type.Optional(Type.Number()),
        default: Type.Optional(Type.Number()),
        description: Description,
      },
      { additionalProperties: false },
    ),
    Type.Object({ type: Type.Literal('boolean'), default: Type.Optional(Type.Boolean()), description: Description }, { additionalProperties: false }),
  ],
  { description: 'An option: its type, allowed values or range, default.' },
);

export const ModelOptionsSchema = Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' }), OptionSpecSchema, { maxProperties: 40 });

const Price = Type.Union(
  [
    Type.Object({ per_image: Type.Number({ minimum: 0, description: 'Credits per image (before the plan’s discount).' }) }, { additionalProperties: false }),
    Type.Object(
      { per_second: Type.Number({ minimum: 0, description: 'Credits per second of video (before the plan’s discount).' }) },
      { additionalProperties: false },
    ),
  ],
  { description: 'Credits, before the plan’s discount; the total is rounded up to a whole credit.' },
);

export const GenerationModelSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
    engine: Type.String({ description: '`embedded` (runs on this service) or the hosted provider: `fal`, `replicate`, `openai`.' }),
    description: Type.String({ description: 'What the model really does.' }),
    inputs: ModelInputsSchema,
    options: ModelOptionsSchema,
    price: Price,
    max_seconds: Type.Optional(Type.Number({ description: 'Videos: the longest `options.duration`.' })),
  },
  { $id: 'GenerationModel' },
);

export const GenerationModelListSchema = Type.Object(
  { models: Type.Array(GenerationModelSchema), pagination: PaginationSchema },
  { $id: 'GenerationModelList' },
);

export const GenerationImageSchema = Type.Object(
  {
    id: Type.String({ description: 'An image id for `image_ids`.' }),
    width: Type.Integer(),
    height: Type.Integer(),
    content_type: Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg'), Type.Literal('image/webp')]),
    url: Type.String({ description: 'Signed; valid one hour.' }),
  },
  { $id: 'GenerationImage' },
);

export const CreateGenerationSchema = Type.Object(
  {
    model_id: Id,
    prompt: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
    image_ids: Type.Optional(Type.Array(Id, { maxItems: 16 })),
    options: Type.Optional(Type.Object({}, { additionalProperties: true, maxProperties: 40, description: 'Checked against the model’s `options`.' })),
    credits: Type.Integer({
      minimum: 0,
      maximum: 2147483647,
      description: 'The price read from GET /generations/models (per image, or `options.duration` × per second, after the plan’s discount, rounded up).',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      { model_id: 'camera-motion', image_ids: ['gim_0k1j2h3g4f5d6s7a8p9o'], options: { duration: 5, motion: 'push_in', aspect_ratio: '9:16' }, credits: 5 },
    ],
  },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const GenerationSchema = Type.Object(
  {
    id: Type.String(),
    model_id: Type.String(),
    kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
    status: Type.Union([Type.Literal('queued'), Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')]),
    prompt: Nullable(Type.String()),
    image_ids: Type.Array(Type.String()),
    options: Type.Object({}, { additionalProperties: true, description: 'As asked, with the model’s defaults filled in.' }),
    credits_charged: Type.Integer({ description: 'Credits taken; 0 after a refund (failed).' }),
    error_code: Nullable(Type.String({ description: 'Set when `failed` (docs/generations.md lists them); the charge was refunded.' })),
    output: Type.Union([
      Type.Object({
        url: Type.String({ description: 'The service’s own signed URL, valid one hour; GET the generation again for a new one.' }),
        content_type: Type.String(),
        width: Type.Integer(),
        height: Type.Integer(),
        seconds: Type.Optional(Type.Number({ description: 'Videos: their length.' })),
        image_id: Type.Optional(Type.String({ description: 'Images: usable in `image_ids` (e.g. to animate it).' })),
      }),
      Type.Null(),
    ]),
    created_at: IsoDate,
    completed_at: NullableIsoDate,
  },
  { $id: 'Generation' },
);

export const GenerationListSchema = Type.Object({ generations: Type.Array(GenerationSchema), pagination: PaginationSchema }, { $id: 'GenerationList' });

export const GenerationPath = Type.Object({ generationId: Id });

/** PUT /admin/v1/generation-models/{id}. */
export const ModelPutSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
    provider: Type.Union([Type.Literal('embedded'), Type.Literal('fal'), Type.Literal('replicate'), Type.Literal('openai')]),
    provider_model: Type.String({ minLength: 1, maxLength: 300, pattern: '^[A-Za-z0-9._:/-]+$' }),
    base_url: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()])),
    api_key: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()])),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    inputs: Type.Optional(ModelInputsSchema),
    options: Type.Optional(ModelOptionsSchema),
    price: Type.Object(
      { per_image: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })), per_second: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })) },
      { additionalProperties: false },
    ),
    max_seconds: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 3600 }), Type.Null()])),
    image_field: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z_][A-Za-z0-9_\\[\\]]*$' }), Type.Null()])),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ModelIdPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9._-]*$' }) });
