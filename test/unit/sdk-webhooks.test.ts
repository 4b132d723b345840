import { describe, expect, it } from 'vitest';
import { CutroomError, verifyWebhook } from '../../sdk/src/index.js';

/**
 * Vectors computed outside this code base:
 * - the Standard Webhooks specification's example (secret, id, timestamp, body and signature as published);
 * - one computed with Python's hmac module (and the same with `openssl dgst -sha256 -mac HMAC`):
 *   base64(hmac.new(b64decode('c2VjcmV0LWZvci1jdXRyb29tLXRlc3RzLTMyYnl0ZXM='),
 *     b'evt_2Zx.1767225600.{"type":"render.completed","data":{"id":"rnd_1"}}', sha256).digest())
 */
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  headers: { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' },
  body: '{"test": 2432232314}',
  now: new Date(1614265330 * 1000),
};
const OURS = {
  secret: 'whsec_c2VjcmV0LWZvci1jdXRyb29tLXRlc3RzLTMyYnl0ZXM=',
  id: 'evt_2Zx',
  timestamp: '1767225600',
  body: '{"type":"render.completed","data":{"id":"rnd_1"}}',
  signature: 'v1,sPDFQrmWV3fmXqDW50IxpilFsDdWKUkDNeyVZcDFZSE=',
  now: new Date(1767225600 * 1000 + 60_000),
};

const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CutroomError);
    return { status: (err as CutroomError).status, code: (err as CutroomError).code, reason: (err as CutroomError).extra?.reason };
  }
  throw new Error('accepted');
};

describe('verifyWebhook (Standard Webhooks)', () => {
  it('accepts the specification’s example and answers the parsed body', () => {
    expect(verifyWebhook(SPEC.headers, SPEC.body, SPEC.secret, { now: SPEC.now })).toEqual({ test: 2432232314 });
  });

  it('accepts an independently computed vector, from Node headers, fetch Headers, or bytes, among several signatures', () => {
    const headers = { 'Webhook-Id': OURS.id, 'webhook-timestamp': [OURS.timestamp], 'webhook-signature': `v1,bm90LXRoZS1zaWduYXR1cmU= ${OURS.signature}` };
    expect(verifyWebhook(headers, OURS.body, OURS.secret, { now: OURS.now })).toEqual({ type: 'render.completed', data: { id: 'rnd_1' } });
    const fetchHeaders = new Headers({ 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp, 'webhook-signature': OURS.signature });
    expect(verifyWebhook(fetchHeaders, new TextEncoder().encode(OURS.body), OURS.secret, { now: OURS.now })).toMatchObject({ type: 'render.completed' });
  });

  it('refuses a changed body, id or timestamp, another secret, and an unknown version', () => {
    const headers = { 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp, 'webhook-signature': OURS.signature };
    const now = { now: OURS.now };
    const refused = { status: null, code: 'WEBHOOK_INVALID', reason: 'signature' };
    expect(reasonOf(() => verifyWebhook(headers, OURS.body.replace('rnd_1', 'rnd_2'), OURS.secret, now))).toEqual(refused);
    expect(reasonOf(() => verifyWebhook({ ...headers, 'webhook-id': 'evt_other' }, OURS.body, OURS.secret, now))).toEqual(refused);
    expect(reasonOf(() => verifyWebhook({ ...headers, 'webhook-timestamp': '1767225601' }, OURS.body, OURS.secret, now))).toEqual(refused);
    expect(reasonOf(() => verifyWebhook(headers, OURS.body, SPEC.secret, now))).toEqual(refused);
    expect(reasonOf(() => verifyWebhook({ ...headers, 'webhook-signature': OURS.signature.replace('v1,', 'v2,') }, OURS.body, OURS.secret, now))).toEqual(refused);
  });

  it('refuses a delivery outside the tolerance (replays) and missing headers', () => {
    const headers = { 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp, 'webhook-signature': OURS.signature };
    const late = new Date(1767225600 * 1000 + 301_000);
    expect(reasonOf(() => verifyWebhook(headers, OURS.body, OURS.secret, { now: late }))).toMatchObject({ reason: 'timestamp' });
    expect(verifyWebhook(headers, OURS.body, OURS.secret, { now: late, toleranceSeconds: 600 })).toBeTruthy();
    expect(reasonOf(() => verifyWebhook({ 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp }, OURS.body, OURS.secret, { now: OURS.now }))).toMatchObject({
      reason: 'headers',
    });
  });
});
