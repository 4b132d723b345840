import { Type } from '@sinclair/typebox';
import { STEERING_LIMITS } from '../../domain/highlights/steering.js';

/** What to look for. */
export const PromptSchema = Type.String({
  minLength: 1,
  maxLength: STEERING_LIMITS.promptMaxChars,
  description:
    'Cutroom’s addition: what to look for, in the video’s language (“the moments about pricing”). Clips that match it (its words, their stems or ' +
    'synonyms) are rated above every clip that does not; a clip that matches nothing only makes up a minimum of three.',
});

/** Words or phrases a clip must say. */
export const KeywordsSchema = Type.Array(Type.String({ minLength: 1, maxLength: STEERING_LIMITS.keywordMaxChars }), {
  maxItems: STEERING_LIMITS.maxKeywords,
  description:
    'Cutroom’s addition: words or phrases a clip must say (up to 20). Every returned clip says one of them, except clips that only make up a minimum of three.',
});

/** The clips' length range. */
export const ClipLengthSchema = Type.Object(
  {
    min: Type.Number({ minimum: STEERING_LIMITS.minClipSeconds, maximum: STEERING_LIMITS.maxClipSeconds }),
    max: Type.Number({ minimum: STEERING_LIMITS.minClipSeconds, maximum: STEERING_LIMITS.maxClipSeconds }),
  },
  {
    additionalProperties: false,
    description: 'Cutroom’s addition: every clip’s length in seconds, 10–180, `min` ≤ `max`; replaces the strategy’s range (its clip count stays).',
  },
);

/** What steers the picks (docs/highlights.md): the same three optional fields on POST /clips and monitors. */
export const SteeringFields = {
  prompt: Type.Optional(PromptSchema),
  keywords: Type.Optional(KeywordsSchema),
  clip_length: Type.Optional(ClipLengthSchema),
};
