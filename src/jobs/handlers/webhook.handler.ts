import type { WebhookDeliveryProcessor } from '../../domain/webhooks/webhook-delivery.processor.js';
import type { JobHandler } from '../../ports/queue.js';

/** webhook.deliver: one attempt of one delivery (the next one is a new job sent by the attempt). */
export function webhookDeliverHandler(processor: Pick<WebhookDeliveryProcessor, 'deliver'>): JobHandler<'webhook.deliver'> {
  return async (payload) => {
    if (typeof payload?.deliveryId !== 'string') return;
    await processor.deliver(payload.deliveryId);
  };
}

/** webhook.dispatch (cron, every minute): sends the jobs of deliveries whose job went missing. */
export function webhookDispatchHandler(processor: Pick<WebhookDeliveryProcessor, 'sweep'>): JobHandler<'webhook.dispatch'> {
  return async () => {
    await processor.sweep();
  };
}
