import { Type } from '@sinclair/typebox';
import { TRAIT_KEYS } from '../../domain/personas/persona-catalog.js';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';

const Str = (o: Record<string, unknown> = {}) => Type.String(o);
const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Status = Type.Union(['processing', 'ready', 'failed'].map((s) => Type.Literal(s)));
const ImageKind = Type.Union([Type.Literal('illustration'), Type.Literal('photo')], {
  description: '`illustration`: a drawn portrait (the embedded chips engine); `photo`: photographic (own-face photos, or a hosted generative engine).',
});

/** Path parameters named as the specification writes them: `/personas/{id}`, `…/versions/{versionId}`, `…/videos/{videoId}`. */
export const PersonaPath = Type.Object({ id: Id });
export const VersionPath = Type.Object({ id: Id, versionId: Id });
export const PersonaVideoPath = Type.Object({ id: Id, videoId: Id });
export const PresetPath = Type.Object({ presetId: Id });

/** Chips: one option id per trait; keys and ids are checked by the service (400 naming each unknown one). */
const ChipsSchema = Type.Record(Type.String({ maxLength: 50 }), Type.String({ maxLength: 50 }), {
  description: `One option id per trait (keys: ${TRAIT_KEYS.join(', ')}); options in GET /personas/catalog. Missing traits take the catalog defaults.`,
  maxProperties: 30,
});

const TraitSchema = Type.Object({ options: Type.Array(Type.Object({ id: Str(), label: Str() })), default: Str() });

export const CatalogSchema = Type.Object(
  {
    traits: Type.Object(Object.fromEntries(TRAIT_KEYS.map((k) => [k, TraitSchema])), { additionalProperties: false }),
    face_photo_groups: Type.Array(Str(), { description: 'The traits the own-face engine still applies when `face_ids` are given (docs/personas.md).' }),
    prices: Type.Object({
      image: Type.Integer({ description: 'Credits per portrait (create, regenerate), the plan’s discount applied.' }),
      swap: Type.Object({
        standard: Type.Object({
          per_second: Type.Number({ description: 'Credits per started second, the discount applied; a swap costs ceil(started seconds × per_second).' }),
        }),
        high: Type.Object({ per_second: Type.Number() }),
      }),
    }),
    discount_percent: Type.Number(),
    source_limits: Type.Object({
      standard: Type.Object({ max_seconds: Type.Number(), formats: Type.Array(Str()) }),
      high: Type.Object({ max_seconds: Type.Number(), formats: Type.Array(Str()) }),
    }),
    engines: Type.Object({
      portrait: Type.Object({
        chips: Type.Object({ name: Str(), kind: ImageKind, reads_notes: Type.Boolean() }),
        face_photos: Type.Object({ name: Str(), kind: ImageKind, reads_notes: Type.Boolean() }),
      }),
      swap: Type.Object({
        name: Str(),
        label: Str({ description: '`preview` for the embedded head swap.' }),
        qualities: Type.Array(Str()),
        replace: Type.Object({ person: Type.Object({ available: Type.Boolean() }), head: Type.Object({ available: Type.Boolean() }) }),
      }),
    }),
  },
  { $id: 'PersonaCatalog' },
);

const FeedbackSchema = Type.Union([Type.Object({ vote: Str(), reason: Nullable(Str()), created_at: IsoDate }), Type.Null()]);

export const VersionSchema = Type.Object(
  {
    id: Str(),
    image_url: Str({ description: 'Signed PNG URL (one hour).' }),
    image_kind: ImageKind,
    engine: Str(),
    chips: Type.Record(Str(), Str()),
    note: Nullable(Str()),
    face_ids: Type.Array(Str()),
    feedback: FeedbackSchema,
    created_at: IsoDate,
  },
  { $id: 'PersonaVersion' },
);

export const PersonaSchema = Type.Object(
  {
    id: Str(),
    name: Nullable(Str({ description: 'Null until saved.' })),
    saved: Type.Boolean(),
    image_status: Status,
    image_url: Nullable(Str({ description: 'The current version’s signed PNG URL; null before the first portrait.' })),
    image_kind: Type.Union([ImageKind, Type.Null()]),
    error_code: Nullable(Str({ description: 'Why the last portrait failed (it was refunded).' })),
    chips: Type.Record(Str(), Str()),
    face_ids: Type.Array(Str()),
    preset_id: Nullable(Str()),
    current_version_id: Nullable(Str()),
    versions: Type.Array(VersionSchema, { description: 'Oldest first; every finished portrait is one.' }),
    created_at: IsoDate,
    updated_at: IsoDate,
  },
  { $id: 'Persona' },
);

export const PersonaListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  saved: Type.Optional(Type.Boolean({ description: 'Only saved (true) or unsaved (false) personas.' })),
  image_status: Type.Optional(Status),
  preset_id: Type.Optional(Id),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name (case-insensitive).' })),
});

export const PersonaListSchema = Type.Object({ personas: Type.Array(PersonaSchema), pagination: PaginationSchema }, { $id: 'PersonaList' });

export const CreatePersonaSchema = Type.Object(
  {
    chips: Type.Optional(ChipsSchema),
    face_ids: Type.Optional(
      Type.Array(Id, { minItems: 1, maxItems: 5, description: 'Own-face photos (POST /personas/faces); only `face_photo_groups` traits then apply.' }),
    ),
  },
  { additionalProperties: false, examples: [{ chips: { vibe: 'friendly', hair_color: 'red', accessory: 'glasses' } }] },
);

