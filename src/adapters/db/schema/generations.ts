import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from './columns.js';
import { workspaceId } from './workspaces.js';

/**
 * The generation model catalog (operator configuration, docs/generations.md): embedded models and hosted
 * ones (fal, Replicate, OpenAI-compatible), each with its inputs, options and price. Keys are sealed
 * like connection credentials. A change applies to the next POST /generations.
 */
export const generationModels = pgTable('generation_models', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** `image` or `video`. */
  kind: text('kind').notNull(),
  /** `embedded`, `fal`, `replicate` or `openai`. */
  provider: text('provider').notNull(),
  /** The embedded engine's name, or the provider's model id. */
  providerModel: text('provider_model').notNull(),
  baseUrl: text('base_url'),
  /** The provider key, sealed (AES-256-GCM under the credentials key); never answered. */
  apiKeySealed: text('api_key_sealed'),
  description: text('description').notNull().default(''),
  /** `{ prompt: 'required' | 'optional' | 'none', image_ids: { min, max } }`. */
  inputs: jsonb('inputs').$type<unknown>().notNull(),
  /** Option name → `{ type, values?, minimum?, maximum?, default? }`. */
  options: jsonb('options').$type<unknown>().notNull(),
  pricePerImage: doublePrecision('price_per_image'),
  pricePerSecond: doublePrecision('price_per_second'),
  maxSeconds: doublePrecision('max_seconds'),
  /** The provider model's input field for reference images when not the protocol's usual one. */
  imageField: text('image_field'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Images usable in `image_ids`: uploads (POST /generations/images) and the image outputs of generations. */
export const generationImages = pgTable(
  'generation_images',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    storageKey: text('storage_key').notNull(),
    /** `image/png`, `image/jpeg` or `image/webp`, sniffed from the bytes. */
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The generation that made it; null for an upload. */
    generationId: text('generation_id'),
    createdAt: createdAt(),
  },
  (t) => [index('generation_images_ws_idx').on(t.workspaceId, t.createdAt)],
);

/** Generations: queued → processing → ready or failed (refunded). */
export const generations = pgTable(
  'generations',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    modelId: text('model_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    prompt: text('prompt'),
    imageIds: jsonb('image_ids').$type<string[]>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    /** Seconds of video charged for (video models), else null. */
    seconds: doublePrecision('seconds'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    errorCode: text('error_code'),
    /** The hosted provider's job id once submitted (a retried run polls it instead of submitting again). */
    providerJobId: text('provider_job_id'),
    /** The output once ready: `{ key, content_type, width, height, seconds?, image_id? }`. */
    output: jsonb('output').$type<unknown>(),
    createdAt: createdAt(),
    startedAt: timestamptz('started_at'),
    completedAt: timestamptz('completed_at'),
  },
  (t) => [index('generations_ws_created_idx').on(t.workspaceId, t.createdAt)],
);
