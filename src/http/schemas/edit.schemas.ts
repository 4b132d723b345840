import { Type } from '@sinclair/typebox';
import {
  DEFAULT_MIN_SILENCE_SECONDS,
  MAX_SILENCE_SECONDS,
  MIN_SILENCE_SECONDS,
  NATURAL_GAP_SECONDS,
  SILENCE_KEEP_SECONDS,
} from '../../domain/edits/edit-silences.js';
import { ZOOM_MAX, ZOOM_MIN } from '../../domain/edits/edit.js';
import { IsoDate } from './common.js';
import { PageQuery, PaginationSchema } from './pagination.schemas.js';
import { REFRAME_DESCRIPTION, ReframeSchema } from './template.schemas.js';
import { PUNCH_IN_CLEAR, PUNCH_IN_GAP, PUNCH_IN_ZOOM } from '../../domain/reframe/punch-in.js';

const Seconds = Type.Number({ minimum: 0, description: 'Source seconds.' });

export const SegmentSchema = Type.Object({ start: Seconds, end: Seconds }, { additionalProperties: false });

export const EditWordSchema = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'The word’s number in its clip’s word list: the same in every version of the clip.' }),
  text: Type.String({ description: 'As the captions show it; `""` when hidden from the captions (its sound is kept).' }),
  start: Seconds,
  end: Seconds,
  speaker: Type.Union([Type.String(), Type.Null()], { description: 'Null when the words carry no speaker labels.' }),
});

export const EditSchema = Type.Object(
  {
    id: Type.String(),
    parent_edit_id: Type.Union([Type.String(), Type.Null()], { description: 'The edit it was derived from (POST /edits); null for an edit the service made.' }),
    video_id: Type.Union([Type.String(), Type.Null()], { description: 'The video of its clip; null for an edit of no clip.' }),
    clip_id: Type.Union([Type.String(), Type.Null()], { description: 'Null when the edit belongs to no clip.' }),
    created_at: IsoDate,
    duration: Type.Number({ description: 'Output seconds: the sum of the segments.' }),
    aspect_ratio: Type.String({ description: '`9:16`, `1:1` or `16:9`.' }),
    reframe: Type.String({ description: `As asked: ${REFRAME_DESCRIPTION}` }),
    zoom: Type.Number({ description: `Punch-in on the framed picture: ${ZOOM_MIN} (none) to ${ZOOM_MAX}.` }),
    punch_in: Type.Union([Type.Literal('none'), Type.Literal('subtle')], {
      description: '`subtle` when the edit asked for eased punch-ins on emphasised words.',
    }),
    shots: Type.Array(
      Type.Object({ start: Seconds, end: Seconds, reframe: Type.String({ description: '`speaker`, `split`, `screen`, `center` or `fit`.' }) }),
      {
        description:
          'The layout chosen per shot, source seconds, in order from the edit’s start to its end: the shots of `auto` (split at scene cuts); ' +
          'one shot otherwise, with the layout rendered (`speaker` for a `split` that did not see two faces).',
      },
    ),
    template_id: Type.Union([Type.String(), Type.Null()]),
    segments: Type.Array(SegmentSchema, { description: 'The kept stretches of the source, ascending, not overlapping, in play order.' }),
    words: Type.Array(EditWordSchema, { description: 'Every recognised word inside the segments, in order.' }),
    captions_enabled: Type.Boolean(),
    title: Type.Union([Type.Object({ text: Type.String() }), Type.Null()]),
  },
  { $id: 'Edit' },
);

export const EditPath = Type.Object({ editId: Type.String({ minLength: 1, maxLength: 100 }) });

export const EditVersionsQuery = PageQuery;

export const EditVersionListSchema = Type.Object(
  { edits: Type.Array(EditSchema, { description: 'Newest first; the edit the service made is last.' }), pagination: PaginationSchema },
  { $id: 'EditVersionList' },
);

