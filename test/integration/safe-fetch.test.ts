import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { safeFetch, type SafeFetchOptions } from '../../src/adapters/net/safe-fetch.js';

/**
 * Two loopback servers: `pub` stands in for a public host (trusted through `treatAsPublic`), `internal`
 * for a service on the private network that a caller's link must not reach.
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function server(routes: Record<string, Handler>) {
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
  const s = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const h = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (h) h(req, res);
    else res.writeHead(404).end('nope');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

let pub: Awaited<ReturnType<typeof server>>;
let internal: Awaited<ReturnType<typeof server>>;

const redirect =
  (to: () => string, status = 302): Handler =>
  (_req, res) =>
    res.writeHead(status, { location: to() }).end();

beforeAll(async () => {
  internal = await server({
    '/secret': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret'),
  });
  pub = await server({
    '/ok': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
    '/to-internal': redirect(() => `${internal.url}/secret`),
    '/to-internal-name': redirect(() => `http://intranet.test:${internal.port}/secret`),
    '/to-localhost-v6': redirect(() => `http://[::1]:${internal.port}/secret`),
    '/to-metadata': redirect(() => 'http://169.254.169.254/latest/meta-data/'),
    '/to-metadata-v4-compatible': redirect(() => 'http://[::a9fe:a9fe]/latest/meta-data/'),
    '/to-metadata-v4-compatible-dotted': redirect(() => 'http://[::169.254.169.254]/latest/meta-data/'),
    '/to-loopback-v4-compatible': redirect(() => `http://[::127.0.0.1]:${internal.port}/secret`),
    // Audit 2, finding 5: the wireserver, EKS pod identity, IMDS IPv6 and AWS DNS, in the spellings a URL takes.
    '/to-wireserver': redirect(() => 'http://168.63.129.16/machine?comp=goalstate'),
    '/to-wireserver-decimal': redirect(() => 'http://2822734096/machine?comp=goalstate'),
    '/to-wireserver-hex': redirect(() => 'http://0xa83f8110/machine?comp=goalstate'),
    '/to-wireserver-octal': redirect(() => 'http://0250.077.0201.020/machine?comp=goalstate'),
    '/to-wireserver-mapped': redirect(() => 'http://[::ffff:168.63.129.16]/machine?comp=goalstate'),
    '/to-wireserver-nat64': redirect(() => 'http://[64:ff9b::a83f:8110]/machine?comp=goalstate'),
    '/to-wireserver-6to4': redirect(() => 'http://[2002:a83f:8110::1]/machine?comp=goalstate'),
    '/to-wireserver-name': redirect(() => 'http://wireserver.test/machine?comp=goalstate'),
    '/to-eks-pod-identity': redirect(() => 'http://169.254.170.23/v1/credentials'),
    '/to-imds-v6': redirect(() => 'http://[fd00:ec2::23]/v1/credentials'),
    '/to-aws-dns': redirect(() => 'http://169.254.169.253/'),
    '/to-file': redirect(() => 'file:///etc/passwd'),
    '/to-creds': redirect(() => `http://user:pw@127.0.0.1:${pub.port}/ok`),
    '/relative': redirect(() => '/ok', 301),
    '/see-other': redirect(() => `${pub.url}/ok`, 303),
    '/loop': redirect(() => `${pub.url}/loop`),
    '/to-other-origin': redirect(() => `http://localhost.test:${pub.port}/headers`),
    '/headers': (req, res) => res.writeHead(200).end(JSON.stringify(req.headers)),
    '/big': (_req, res) => res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000)),
    '/big-chunked': (_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(3000));
      res.end(Buffer.alloc(3000));
    },
    '/hang': () => {
      // never answers
    },
    '/missing': (_req, res) => res.writeHead(404).end(),
  });
});

afterAll(async () => {
  await pub.close();
  await internal.close();
});

/** `pub`'s port counts as a public host; everything else keeps the real rules. */
function opts(extra: SafeFetchOptions = {}): SafeFetchOptions {
  return {
    timeoutMs: 3000,
    treatAsPublic: (address, url) => address === '127.0.0.1' && Number(url.port) === pub.port,
    resolve: async (host) => {
      if (host === 'intranet.test' || host === 'localhost.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'wireserver.test') return [{ address: '168.63.129.16', family: 4 }];
      throw new Error(`unexpected lookup of ${host}`);
    },
    ...extra,
  };
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; reason: string }> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    const e = err as DomainError;
    return { code: e.code, reason: String((e.cause as Error | undefined)?.message ?? '') };
  }
  throw new Error('expected a refusal');
}

