import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CutroomConfigError, CutroomError, verifyWebhook } from '../../sdk/src/index.js';

/**
 * Vectors computed outside this code base:
 * - the Standard Webhooks specification's example (secret, id, timestamp, body and signature as published);
 * - one computed with Python's hmac module (and the same with `openssl dgst -sha256 -mac HMAC`):
 *   base64(hmac.new(b64decode('c2VjcmV0LWZvci1jdXRyb29tLXRlc3RzLTMyYnl0ZXM='),
 *     b'evt_2Zx.1767225600.{"type":"render.completed","data":{"id":"rnd_1"}}', sha256).digest())
 */
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  headers: {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
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
    expect(reasonOf(() => verifyWebhook({ ...headers, 'webhook-signature': OURS.signature.replace('v1,', 'v2,') }, OURS.body, OURS.secret, now))).toEqual(
      refused,
    );
  });

  it('refuses a delivery outside the tolerance (replays) and missing headers', () => {
    const headers = { 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp, 'webhook-signature': OURS.signature };
    const late = new Date(1767225600 * 1000 + 301_000);
    expect(reasonOf(() => verifyWebhook(headers, OURS.body, OURS.secret, { now: late }))).toMatchObject({ reason: 'timestamp' });
    expect(verifyWebhook(headers, OURS.body, OURS.secret, { now: late, toleranceSeconds: 600 })).toBeTruthy();
    expect(
      reasonOf(() => verifyWebhook({ 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp }, OURS.body, OURS.secret, { now: OURS.now })),
    ).toMatchObject({
      reason: 'headers',
    });
  });
});

describe('verifyWebhook fails closed on a bad configuration (security audit 2, finding 3)', () => {
  // A delivery signed with an empty key: what an unset secret (`process.env.X ?? ''`) used to verify.
  const emptyKeySignature = `v1,${createHmac('sha256', Buffer.alloc(0)).update(`${OURS.id}.${OURS.timestamp}.${OURS.body}`).digest('base64')}`;
  const forged = { 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp, 'webhook-signature': emptyKeySignature };
  const signed = { 'webhook-id': OURS.id, 'webhook-timestamp': OURS.timestamp, 'webhook-signature': OURS.signature };

  const configError = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(CutroomConfigError);
      expect(err).not.toBeInstanceOf(CutroomError);
      return { name: (err as CutroomConfigError).name, code: (err as CutroomConfigError).code, option: (err as CutroomConfigError).option };
    }
    throw new Error('accepted');
  };

  it('throws CutroomConfigError for an empty, whsec_-only, non-base64 or short secret, whatever the delivery', () => {
    const sixteenBytes = `whsec_${Buffer.alloc(16, 7).toString('base64')}`;
    const fifteenBytes = `whsec_${Buffer.alloc(15, 7).toString('base64')}`;
    const refused = { name: 'CutroomConfigError', code: 'CONFIG_INVALID', option: 'secret' };
    for (const secret of [
      '',
      'whsec_',
      'whsec_!!!!',
      '!!!!!!!!!!!!!!!!!!!!!!!!',
      'whsec_ not base64 at all, a passphrase',
      fifteenBytes,
      'whsec_c2VjcmV0LWZvci1jdXRyb29tLXRlc3RzLTMyYnl0ZXM=\n',
    ]) {
      expect(
        configError(() => verifyWebhook(forged, OURS.body, secret, { now: OURS.now })),
        JSON.stringify(secret),
      ).toEqual(refused);
      // Checked before the headers: a misconfigured receiver fails on every request, not only on signed ones.
      expect(
        configError(() => verifyWebhook({}, OURS.body, secret, { now: OURS.now })),
        JSON.stringify(secret),
      ).toEqual(refused);
    }
    // A key of exactly 16 bytes is accepted as a key (and this signature is not its own).
    expect(reasonOf(() => verifyWebhook(forged, OURS.body, sixteenBytes, { now: OURS.now }))).toMatchObject({ reason: 'signature' });
  });

  it('throws CutroomConfigError for a tolerance that is not a finite non-negative number, or an invalid now', () => {
    const yearLater = new Date(1767225600 * 1000 + 365 * 86_400_000);
    for (const toleranceSeconds of [Number.NaN, Number.POSITIVE_INFINITY, -1, '300' as unknown as number]) {
      expect(
        configError(() => verifyWebhook(signed, OURS.body, OURS.secret, { now: yearLater, toleranceSeconds })),
        String(toleranceSeconds),
      ).toEqual({
        name: 'CutroomConfigError',
        code: 'CONFIG_INVALID',
        option: 'toleranceSeconds',
      });
    }
    expect(configError(() => verifyWebhook(signed, OURS.body, OURS.secret, { now: new Date(Number.NaN) }))).toMatchObject({ option: 'now' });
    // 0 is a valid (strict) tolerance.
    expect(verifyWebhook(signed, OURS.body, OURS.secret, { now: new Date(1767225600 * 1000), toleranceSeconds: 0 })).toMatchObject({
      type: 'render.completed',
    });
  });

  it('still accepts the real secrets: the spec’s (24 bytes), ours (32 bytes), a bare base64 key, a URL-safe one', () => {
    expect(verifyWebhook(SPEC.headers, SPEC.body, SPEC.secret, { now: SPEC.now })).toEqual({ test: 2432232314 });
    expect(verifyWebhook(signed, OURS.body, OURS.secret, { now: OURS.now })).toMatchObject({ type: 'render.completed' });
    expect(verifyWebhook(signed, OURS.body, OURS.secret.slice('whsec_'.length), { now: OURS.now })).toMatchObject({ type: 'render.completed' });
    const key = Buffer.from([0xfb, 0xff, 0xbf, ...Array.from({ length: 29 }, (_, i) => i)]);
    const h = { 'webhook-id': 'evt_u', 'webhook-timestamp': OURS.timestamp };
    const sig = `v1,${createHmac('sha256', key).update(`evt_u.${OURS.timestamp}.{}`).digest('base64')}`;
    expect(verifyWebhook({ ...h, 'webhook-signature': sig }, '{}', `whsec_${key.toString('base64url')}`, { now: OURS.now })).toEqual({});
  });
});
