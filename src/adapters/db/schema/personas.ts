import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from './columns.js';
import { workspaceId } from './workspaces.js';

/**
 * AI personas (issue 14, docs/personas.md): a persona, its versions (each finished portrait), the
 * portrait jobs (one charge each), own-face photos, persona videos, preset favourites.
 */
export const personas = pgTable(
  'personas',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    /** Null until saved. */
    name: text('name'),
    saved: boolean('saved').notNull().default(false),
    /** `processing`, `ready` or `failed`: the state of the last portrait asked for. */
    imageStatus: text('image_status').notNull(),
    /** The traits of the last request (all 14 keys). */
    chips: jsonb('chips').$type<Record<string, string>>().notNull(),
    faceIds: jsonb('face_ids').$type<string[]>().notNull(),
    currentVersionId: text('current_version_id'),
    /** The preset it was made from, if any. */
    presetId: text('preset_id'),
    /** The portrait job under way or last run. */
    portraitId: text('portrait_id'),
    errorCode: text('error_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('personas_ws_created_idx').on(t.workspaceId, t.createdAt)],
);

/** One portrait request (create or regenerate): the unit charged and refunded. */
export const personaPortraits = pgTable(
  'persona_portraits',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    chips: jsonb('chips').$type<Record<string, string>>().notNull(),
    note: text('note'),
    faceIds: jsonb('face_ids').$type<string[]>().notNull(),
    /** `processing`, `ready` or `failed`. */
    status: text('status').notNull(),
    engine: text('engine').notNull(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    errorCode: text('error_code'),
    versionId: text('version_id'),
    createdAt: createdAt(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [index('persona_portraits_persona_idx').on(t.personaId, t.createdAt)],
);

/** A finished portrait of a persona (immutable but for its feedback). */
export const personaVersions = pgTable(
  'persona_versions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    imageKey: text('image_key').notNull(),
    /** `illustration` or `photo`: what the image is. */
    imageKind: text('image_kind').notNull(),
    engine: text('engine').notNull(),
    chips: jsonb('chips').$type<Record<string, string>>().notNull(),
    note: text('note'),
    faceIds: jsonb('face_ids').$type<string[]>().notNull(),
    feedbackVote: text('feedback_vote'),
    feedbackReason: text('feedback_reason'),
    feedbackAt: timestamptz('feedback_at'),
    createdAt: createdAt(),
  },
  (t) => [index('persona_versions_persona_idx').on(t.personaId, t.createdAt)],
);

/** An own-face photo (POST /personas/faces): private to the workspace. */
export const personaFaces = pgTable(
  'persona_faces',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    /** The photo as sent (its sniffed type's extension). */
    photoKey: text('photo_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** The detected face: box (0..1) and landmarks in pixels. */
    face: jsonb('face').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('persona_faces_ws_idx').on(t.workspaceId, t.createdAt)],
);

/** A persona video (swap): charged when created, refunded when it fails. */
export const personaVideos = pgTable(
  'persona_videos',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    versionId: text('version_id').notNull(),
    /** A media id (persona source upload) or a library video id. */
    mediaId: text('media_id').notNull(),
    type: text('type').notNull(),
    quality: text('quality').notNull(),
    replace: text('replace').notNull(),
    engine: text('engine').notNull(),
    seconds: doublePrecision('seconds').notNull(),
    credits: integer('credits').notNull(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    /** `processing`, `ready` or `failed`. */
    status: text('status').notNull(),
    errorCode: text('error_code'),
    outputKey: text('output_key'),
    editId: text('edit_id'),
    feedbackVote: text('feedback_vote'),
    feedbackReason: text('feedback_reason'),
    feedbackAt: timestamptz('feedback_at'),
    createdAt: createdAt(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [index('persona_videos_persona_idx').on(t.personaId, t.createdAt)],
);

/** A workspace's favourite presets. */
export const personaPresetFavorites = pgTable(
  'persona_preset_favorites',
  {
    workspaceId: workspaceId(),
    presetId: text('preset_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.presetId] })],
);