export const RegenerateSchema = Type.Object(
  {
    chips: Type.Optional(ChipsSchema),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'One line (≤ 200 characters).' })),
  },
  { additionalProperties: false, description: 'Exactly one of `chips` or `note`.', examples: [{ note: 'make the hair blonde and add glasses' }] },
);

export const SaveSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false, examples: [{ name: 'Ava for the launch' }] },
);

export const FeedbackBodySchema = Type.Object(
  {
    vote: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Required with `down`.' })),
  },
  { additionalProperties: false, examples: [{ vote: 'down', reason: 'The hair colour is off.' }] },
);

export const FaceSchema = Type.Object(
  {
    id: Str(),
    width: Type.Integer(),
    height: Type.Integer(),
    face: Type.Object({
      box: Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() }, { description: 'Pixels.' }),
      score: Type.Number(),
      landmarks: Type.Integer({ description: 'Mesh points found (468 with the embedded detector).' }),
    }),
    created_at: IsoDate,
  },
  { $id: 'PersonaFace' },
);

export const FaceUploadSchema = Type.Object(
  {
    photo: Type.String({ format: 'binary', description: 'A PNG, JPEG or WebP photo of the caller’s own face, exactly one face.' }),
    own_face_adult: Type.Literal('true', { description: 'Must be `true`: the face is the caller’s own and the caller is 18 or older.' }),
  },
  { required: ['photo', 'own_face_adult'] },
);

export const PresetListSchema = Type.Object(
  {
    presets: Type.Array(
      Type.Object({
        id: Str(),
        name: Str(),
        chips: Type.Record(Str(), Str()),
        preview_url: Str({ description: 'Signed PNG URL (one hour).' }),
        image_kind: ImageKind,
        favorite: Type.Boolean(),
      }),
    ),
  },
  { $id: 'PersonaPresetList' },
);

export const FavoriteSchema = Type.Object({ favorite: Type.Boolean() }, { additionalProperties: false, examples: [{ favorite: true }] });
export const FavoriteAnswerSchema = Type.Object({ id: Str(), favorite: Type.Boolean() });

export const SourceUploadSchema = Type.Object(
  {
    file_name: Type.String({ minLength: 1, maxLength: 255, description: '.mp4 .mov .webm .mkv' }),
    file_size: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    content_type: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false, examples: [{ file_name: 'talk.mp4', file_size: 5242880, content_type: 'video/mp4' }] },
);

export const SourceUploadAnswerSchema = Type.Object({
  media_id: Str(),
  upload_url: Str({ description: 'Signed; PUT the raw bytes with the declared Content-Type and no key.' }),
  expires_in: Type.Integer({ description: 'Seconds (3600).' }),
});

export const SourceCompleteSchema = Type.Object({ media_id: Id }, { additionalProperties: false, examples: [{ media_id: 'med_r5t8y1u4i7o0p3a6s9d2' }] });

export const SourceSchema = Type.Object(
  { media_id: Str(), duration: Type.Number(), width: Type.Integer(), height: Type.Integer(), has_audio: Type.Boolean() },
  { $id: 'PersonaSource' },
);

const Quality = Type.Union([Type.Literal('standard'), Type.Literal('high')]);
const Replace = Type.Union([Type.Literal('person'), Type.Literal('head')]);

export const QuoteQuery = Type.Object({
  media_id: Id,
  quality: Type.Optional(Quality),
  replace: Type.Optional(Replace),
});

export const QuoteSchema = Type.Object(
  { media_id: Str(), quality: Quality, replace: Replace, seconds: Type.Number(), credits: Type.Integer() },
  { $id: 'PersonaSwapQuote' },
);

export const CreateVideoSchema = Type.Object(
  {
    type: Type.Literal('swap'),
    media_id: Id,
    quality: Type.Optional(Quality),
    replace: Type.Optional(Replace),
    credits: Type.Integer({ minimum: 0, description: 'The quoted price (GET /personas/swap/quote).' }),
    version_id: Type.Optional(Id),
  },
  { additionalProperties: false, examples: [{ type: 'swap', media_id: 'med_r5t8y1u4i7o0p3a6s9d2', quality: 'standard', replace: 'head', credits: 8 }] },
);

export const PersonaVideoSchema = Type.Object(
  {
    id: Str(),
    persona_id: Str(),
    type: Str(),
    status: Status,
    error_code: Nullable(Str()),
    download_url: Nullable(Str({ description: 'Signed MP4 URL (one hour) once `ready`.' })),
    edit_id: Nullable(Str({ description: 'Usable with POST /renders and POST /posts once `ready`.' })),
    version_id: Str(),
    media_id: Str(),
    quality: Quality,
    replace: Replace,
    engine: Str(),
    seconds: Type.Number(),
    credits_charged: Type.Integer({ description: '0 after a refund (failed).' }),
    feedback: FeedbackSchema,
    created_at: IsoDate,
    finished_at: NullableIsoDate,
  },
  { $id: 'PersonaVideo' },
);

export const PersonaVideoListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  version_id: Type.Optional(Id),
});

export const PersonaVideoListSchema = Type.Object({ videos: Type.Array(PersonaVideoSchema), pagination: PaginationSchema }, { $id: 'PersonaVideoList' });