describe('safeFetch address rules', () => {
  it('refuses a loopback link unless private sources are allowed', async () => {
    const r = await refusal(safeFetch(`${internal.url}/secret`, { timeoutMs: 3000 }));
    expect(r).toEqual({ code: 'INVALID_URL', reason: expect.stringContaining('loopback') });
    expect(internal.seen).toHaveLength(0);

    const res = await safeFetch(`${internal.url}/secret`, { timeoutMs: 3000, allowPrivate: true });
    expect([res.status, await res.text(), res.address]).toEqual([200, 'internal secret', '127.0.0.1']);
  });

  it('refuses a redirect to 127.0.0.1 when allowPrivate is off, follows it when on', async () => {
    const before = internal.seen.length;
    const r = await refusal(safeFetch(`${pub.url}/to-internal`, opts()));
    expect(r.code).toBe('INVALID_URL');
    expect(r.reason).toMatch(/127\.0\.0\.1.*loopback/);
    expect(internal.seen.length).toBe(before);

    const res = await safeFetch(`${pub.url}/to-internal`, opts({ allowPrivate: true }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('internal secret');
    expect(res.url).toBe(`${internal.url}/secret`);
    expect(res.redirects).toEqual([`${pub.url}/to-internal`]);
  });

  it('re-checks names and IPv6 literals on every hop', async () => {
    expect((await refusal(safeFetch(`${pub.url}/to-internal-name`, opts()))).reason).toMatch(/intranet\.test is loopback/);
    expect((await refusal(safeFetch(`${pub.url}/to-localhost-v6`, opts()))).reason).toMatch(/::1/);
  });

  it('refuses cloud metadata even when private sources are allowed', async () => {
    expect((await refusal(safeFetch(`${pub.url}/to-metadata`, opts({ allowPrivate: true })))).reason).toMatch(/cloud-metadata/);
  });

  it('refuses the Azure wireserver, EKS pod identity, IMDS over IPv6 and AWS DNS in every spelling, even with private sources allowed', async () => {
    const expected: Record<string, RegExp> = {
      '/to-wireserver': /168\.63\.129\.16 is cloud-metadata/,
      '/to-wireserver-decimal': /168\.63\.129\.16 is cloud-metadata/,
      '/to-wireserver-hex': /168\.63\.129\.16 is cloud-metadata/,
      '/to-wireserver-octal': /168\.63\.129\.16 is cloud-metadata/,
      '/to-wireserver-mapped': /::ffff:a83f:8110 is cloud-metadata/,
      '/to-wireserver-nat64': /64:ff9b::a83f:8110 is cloud-metadata/,
      '/to-wireserver-6to4': /2002:a83f:8110::1 is cloud-metadata/,
      '/to-wireserver-name': /168\.63\.129\.16 of wireserver\.test is cloud-metadata/,
      '/to-eks-pod-identity': /169\.254\.170\.23 is cloud-metadata/,
      '/to-imds-v6': /fd00:ec2::23 is cloud-metadata/,
      '/to-aws-dns': /169\.254\.169\.253 is cloud-metadata/,
    };
    for (const [path, reason] of Object.entries(expected)) {
      for (const allowPrivate of [false, true]) {
        const r = await refusal(safeFetch(`${pub.url}${path}`, opts({ allowPrivate, timeoutMs: 1000 })));
        expect(r, `${path} allowPrivate=${allowPrivate}`).toEqual({ code: 'INVALID_URL', reason: expect.stringMatching(reason) });
      }
    }
    // Asked directly too (a caller's link, a webhook endpoint), not only after a redirect.
    const direct = await refusal(safeFetch('http://168.63.129.16/machine?comp=goalstate', { timeoutMs: 1000, allowPrivate: true }));
    expect(direct).toEqual({ code: 'INVALID_URL', reason: expect.stringMatching(/168\.63\.129\.16 is cloud-metadata/) });
  });

  it('refuses IPv4-compatible IPv6 literals (::a.b.c.d) like the IPv4 address they embed', async () => {
    // Metadata addresses stay refused even with private sources allowed, in either spelling.
    for (const path of ['/to-metadata-v4-compatible', '/to-metadata-v4-compatible-dotted']) {
      const r = await refusal(safeFetch(`${pub.url}${path}`, opts({ allowPrivate: true })));
      expect(r, path).toEqual({ code: 'INVALID_URL', reason: expect.stringMatching(/::a9fe:a9fe.*cloud-metadata/) });
    }
    const before = internal.seen.length;
    const loop = await refusal(safeFetch(`${pub.url}/to-loopback-v4-compatible`, opts()));
    expect(loop.reason).toMatch(/::7f00:1.*loopback/);
    expect((await refusal(safeFetch(`http://[::7f00:1]:${internal.port}/secret`, { timeoutMs: 3000 }))).reason).toMatch(/loopback/);
    expect((await refusal(safeFetch('http://[::808:808]/', { timeoutMs: 3000 }))).reason).toMatch(/reserved/);
    expect(internal.seen.length).toBe(before);
  });

  it('refuses a name with one public and one private address', async () => {
    const r = await refusal(
      safeFetch('http://mixed.test/x.mp4', {
        resolve: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ],
      }),
    );
    expect(r.reason).toMatch(/10\.0\.0\.7.*private/);
  });

  it('pins the connection to the checked address (DNS rebinding)', async () => {
    let lookups = 0;
    // First answer passes the check; a rebinding DNS then answers with an address that would not.
    const resolve = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.255.255.1', family: 4 }]);
    const res = await safeFetch(`http://rebind.test:${internal.port}/secret`, { allowPrivate: true, resolve, timeoutMs: 3000 });
    expect(await res.text()).toBe('internal secret');
    expect(lookups).toBe(1);
    expect(res.address).toBe('127.0.0.1');
  });

  it('refuses non-http schemes, credentials and malformed links', async () => {
    expect((await refusal(safeFetch(`${pub.url}/to-file`, opts()))).reason).toMatch(/scheme file:/);
    expect((await refusal(safeFetch(`${pub.url}/to-creds`, opts()))).reason).toMatch(/credentials/);
    expect((await refusal(safeFetch('gopher://example.com/', opts()))).code).toBe('INVALID_URL');
    expect((await refusal(safeFetch('not a url', opts()))).code).toBe('INVALID_URL');
  });
});

describe('safeFetch redirects, limits and timeouts', () => {
  it('follows relative and 303 redirects', async () => {
    const a = await safeFetch(`${pub.url}/relative`, opts());
    expect([a.status, a.url, await a.text()]).toEqual([200, `${pub.url}/ok`, 'hello']);
    const b = await safeFetch(`${pub.url}/see-other`, opts({ method: 'HEAD' }));
    expect(b.status).toBe(200);
    b.discard();
  });

  it('stops after maxRedirects', async () => {
    expect((await refusal(safeFetch(`${pub.url}/loop`, opts({ maxRedirects: 3 })))).reason).toMatch(/more than 3 redirects/);
  });

  it('drops credentials headers on a cross-origin redirect', async () => {
    const res = await safeFetch(`${pub.url}/to-other-origin`, opts({ headers: { Authorization: 'Bearer x', 'X-Keep': 'yes' } }));
    const headers = JSON.parse(await res.text());
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-keep']).toBe('yes');
    expect(headers.host).toBe(`localhost.test:${pub.port}`);
  });

  it('returns error statuses to the caller', async () => {
    const res = await safeFetch(`${pub.url}/missing`, opts());
    expect(res.status).toBe(404);
    res.discard();
  });

  it('enforces maxBytes on the declared length and on the body', async () => {
    const declared = safeFetch(`${pub.url}/big`, opts({ maxBytes: 1000 }));
    await expect(declared).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', extra: { max_size: 1000 } });
    const chunked = await safeFetch(`${pub.url}/big-chunked`, opts({ maxBytes: 4000 }));
    await expect(chunked.text()).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', extra: { max_size: 4000 } });
    const fits = await safeFetch(`${pub.url}/big-chunked`, opts({ maxBytes: 6000 }));
    expect((await fits.bytes()).length).toBe(6000);
  });

  it('gives up on a silent server after timeoutMs', async () => {
    const started = Date.now();
    const r = await refusal(safeFetch(`${pub.url}/hang`, opts({ timeoutMs: 300 })));
    expect(r.reason).toMatch(/no response/);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('can be aborted', async () => {
    const ac = new AbortController();
    const p = safeFetch(`${pub.url}/hang`, opts({ signal: ac.signal }));
    setTimeout(() => ac.abort(new Error('caller gave up')), 50);
    await expect(p).rejects.toThrow('caller gave up');
  });
});
