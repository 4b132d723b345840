import type { PersonasService } from '../../domain/personas/personas.service.js';
import type { PersonaVideosService } from '../../domain/personas/persona-videos.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer, errorResponses } from '../schemas/common.js';
import {
  CatalogSchema,
  CreatePersonaSchema,
  CreateVideoSchema,
  FavoriteAnswerSchema,
  FavoriteSchema,
  FeedbackBodySchema,
  PersonaListQuery,
  PersonaListSchema,
  PersonaPath,
  PersonaSchema,
  PersonaVideoListQuery,
  PersonaVideoListSchema,
  PersonaVideoPath,
  PersonaVideoSchema,
  PresetListSchema,
  PresetPath,
  QuoteQuery,
  QuoteSchema,
  RegenerateSchema,
  SaveSchema,
  SourceCompleteSchema,
  SourceSchema,
  SourceUploadAnswerSchema,
  SourceUploadSchema,
  VersionPath,
  VersionSchema,
} from '../schemas/persona.schemas.js';

export interface PersonaRoutesDeps {
  personas: PersonasService;
  personaVideos: PersonaVideosService;
}

const PORTRAIT_CHARGE =
  'Charged the catalog’s `prices.image` (a ledger row, also under free usage): 402 INSUFFICIENT_CREDITS with `credits_needed`, `current_balance` and `top_up_url` when short; refunded automatically when the portrait fails.';

