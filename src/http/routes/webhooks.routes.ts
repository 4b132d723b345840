import { deliveryView, endpointView, type WebhooksService } from '../../domain/webhooks/webhooks.service.js';
import { listResponse, pageRequest } from '../../domain/pagination.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { NoContent, answer, errorResponses } from '../schemas/common.js';
import { CreateWebhookBody, WebhookCreatedSchema, WebhookDeliveryListSchema, WebhookListSchema, WebhookPath } from '../schemas/webhook.schemas.js';

export interface WebhookRoutesDeps {
  webhooks: WebhooksService;
}

/** POST/GET /webhooks, DELETE /webhooks/{id}, GET /webhooks/{id}/deliveries (docs/webhooks.md). */
export function webhookRoutes(app: Api, deps: WebhookRoutesDeps) {
  const tags = ['Webhooks'];

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Add a webhook endpoint',
        description:
          'Events of this workspace are POSTed to `url`, signed by the Standard Webhooks convention (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`) ' +
          'with the `secret` answered here once. Retried with exponential backoff for about 24 hours until the endpoint answers 2xx. ' +
          '400 VALIDATION_ERROR (an unknown event type: `extra.errors[].field` `events.<i>`), 422 INVALID_WEBHOOK_URL (`extra.reason`: `url`, `address_not_allowed`, `unresolvable`), ' +
          '409 WEBHOOK_LIMIT_REACHED (`extra.max_webhooks`).',
        body: CreateWebhookBody,
        response: {
          201: answer(WebhookCreatedSchema, 'The endpoint with its signing secret (shown this once).'),
          ...errorResponses('WEBHOOK_LIMIT_REACHED', 'INVALID_WEBHOOK_URL'),
        },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.webhooks.create(callerOf(req).workspace.id, req.body)),
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: 'List the webhook endpoints',
        description: 'Newest first, without their secrets.',
        querystring: PageQuery,
        response: { 200: answer(WebhookListSchema, 'One page of endpoints.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.webhooks.list(callerOf(req).workspace.id, page);
      return listResponse(
        'webhooks',
        rows.map((r) => endpointView(r)),
        total,
        page,
      );
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'Nothing more is sent to it (deliveries not yet made are dropped) and its deliveries are deleted. 204, no body.',
        params: WebhookPath,
        response: { 204: NoContent, ...errorResponses('WEBHOOK_NOT_FOUND') },
      },
    },
    async (req, reply) => {
      await deps.webhooks.delete(callerOf(req).workspace.id, req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'List an endpoint’s deliveries',
        description:
          'Newest first: each event sent (or to send) to the endpoint, its status, attempts, last answer’s status code and an excerpt of its body, and the next attempt.',
        params: WebhookPath,
        querystring: PageQuery,
        response: { 200: answer(WebhookDeliveryListSchema, 'One page of deliveries.'), ...errorResponses('WEBHOOK_NOT_FOUND') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await deps.webhooks.deliveries(callerOf(req).workspace.id, req.params.id, page);
      return listResponse('deliveries', rows.map(deliveryView), total, page);
    },
  );
}
