import type { EditsService } from '../../domain/edits/edits.service.js';
import { pageRequest } from '../../domain/pagination.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { answer, errorResponses } from '../schemas/common.js';
import { DeriveEditSchema, EditPath, EditSchema, EditVersionListSchema, EditVersionsQuery } from '../schemas/edit.schemas.js';

export interface EditRoutesDeps {
  edits: EditsService;
}

/** /edits/* : an edit as a document, its versions, and derived edits (docs/edits.md). */
export function editRoutes(app: Api, deps: EditRoutesDeps) {
  const tags = ['Edits'];

  app.get(
    '/edits/:editId',
    {
      schema: {
        operationId: 'getEdit',
        tags,
        summary: 'Get an edit',
        description:
          'Cutroom’s addition. The edit as a document: its kept `segments` and the `words` inside them (source seconds; `index` is the same in every version ' +
          'of the clip), layout, template, captions and title. 404 EDITS_NOT_FOUND (`extra.invalid_edits`) for an edit that is not the workspace’s.',
        params: EditPath,
        response: { 200: answer(EditSchema, 'The edit.'), ...errorResponses('EDITS_NOT_FOUND') },
      },
    },
    async (req) => deps.edits.get(callerOf(req).workspace.id, req.params.editId),
  );

  app.get(
    '/edits/:editId/versions',
    {
      schema: {
        operationId: 'listEditVersions',
        tags,
        summary: 'List the versions of an edit',
        description:
          'Cutroom’s addition. Every edit of the same clip (or, for an edit of no clip, of the same first edit), newest first; the edit the service made ' +
          'is the oldest, so last. 404 EDITS_NOT_FOUND (`extra.invalid_edits`) for an edit that is not the workspace’s.',
        params: EditPath,
        querystring: EditVersionsQuery,
        response: { 200: answer(EditVersionListSchema, 'One page of versions.'), ...errorResponses('EDITS_NOT_FOUND') },
      },
    },
    async (req) => deps.edits.versions(callerOf(req).workspace.id, req.params.editId, pageRequest(req.query)),
  );

  app.post(
    '/edits',
    {
      schema: {
        operationId: 'deriveEdit',
        tags,
        summary: 'Derive a new edit',
        description:
          'Cutroom’s addition. A new edit made from `base_edit_id` (which never changes) with the changes asked: kept `segments` or a `trim` (boundaries ' +
          'snapped into the gap beside the nearest word edge unless `snap: false`), `remove_words`, `word_text` corrections, `remove_fillers`, ' +
          '`remove_silences` (pauses the voice detector finds cut down to a short gap), `aspect_ratio`, `reframe`, `zoom`, `template_id`, ' +
          '`captions_enabled`, `title`. Answers 201 with the new edit (`parent_edit_id` = the base); derived from ' +
          'any version of a clip’s edit it becomes the clip’s `edit_id`. 400 VALIDATION_ERROR (`extra.errors` names the field) for a stretch outside the ' +
          'source, overlapping or unordered stretches, an unknown word index, `remove_silences.min_seconds` or `zoom` out of range, an empty result or ' +
          'more than 180 s of output; 404 EDITS_NOT_FOUND ' +
          '(`extra.invalid_edits`), TEMPLATE_NOT_FOUND.',
        body: DeriveEditSchema,
        response: { 201: answer(EditSchema, 'The new edit.'), ...errorResponses('VALIDATION_ERROR', 'EDITS_NOT_FOUND', 'TEMPLATE_NOT_FOUND') },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.edits.derive(callerOf(req).workspace.id, req.body)),
  );
}