/** AI personas (docs/personas.md): catalog, faces, personas, versions, presets, sources, quotes and persona videos. */
export function personaRoutes(app: Api, deps: PersonaRoutesDeps) {
  const tags = ['Personas'];

  app.get(
    '/personas/catalog',
    {
      schema: {
        operationId: 'getPersonaCatalog',
        tags,
        summary: 'Persona traits, prices, limits and engines',
        description:
          'The 14 traits with their options and defaults; `face_photo_groups` (the traits still applied when `face_ids` are used); prices in credits set by the operator with the plan’s discount applied; ' +
          'source-video limits per quality; which engines serve portraits (`illustration` or `photo`) and swaps, and which `replace` modes are available.',
        response: { 200: answer(CatalogSchema, 'The catalog.') },
      },
    },
    async (req) => deps.personas.catalog(callerOf(req)),
  );

  app.post(
    '/personas',
    {
      schema: {
        operationId: 'createPersona',
        tags,
        summary: 'Create a persona',
        description:
          'From `chips` (missing traits take the defaults; unknown trait keys or option ids → 400 VALIDATION_ERROR naming them) or own-face photos (`face_ids`; only `face_photo_groups` traits apply). ' +
          `Answers 202 with \`image_status: processing\`; poll GET /personas/{id} every 5 seconds. ${PORTRAIT_CHARGE}`,
        body: CreatePersonaSchema,
        response: { 202: answer(PersonaSchema, 'Started.'), ...errorResponses('INSUFFICIENT_CREDITS', 'FACE_NOT_FOUND') },
      },
    },
    async (req, reply) => reply.code(202).send(await deps.personas.create(callerOf(req), req.body)),
  );

  app.get(
    '/personas',
    {
      schema: {
        operationId: 'listPersonas',
        tags,
        summary: 'List personas',
        description: 'Saved and unsaved personas, newest first. Filters: `saved`, `image_status`, `preset_id`, `q` (part of the name).',
        querystring: PersonaListQuery,
        response: { 200: answer(PersonaListSchema, 'One page of personas.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.personas.list(callerOf(req).workspace.id, req.query, page);
      return listResponse('personas', items, total, page);
    },
  );

  app.get(
    '/personas/presets',
    {
      schema: {
        operationId: 'listPersonaPresets',
        tags,
        summary: 'Ready-made characters',
        description: 'Built-in presets with their chips, a preview image and whether the workspace marked them favourite.',
        response: { 200: answer(PresetListSchema, 'The presets.') },
      },
    },
    async (req) => deps.personas.presets(callerOf(req)),
  );

  app.post(
    '/personas/presets/:presetId',
    {
      schema: {
        operationId: 'createPersonaFromPreset',
        tags,
        summary: 'Turn a preset into a persona',
        description: 'Free of charge: the new persona is `ready` at once, named after the preset, with the preset’s image as its first version.',
        params: PresetPath,
        response: { 201: answer(PersonaSchema, 'The persona.'), ...errorResponses('PRESET_NOT_FOUND') },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.personas.fromPreset(callerOf(req), req.params.presetId)),
  );

  app.put(
    '/personas/presets/:presetId/favorite',
    {
      schema: {
        operationId: 'setPersonaPresetFavorite',
        tags,
        summary: 'Mark or unmark a preset as favourite',
        description: 'Per workspace.',
        params: PresetPath,
        body: FavoriteSchema,
        response: { 200: answer(FavoriteAnswerSchema, 'The preset’s state.'), ...errorResponses('PRESET_NOT_FOUND') },
      },
    },
    async (req) => deps.personas.setFavorite(callerOf(req), req.params.presetId, req.body.favorite),
  );

  app.post(
    '/personas/sources/upload',
    {
      schema: {
        operationId: 'createPersonaSourceUpload',
        tags,
        summary: 'Declare a source video for a swap',
        description:
          'A video (.mp4 .mov .webm .mkv with a matching `content_type`) sent with one signed PUT (raw bytes, the declared Content-Type, no key; one hour), then POST /personas/sources/upload/complete. ' +
          'Above the persona source ceiling or the plan’s upload size: 413 FILE_TOO_LARGE with `max_size`. A library video needs no upload: its `video_id` is a `media_id`.',
        body: SourceUploadSchema,
        response: { 200: answer(SourceUploadAnswerSchema, 'Where to send the bytes.'), ...errorResponses('FILE_TOO_LARGE') },
      },
    },
    async (req) => deps.personaVideos.createSourceUpload(callerOf(req), req.body),
  );

  app.post(
    '/personas/sources/upload/complete',
    {
      schema: {
        operationId: 'completePersonaSourceUpload',
        tags,
        summary: 'Register an uploaded source video',
        description:
          'Measures the file (container sniffed from its bytes, duration, size): 404 FILE_NOT_FOUND when nothing was sent; 400 VALIDATION_ERROR (`file`) when it is not an MP4/MOV or Matroska/WebM video. ' +
          'The duration limit is checked by the quote (it depends on the quality).',
        body: SourceCompleteSchema,
        response: { 200: answer(SourceSchema, 'The measured source.'), ...errorResponses('MEDIA_NOT_FOUND', 'FILE_NOT_FOUND') },
      },
    },
    async (req) => deps.personaVideos.completeSourceUpload(callerOf(req), req.body.media_id),
  );

  app.get(
    '/personas/swap/quote',
    {
      schema: {
        operationId: 'quotePersonaSwap',
        tags,
        summary: 'Price a swap',
        description:
          '`media_id`: a persona source upload or a library `video_id`. `seconds` is measured by the service; `credits` = seconds rounded up × the quality’s per-second price. ' +
          '`quality` defaults to `standard`, `replace` to `person`. Longer than the quality allows → 400 VIDEO_TOO_LONG with `max_duration`; a `replace` mode the configured engine cannot do → ' +
          '400 REPLACE_MODE_UNAVAILABLE with `available` (never another mode instead).',
        querystring: QuoteQuery,
        response: {
          200: answer(QuoteSchema, 'The quote.'),
          ...errorResponses('VIDEO_TOO_LONG', 'REPLACE_MODE_UNAVAILABLE', 'MEDIA_NOT_FOUND', 'FILE_NOT_FOUND'),
        },
      },
    },
    async (req) => deps.personaVideos.quote(callerOf(req), req.query),
  );

  app.get(
    '/personas/:id',
    {
      schema: {
        operationId: 'getPersona',
        tags,
        summary: 'Get a persona',
        description: 'Poll every 5 seconds until `image_status` is `ready` (or `failed`, with `error_code`; the charge was refunded).',
        params: PersonaPath,
        response: { 200: answer(PersonaSchema, 'The persona.'), ...errorResponses('PERSONA_NOT_FOUND') },
      },
    },
    async (req) => deps.personas.getView(callerOf(req).workspace.id, req.params.id),
  );

  app.post(
    '/personas/:id/regenerate',
    {
      schema: {
        operationId: 'regeneratePersona',
        tags,
        summary: 'Make a new portrait',
        description:
          '`{ chips }` (changed traits; the others stay) or `{ note }` (one line, ≤ 200 characters). Works on saved personas. An engine that does not read free text (`reads_notes: false`) reads the note as people write it ' +
          '(“shorter hair”, “make her older”, “add glasses”, “no beard”, “curly red hair”; docs/personas.md); a note naming no trait → 400 NOTE_NOT_UNDERSTOOD with `extra.examples`, before any charge. 409 PERSONA_IMAGE_PROCESSING while a portrait is being made. ' +
          PORTRAIT_CHARGE,
        params: PersonaPath,
        body: RegenerateSchema,
        response: {
          202: answer(PersonaSchema, 'Started.'),
          ...errorResponses('PERSONA_NOT_FOUND', 'INSUFFICIENT_CREDITS', 'PERSONA_IMAGE_PROCESSING', 'NOTE_NOT_UNDERSTOOD'),
        },
      },
    },
    async (req, reply) => reply.code(202).send(await deps.personas.regenerate(callerOf(req), req.params.id, req.body)),
  );

  app.post(
    '/personas/:id/save',
    {
      schema: {
        operationId: 'savePersona',
        tags,
        summary: 'Save (name) a persona',
        description: 'Names the persona and marks it saved (`saved: true`); saving again renames it. Free.',
        params: PersonaPath,
        body: SaveSchema,
        response: { 200: answer(PersonaSchema, 'The persona.'), ...errorResponses('PERSONA_NOT_FOUND') },
      },
    },
    async (req) => deps.personas.save(callerOf(req), req.params.id, req.body.name),
  );

  app.post(
    '/personas/:id/versions/:versionId/restore',
    {
      schema: {
        operationId: 'restorePersonaVersion',
        tags,
        summary: 'Go back to a version',
        description: 'Free: the version (and its chips) becomes current. 409 PERSONA_IMAGE_PROCESSING while a portrait is being made.',
        params: VersionPath,
        response: { 200: answer(PersonaSchema, 'The persona.'), ...errorResponses('PERSONA_NOT_FOUND', 'VERSION_NOT_FOUND', 'PERSONA_IMAGE_PROCESSING') },
      },
    },
    async (req) => deps.personas.restore(callerOf(req), req.params.id, req.params.versionId),
  );

  app.post(
    '/personas/:id/versions/:versionId/feedback',
    {
      schema: {
        operationId: 'sendPersonaVersionFeedback',
        tags,
        summary: 'Rate a version',
        description: 'Free. `reason` is required with `down`. Stored on the version (`feedback`); a new vote replaces the previous one.',
        params: VersionPath,
        body: FeedbackBodySchema,
        response: { 200: answer(VersionSchema, 'The version.'), ...errorResponses('PERSONA_NOT_FOUND', 'VERSION_NOT_FOUND') },
      },
    },
    async (req) => deps.personas.versionFeedback(callerOf(req), req.params.id, req.params.versionId, req.body),
  );

  app.post(
    '/personas/:id/videos',
    {
      schema: {
        operationId: 'createPersonaVideo',
        tags,
        summary: 'Make a persona video (swap)',
        description:
          'The source is measured and priced again: a price different from `credits` → 409 PRICE_CHANGED with the measured `credits` in `extra`, nothing charged or created. ' +
          'Charged even under free usage; short balance → 402 INSUFFICIENT_CREDITS with `top_up_url`; refunded automatically when the swap fails (`error_code`). ' +
          '`version_id` defaults to the current version; the video stays tied to it. Poll GET …/videos/{videoId} every 10 seconds.',
        params: PersonaPath,
        body: CreateVideoSchema,
        response: {
          202: answer(PersonaVideoSchema, 'Started.'),
          ...errorResponses(
            'PERSONA_NOT_FOUND',
            'VERSION_NOT_FOUND',
            'MEDIA_NOT_FOUND',
            'FILE_NOT_FOUND',
            'PRICE_CHANGED',
            'INSUFFICIENT_CREDITS',
            'VIDEO_TOO_LONG',
            'REPLACE_MODE_UNAVAILABLE',
            'PERSONA_IMAGE_NOT_READY',
          ),
        },
      },
    },
    async (req, reply) => reply.code(202).send(await deps.personaVideos.create(callerOf(req), req.params.id, req.body)),
  );

  app.get(
    '/personas/:id/videos',
    {
      schema: {
        operationId: 'listPersonaVideos',
        tags,
        summary: 'List a persona’s videos',
        description: 'Newest first; `version_id` lists one version’s videos.',
        params: PersonaPath,
        querystring: PersonaVideoListQuery,
        response: { 200: answer(PersonaVideoListSchema, 'One page of persona videos.'), ...errorResponses('PERSONA_NOT_FOUND') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.personaVideos.list(callerOf(req), req.params.id, { version_id: req.query.version_id }, page);
      return listResponse('videos', items, total, page);
    },
  );

  app.get(
    '/personas/:id/videos/:videoId',
    {
      schema: {
        operationId: 'getPersonaVideo',
        tags,
        summary: 'Get a persona video',
        description: 'Poll every 10 seconds until `status` is `ready` (`download_url`, `edit_id`) or `failed` (`error_code`; refunded).',
        params: PersonaVideoPath,
        response: { 200: answer(PersonaVideoSchema, 'The persona video.'), ...errorResponses('PERSONA_NOT_FOUND', 'PERSONA_VIDEO_NOT_FOUND') },
      },
    },
    async (req) => deps.personaVideos.get(callerOf(req), req.params.id, req.params.videoId),
  );

  app.post(
    '/personas/:id/videos/:videoId/feedback',
    {
      schema: {
        operationId: 'sendPersonaVideoFeedback',
        tags,
        summary: 'Rate a persona video',
        description: 'Free. `reason` is required with `down`. Stored on the video (`feedback`).',
        params: PersonaVideoPath,
        body: FeedbackBodySchema,
        response: { 200: answer(PersonaVideoSchema, 'The persona video.'), ...errorResponses('PERSONA_NOT_FOUND', 'PERSONA_VIDEO_NOT_FOUND') },
      },
    },
    async (req) => deps.personaVideos.feedback(callerOf(req), req.params.id, req.params.videoId, req.body),
  );
}
