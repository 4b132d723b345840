import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES as SERVICE_EVENTS } from '../../src/domain/webhooks/events.js';
import { WEBHOOK_EVENT_TYPES as SDK_EVENTS } from '../../sdk/src/webhook-events.js';

describe('the SDK’s WebhookEvent union and the events the service publishes', () => {
  it('has a member for every event type the service can publish, and none it cannot', () => {
    // SDK_EVENTS has one key per member of the union (the compiler checks it), so this compares the union itself.
    expect([...SDK_EVENTS].sort()).toEqual([...SERVICE_EVENTS].sort());
  });
});
