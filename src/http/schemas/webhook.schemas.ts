import { Type } from '@sinclair/typebox';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/events.js';
import { MAX_ENDPOINTS_PER_WORKSPACE, RESPONSE_EXCERPT_CHARS } from '../../domain/webhooks/webhooks.rules.js';

/** Webhook endpoints and deliveries as the API shows them (docs/webhooks.md). */

const EVENTS_DESCRIPTION = `Event types to send: ${WEBHOOK_EVENT_TYPES.map((e) => `\`${e}\``).join(', ')}; or \`${ALL_EVENTS}\` for every event (those added later too).`;

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Absolute http(s) URL without credentials. Refused (422 INVALID_WEBHOOK_URL) when its host resolves to a private, loopback or link-local address, unless the operator allows them.',
    }),
    events: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50, description: EVENTS_DESCRIPTION }),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/cutroom', events: ['render.completed', 'submission.completed', 'submission.failed'] }],
  },
);

const endpointFields = {
  id: Type.String({ description: 'The endpoint’s id (`whk_…`).' }),
  url: Type.String(),
  events: Type.Array(Type.String(), { description: EVENTS_DESCRIPTION }),
  created_at: IsoDate,
};

export const WebhookSchema = Type.Object(endpointFields, { $id: 'Webhook' });

export const WebhookCreatedSchema = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description: 'The signing secret (`whsec_` and base64), shown this once: keep it to verify deliveries (the SDK’s `verifyWebhook`). It is stored sealed.',
    }),
  },
  { $id: 'WebhookCreated' },
);

export const WebhookListSchema = Type.Object(
  { webhooks: Type.Array(WebhookSchema, { description: `Newest first; at most ${MAX_ENDPOINTS_PER_WORKSPACE} per workspace.` }), pagination: PaginationSchema },
  { $id: 'WebhookList' },
);

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'The delivery’s id (`whd_…`): one event for this endpoint.' }),
    event_id: Type.String({ description: 'The event’s id, sent as `webhook-id` (the same for every attempt and endpoint): deduplicate on it.' }),
    event_type: Type.String(),
    status: Type.Union(
      ['pending', 'sending', 'delivered', 'failed'].map((s) => Type.Literal(s)),
      {
        description:
          '`pending` (the next attempt is due at `next_attempt_at`), `sending` (an attempt is running), `delivered` (answered 2xx), `failed` (the retry schedule ran out).',
      },
    ),
    attempts: Type.Integer({ description: 'Attempts made so far.' }),
    last_status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last answer; null when none came.' }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last attempt failed: `http_status` (answered, not 2xx), `timeout`, `address_not_allowed`, `connection_failed`; null after a 2xx.',
    }),
    last_response_excerpt: Type.Union([Type.String(), Type.Null()], {
      description: `The first ${RESPONSE_EXCERPT_CHARS} characters of the last answer’s body at most.`,
    }),
    last_attempt_at: NullableIsoDate,
    next_attempt_at: Type.Union([IsoDate, Type.Null()], { description: 'When the next attempt is due; null once delivered or failed.' }),
    delivered_at: NullableIsoDate,
    created_at: IsoDate,
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookDeliveryListSchema = Type.Object(
  { deliveries: Type.Array(WebhookDeliverySchema, { description: 'Newest first.' }), pagination: PaginationSchema },
  { $id: 'WebhookDeliveryList' },
);

export const WebhookPath = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