export const DeriveEditSchema = Type.Object(
  {
    base_edit_id: Type.String({ minLength: 1, maxLength: 100, description: 'The edit to start from; it never changes.' }),
    segments: Type.Optional(
      Type.Array(SegmentSchema, {
        minItems: 1,
        maxItems: 500,
        description:
          'Replaces the kept stretches (source seconds, ascending, not overlapping). Each boundary moves to the nearest word edge unless `snap: false`.',
      }),
    ),
    trim: Type.Optional(
      Type.Object(
        { start: Seconds, end: Seconds },
        { additionalProperties: false, description: 'Keeps only this stretch of the base (snapped the same way).' },
      ),
    ),
    snap: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Move each boundary into the gap beside the nearest word edge (never more than 0.25 s from it); a word is never cut in half.',
      }),
    ),
    remove_words: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { maxItems: 5000, description: 'Indices of words whose time is cut out.' })),
    word_text: Type.Optional(
      Type.Array(Type.Object({ index: Type.Integer({ minimum: 0 }), text: Type.String({ maxLength: 200 }) }, { additionalProperties: false }), {
        maxItems: 5000,
        description: 'Caption corrections; `""` hides a word from the captions without cutting its sound.',
      }),
    ),
    remove_fillers: Type.Optional(Type.Boolean({ description: '`true` cuts "um", "uh", "er", "ah", "hmm" and the recogniser’s filler tokens.' })),
    remove_silences: Type.Optional(
      Type.Union(
        [
          Type.Boolean(),
          Type.Object(
            {
              min_seconds: Type.Optional(
                Type.Number({
                  minimum: MIN_SILENCE_SECONDS,
                  maximum: MAX_SILENCE_SECONDS,
                  default: DEFAULT_MIN_SILENCE_SECONDS,
                  description: 'Pauses longer than this are shortened.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ],
        {
          description:
            `\`true\` (pauses over ${DEFAULT_MIN_SILENCE_SECONDS} s) or \`{ min_seconds }\`: pauses the voice detector finds in the kept stretches are cut ` +
            `down to a ${NATURAL_GAP_SECONDS} s gap (${SILENCE_KEEP_SECONDS} s kept next to the speech on each side; ${SILENCE_KEEP_SECONDS} s before the first ` +
            'and after the last speech). Words are never cut; an edit without speech is left as it is.',
        },
      ),
    ),
    aspect_ratio: Type.Optional(Type.Union([Type.Literal('9:16'), Type.Literal('1:1'), Type.Literal('16:9')])),
    reframe: Type.Optional(ReframeSchema),
    zoom: Type.Optional(
      Type.Union([
        Type.Number({
          minimum: ZOOM_MIN,
          maximum: ZOOM_MAX,
          description: `Punch-in: the middle 1/zoom of the framed picture, around the crop’s centre (the tracked face’s for \`speaker\`), fills the frame. ${ZOOM_MIN} is none.`,
        }),
        Type.Literal('subtle', {
          description: `Short zooms to ${PUNCH_IN_ZOOM}x eased in on emphasised (louder) words, at most one every ${PUNCH_IN_GAP} s, never within ${PUNCH_IN_CLEAR} s of a layout change; kept by later versions until \`none\` or a number.`,
        }),
        Type.Literal('none', { description: 'No zoom and no punch-ins.' }),
      ]),
    ),
    template_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Its caption style, title style and layout replace the base’s.' })),
    captions_enabled: Type.Optional(Type.Boolean()),
    title: Type.Optional(Type.Union([Type.Object({ text: Type.String({ minLength: 1, maxLength: 300 }) }, { additionalProperties: false }), Type.Null()])),
  },
  {
    additionalProperties: false,
    examples: [
      { base_edit_id: 'edit_p4w8n1r6t2y9u3i7o5a0', trim: { start: 12.4, end: 41 }, word_text: [{ index: 17, text: 'Kubernetes' }], remove_fillers: true },
    ],
  },
);
