import { Type } from '@sinclair/typebox';
import { validationError } from '../../domain/errors.js';
import type { GenerationsService } from '../../domain/generations/generations.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { callerOf } from '../plugins/auth.js';
import { readMultipart } from '../plugins/multipart.js';
import { answer, errorResponses } from '../schemas/common.js';
import {
  CreateGenerationSchema,
  GenerationImageSchema,
  GenerationListSchema,
  GenerationModelListSchema,
  GenerationPath,
  GenerationSchema,
} from '../schemas/generation.schemas.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';

export interface GenerationRoutesDeps {
  generations: GenerationsService;
}

const tags = ['Generations'];

/** GET /generations/models, POST /generations, GET /generations/{id}, GET /generations (docs/generations.md). */
export function generationRoutes(app: Api, deps: GenerationRoutesDeps) {
  app.get(
    '/generations/models',
    {
      schema: {
        operationId: 'listGenerationModels',
        tags,
        summary: 'List the generation models',
        description:
          'The models this service offers: what each really does, its inputs (prompt required, optional or refused; how many reference images), its options ' +
          '(type, allowed values or range, default), its price (`per_image`, or `per_second` of video, before the plan’s discount) and, for videos, `max_seconds`. ' +
          '`engine: embedded` models run on the service itself; others call the operator’s hosted provider.',
        querystring: PageQuery,
        response: { 200: answer(GenerationModelListSchema, 'One page of models.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.generations.listModels(page);
      return listResponse('models', items, total, page);
    },
  );

  app.post(
    '/generations',
    {
      schema: {
        operationId: 'createGeneration',
        tags,
        summary: 'Start a generation',
        description:
          'Runs a model at the agreed price: `credits` must equal the price measured now (1 image × `per_image`, or `options.duration` × `per_second`, the plan’s discount applied, ' +
          'rounded up), else 409 PRICE_CHANGED with the measured `credits` in `extra` and nothing is charged. Charged at once, also under free usage ' +
          '(402 INSUFFICIENT_CREDITS with `credits_needed`, `current_balance`, `top_up_url`). `image_ids` are uploads (POST /generations/images) or the ' +
          '`output.image_id` of a ready image generation. Unknown or disabled model: 404 MODEL_NOT_FOUND; an image not in the workspace: 404 IMAGE_NOT_FOUND ' +
          '(`extra.image_ids`); inputs against the model: 400 VALIDATION_ERROR naming each field. A failed generation is refunded. Poll GET /generations/{generationId} every 5 to 10 seconds.',
        body: CreateGenerationSchema,
        response: {
          202: answer(GenerationSchema, 'Queued and charged.'),
          ...errorResponses('MODEL_NOT_FOUND', 'IMAGE_NOT_FOUND', 'PRICE_CHANGED', 'INSUFFICIENT_CREDITS'),
        },
      },
    },
    async (req, reply) => reply.code(202).send(await deps.generations.create(callerOf(req), req.body)),
  );

  app.get(
    '/generations',
    {
      schema: {
        operationId: 'listGenerations',
        tags,
        summary: 'List generations',
        description: 'The workspace’s generations, newest first.',
        querystring: PageQuery,
        response: { 200: answer(GenerationListSchema, 'One page of generations.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { items, total } = await deps.generations.list(callerOf(req).workspace.id, page);
      return listResponse('generations', items, total, page);
    },
  );

  app.get(
    '/generations/:generationId',
    {
      schema: {
        operationId: 'getGeneration',
        tags,
        summary: 'Get a generation',
        description:
          'States: `queued`, `processing`, then `ready` (`output` with a signed `url` valid one hour; an image output has an `image_id` usable in `image_ids`) or ' +
          '`failed` (`error_code`; the charge is refunded and `credits_charged` is 0). Poll every 5 to 10 seconds.',
        params: GenerationPath,
        response: { 200: answer(GenerationSchema, 'The generation.'), ...errorResponses('GENERATION_NOT_FOUND') },
      },
    },
    async (req) => deps.generations.get(callerOf(req).workspace.id, req.params.generationId),
  );
}

/** POST /generations/images: registered in the multipart scope (plugins/multipart.ts). */
export function generationImageRoutes(app: Api, deps: GenerationRoutesDeps) {
  app.post(
    '/generations/images',
    {
      schema: {
        operationId: 'uploadGenerationImage',
        tags,
        summary: 'Upload a reference image',
        description:
          'multipart/form-data with one file in the field `image`: PNG, JPEG or WebP, recognised from its bytes (the file name and declared type are ignored). ' +
          'Not one of them, or not decodable: 400 UNSUPPORTED_IMAGE (`extra.reason`: `not_an_image`, `undecodable`, or `too_many_pixels` with `max_pixels`); ' +
          'above the size limit: 413 FILE_TOO_LARGE with `extra.max_size`. Answers an image id for `image_ids`, its size and a signed `url` (one hour). Free.',
        consumes: ['multipart/form-data'],
        body: Type.Unsafe<unknown>({
          type: 'object',
          properties: { image: { type: 'string', format: 'binary', description: 'The image file.' } },
          required: ['image'],
        }),
        response: { 201: answer(GenerationImageSchema, 'The stored image.'), ...errorResponses('UNSUPPORTED_IMAGE', 'FILE_TOO_LARGE') },
      },
      // The body is read as a stream by readMultipart, not validated as JSON.
      validatorCompiler: () => () => true,
    },
    async (req, reply) => {
      const max = deps.generations.maxImageBytes;
      const body = await readMultipart(req, { fileField: 'image', maxBytes: max });
      if (!body.file) throw validationError([{ field: 'image', rule: 'required' }]);
      return reply.code(201).send(await deps.generations.uploadImage(callerOf(req), body.file.bytes));
    },
  );
}
