import { describe, expect, it } from 'vitest';
import { eventBody, newWebhookSecret, nextAttemptAt, signWebhook, webhookHeaders } from '../../src/domain/webhooks/webhooks.rules.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, loadWebhooksConfig } from '../../src/config/webhooks.env.js';
import { ConfigError } from '../../src/config/parse.js';
import { verifyWebhook } from '../../sdk/src/webhooks.js';

describe('Standard Webhooks signing', () => {
  it('signs what the SDK’s verifyWebhook accepts, and nothing changed verifies', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const now = new Date('2026-11-25T06:00:00Z');
    const body = eventBody({ id: 'evt_1', type: 'render.completed', workspaceId: 'ws_1', data: { id: 'rnd_1', status: 'completed' }, at: now });
    const headers = webhookHeaders(secret, 'evt_1', body, now);
    expect(headers).toMatchObject({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(now.getTime() / 1000), 'content-type': 'application/json' });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyWebhook(headers, body, secret, { now })).toEqual({
      id: 'evt_1',
      type: 'render.completed',
      timestamp: '2026-11-25T06:00:00.000Z',
      workspace_id: 'ws_1',
      data: { id: 'rnd_1', status: 'completed' },
    });
    const invalid = (h: Record<string, string>, b: string, s = secret) => {
      try {
        verifyWebhook(h, b, s, { now });
        return 'verified';
      } catch (err) {
        return (err as { extra?: { reason?: string } }).extra?.reason;
      }
    };
    expect(invalid(headers, body.replace('rnd_1', 'rnd_2'))).toBe('signature');
    expect(invalid({ ...headers, 'webhook-id': 'evt_2' }, body)).toBe('signature');
    expect(invalid(headers, body, newWebhookSecret())).toBe('signature');
    expect(invalid({ ...headers, 'webhook-timestamp': String(now.getTime() / 1000 - 3600) }, body)).toBe('timestamp');
  });

  it('matches the convention’s reference computation: HMAC-SHA256 of id.timestamp.body keyed with the secret’s base64 bytes', () => {
    // The example of the Standard Webhooks specification.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('the retry schedule', () => {
  it('backs off exponentially over about 24 hours, then stops', () => {
    const total = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(23 * 3600);
    expect(total).toBeLessThanOrEqual(24 * 3600);
    for (let i = 1; i < DEFAULT_RETRY_SCHEDULE_SECONDS.length; i++)
      expect(DEFAULT_RETRY_SCHEDULE_SECONDS[i]).toBeGreaterThanOrEqual(DEFAULT_RETRY_SCHEDULE_SECONDS[i - 1]);
    const now = new Date(0);
    expect(nextAttemptAt(1, now, DEFAULT_RETRY_SCHEDULE_SECONDS)).toEqual(new Date(5000));
    expect(nextAttemptAt(10, now, DEFAULT_RETRY_SCHEDULE_SECONDS)).toEqual(new Date(28_800_000));
    expect(nextAttemptAt(11, now, DEFAULT_RETRY_SCHEDULE_SECONDS)).toBeNull();
  });

  it('is read from CUTROOM_WEBHOOK_RETRY_SCHEDULE; bad values are refused', () => {
    expect(loadWebhooksConfig({})).toEqual({ allowPrivate: false, timeoutMs: 10_000, retrySchedule: [...DEFAULT_RETRY_SCHEDULE_SECONDS] });
    expect(
      loadWebhooksConfig({ CUTROOM_WEBHOOK_RETRY_SCHEDULE: '1, 2,0.5', CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'yes', CUTROOM_WEBHOOK_TIMEOUT_MS: '500' }),
    ).toEqual({
      allowPrivate: true,
      timeoutMs: 500,
      retrySchedule: [1, 2, 0.5],
    });
    for (const bad of ['1,x', '-1', '700000']) expect(() => loadWebhooksConfig({ CUTROOM_WEBHOOK_RETRY_SCHEDULE: bad }), bad).toThrow(ConfigError);
    expect(() => loadWebhooksConfig({ CUTROOM_WEBHOOK_TIMEOUT_MS: '10' })).toThrow(ConfigError);
  });
});
