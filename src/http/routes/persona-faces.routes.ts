import { validationError } from '../../domain/errors.js';
import type { PersonasService } from '../../domain/personas/personas.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { readMultipart } from '../plugins/multipart.js';
import { answer, errorResponses } from '../schemas/common.js';
import { FaceSchema, FaceUploadSchema } from '../schemas/persona.schemas.js';

export interface PersonaFaceRoutesDeps {
  personas: PersonasService;
}

/** POST /personas/faces (multipart; registered in a multipart scope: src/http/plugins/multipart.ts). */
export function personaFaceRoutes(app: Api, deps: PersonaFaceRoutesDeps) {
  const tags = ['Personas'];

  app.post(
    '/personas/faces',
    {
      schema: {
        operationId: 'uploadPersonaFace',
        tags,
        summary: 'Upload a photo of your own face',
        description:
          'multipart/form-data with `photo` (PNG, JPEG or WebP) and `own_face_adult=true` (the face is the caller’s own; the caller is 18 or older). Exactly one face must be found: ' +
          'none → 422 NO_FACE_FOUND, several → 422 MULTIPLE_FACES; not a PNG, JPEG or WebP (by its bytes), undecodable, or above 40 megapixels by its header → 400 UNSUPPORTED_IMAGE (`extra.reason`: `not_an_image`, `undecodable`, `too_many_pixels` with `max_pixels`); the face is found on a copy of at most 2048 px; too large → 413 FILE_TOO_LARGE with `max_size`. ' +
          'The photo stays private to the workspace; its `id` goes in `face_ids` of POST /personas.',
        consumes: ['multipart/form-data'],
        body: FaceUploadSchema,
        response: { 201: answer(FaceSchema, 'The face.'), ...errorResponses('NO_FACE_FOUND', 'MULTIPLE_FACES', 'UNSUPPORTED_IMAGE', 'FILE_TOO_LARGE') },
      },
      // The form is read by the handler (a file part); the body schema documents it.
      validatorCompiler: () => () => true,
    },
    async (req, reply) => {
      const form = await readMultipart(req, { fileField: 'photo', maxBytes: deps.personas.maxPhotoBytes });
      if (!form.file) throw validationError([{ field: 'photo', rule: 'required' }]);
      const adult = form.fields.own_face_adult;
      if (adult !== 'true') throw validationError([{ field: 'own_face_adult', rule: adult === undefined ? 'required' : 'must_be_true' }]);
      return reply.code(201).send(await deps.personas.addFace(callerOf(req), { bytes: form.file.bytes, ownFaceAdult: true }));
    },
  );
}
