import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafeWebhookSender } from '../../src/adapters/net/webhook-sender.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * The webhook sender against local receivers: the safe fetcher's address rules at every attempt,
 * the timeout, no redirect followed, only an excerpt of the answer read.
 */

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver((n, req) => {
    if (req.path.endsWith('/hang')) return { hang: true };
    if (req.path.endsWith('/redirect')) return { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } };
    if (req.path.endsWith('/big')) return { status: 500, body: 'é'.repeat(3000) };
    return { status: 200, body: `ok ${n}` };
  });
});
afterAll(() => rx?.close());

const base = () => rx.url.replace(/\/hooks$/, '');
const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_1' };

describe('SafeWebhookSender', () => {
  it('refuses loopback, private and link-local addresses at send time unless allowed: nothing reaches the receiver', async () => {
    const strict = new SafeWebhookSender({ allowPrivate: false, timeoutMs: 2000 });
    const before = rx.received.length;
    expect(await strict.post(`${base()}/hooks`, headers, '{}')).toEqual({ kind: 'failed', error: 'address_not_allowed' });
    // A name that resolves to a private address is refused the same way (no DNS rebinding past the check).
    const rebinding = new SafeWebhookSender({ allowPrivate: false, timeoutMs: 2000, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(await rebinding.post(`http://hooks.example.com:${new URL(rx.url).port}/hooks`, headers, '{}')).toEqual({
      kind: 'failed',
      error: 'address_not_allowed',
    });
    expect(rx.received.length).toBe(before);

    const allowed = new SafeWebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    const answer = await allowed.post(`${base()}/hooks`, headers, '{"a":1}');
    expect(answer).toMatchObject({ kind: 'answered', status: 200, excerpt: expect.stringMatching(/^ok \d+$/) });
    const got = rx.received.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(got.headers).toMatchObject({ 'webhook-id': 'evt_1', 'content-length': '7', 'user-agent': 'Cutroom-Webhooks/1.0' });
  });

  it('checks URLs at creation: scheme, credentials, private addresses', async () => {
    const strict = new SafeWebhookSender({ allowPrivate: false, timeoutMs: 2000 });
    const reason = (url: string, s = strict) =>
      s.checkUrl(url).then(
        () => 'ok',
        (err) => err.extra?.reason,
      );
    expect(await reason('ftp://example.com/x')).toBe('url');
    expect(await reason('http://u:p@example.com/x')).toBe('url');
    expect(await reason('not a url')).toBe('url');
    for (const url of [rx.url, 'http://10.0.0.1/', 'http://[fe80::1]/', 'http://169.254.169.254/', 'http://0x7f000001/'])
      expect(await reason(url), url).toBe('address_not_allowed');
    const resolving = new SafeWebhookSender({ allowPrivate: false, timeoutMs: 2000, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    expect(await reason('https://hooks.example.com/x', resolving)).toBe('ok');
    const nowhere = new SafeWebhookSender({
      allowPrivate: false,
      timeoutMs: 2000,
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    expect(await reason('https://nowhere.example/x', nowhere)).toBe('unresolvable');
    expect(await reason(rx.url, new SafeWebhookSender({ allowPrivate: true, timeoutMs: 2000 }))).toBe('ok');
  });

  it('times out an endpoint that does not answer, does not follow redirects, keeps at most 1,024 characters', async () => {
    const sender = new SafeWebhookSender({ allowPrivate: true, timeoutMs: 300 });
    const started = Date.now();
    expect(await sender.post(`${base()}/hang`, headers, '{}')).toEqual({ kind: 'failed', error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await sender.post(`${base()}/redirect`, headers, '{}')).toEqual({ kind: 'answered', status: 302, excerpt: '' });
    const big = await sender.post(`${base()}/big`, headers, '{}');
    expect(big).toEqual({ kind: 'answered', status: 500, excerpt: 'é'.repeat(1024) });
    const closed = await sender.post('http://127.0.0.1:1/x', headers, '{}');
    expect(closed).toEqual({ kind: 'failed', error: 'connection_failed' });
  });
});
