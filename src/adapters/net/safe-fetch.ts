import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { DomainError } from '../../domain/errors.js';
import { invalidUrl, type UrlRefusal } from '../../domain/videos/url-refusals.js';
import { classifyAddress, isAllowedAddress } from './ip-ranges.js';

/**
 * HTTP(S) GET/HEAD of a caller's link that cannot be turned against the service's own network
 * (rules: docs/sources.md):
 * - every hop's host is resolved (all addresses) and refused when any address is loopback, private,
 *   link-local, unique-local, CGNAT, multicast, broadcast, reserved or a cloud-metadata endpoint
 *   (unless `allowPrivate`; metadata endpoints are refused always);
 * - the connection is pinned to the checked address (custom `lookup`, fresh agent, no socket reuse),
 *   so a DNS answer that changes between check and connect (rebinding) cannot move it;
 * - redirects are followed by hand, each Location checked like the first URL;
 * - a deadline for each hop's response headers, an idle timeout on the body, and a size cap.
 *
 * A refused, unreachable or failing address throws DomainError('INVALID_URL') whose `cause` says why;
 * a body over `maxBytes` throws DomainError('FILE_TOO_LARGE', { max_size }).
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** DNS resolution used by safeFetch; tests pass a fake resolver to simulate rebinding or private answers. */
export type ResolveAll = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** Operator switch (CUTROOM_ALLOW_PRIVATE_SOURCES): allows private/loopback/link-local targets. Default false. */
  allowPrivate?: boolean;
  /** Maximum body size in bytes; a larger Content-Length or body fails with FILE_TOO_LARGE. Default: no cap for `body`, 16 MiB for text()/bytes(). */
  maxBytes?: number;
  /** Deadline for each hop's response headers, and idle timeout while reading the body. Default 15 s. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** false: answer a redirect itself (its Location unchecked) instead of following it. Default true. */
  followRedirects?: boolean;
  method?: 'GET' | 'HEAD' | 'POST';
  /** The request's body (POST; webhooks). A body is never sent again to a redirect's target: pass `followRedirects: false`. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  resolve?: ResolveAll;
  /**
   * Addresses to treat as public whatever their range, such as one loopback port in tests standing in
   * for "a public host". Cloud-metadata endpoints stay refused.
   */
  treatAsPublic?: (address: string, url: URL) => boolean;
}

export interface SafeResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The IP address the final connection was pinned to. */
  address: string;
  /** Every URL that answered with a redirect, in order. */
  redirects: string[];
  /** The body, capped at `maxBytes`. */
  body: Readable;
  text(): Promise<string>;
  bytes(): Promise<Buffer>;
  /** Drops the connection without reading the body. */
  discard(): void;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_BUFFER_CAP = 16 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Cutroom/1.0 (+https://github.com/cutroom)';

/**
 * A DomainError('INVALID_URL') with `extra.reason` (what the caller can change, url-refusals.ts) whose
 * cause explains the refusal in detail (logs and tests read it; never answered).
 */
export function refused(message: string, reason: UrlRefusal, detail: Record<string, unknown> = {}): DomainError {
  const err = invalidUrl(reason, detail);
  err.cause = new Error(message);
  return err;
}

export const systemResolve: ResolveAll = async (hostname) => {
  const all = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family }));
};

/** Host part of a URL without IPv6 brackets or a trailing dot. */
export function urlHost(url: URL): string {
  const h = url.hostname.replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/** Parses and checks an absolute http(s) URL without credentials. */
export function checkedUrl(raw: string | URL, base?: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw refused(`malformed URL ${String(raw)}`, 'malformed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`scheme ${url.protocol} not allowed`, 'scheme');
  if (url.username || url.password) throw refused('credentials in URL', 'credentials');
  if (!urlHost(url)) throw refused('empty host', 'malformed');
  return url;
}

/**
 * Resolves `url`'s host and returns the address to pin the connection to. Refuses when any resolved
 * address is not allowed, so a host that answers with one public and one private address is refused.
 */
export async function resolveAllowed(url: URL, opts: Pick<SafeFetchOptions, 'allowPrivate' | 'resolve' | 'treatAsPublic'> = {}): Promise<ResolvedAddress> {
  const host = urlHost(url);
  let addresses: ResolvedAddress[];
  if (classifyAddress(host) !== 'invalid') {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else if (/^[0-9.]+$/.test(host) || /^0x/i.test(host)) {
    throw refused(`non-canonical IP literal ${host}`, 'malformed');
  } else {
    try {
      addresses = await (opts.resolve ?? systemResolve)(host);
    } catch (err) {
      throw refused(`cannot resolve ${host}: ${(err as Error).message}`, 'unresolvable');
    }
  }
  if (addresses.length === 0) throw refused(`no address for ${host}`, 'unresolvable');
  for (const a of addresses) {
    const trusted = classifyAddress(a.address) !== 'cloud-metadata' && opts.treatAsPublic?.(a.address, url) === true;
    if (!trusted && !isAllowedAddress(a.address, opts.allowPrivate ?? false)) {
      const range = classifyAddress(a.address);
      throw refused(`address ${a.address} of ${host} is ${range}`, range === 'cloud-metadata' ? 'metadata_address' : 'private_address');
    }
  }
  return addresses[0];
}

/** A `lookup` that always answers the checked address, whatever the name resolves to now. */
export function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pin.address, family: pin.family }]);
    else callback(null, pin.address, pin.family);
  }) as unknown as LookupFunction;
}

interface Hop {
  res: http.IncomingMessage;
  abort: () => void;
}

function requestOnce(
  url: URL,
  pin: ResolvedAddress,
  method: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
  body?: string | Buffer,
): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const host = urlHost(url);
    const req = mod.request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: { host: url.host, 'user-agent': USER_AGENT, 'accept-encoding': 'identity', ...headers },
      lookup: pinnedLookup(pin),
      agent: false,
      // SNI and certificate checks use the name, never the pinned IP.
      servername: classifyAddress(host) === 'invalid' ? host : undefined,
    });
    let settled = false;
    const timer = setTimeout(() => fail(refused(`no response from ${url.host} within ${timeoutMs} ms`, 'unreachable')), timeoutMs);
    const onAbort = () => fail(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    function cleanup() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    function fail(err: unknown) {
      if (settled) return;
      settled = true;
      cleanup();
      req.destroy();
      reject(err);
    }
    req.on('error', (err) => fail(err instanceof DomainError ? err : refused(`request to ${url.host} failed: ${err.message}`, 'unreachable')));
    req.on('response', (res) => {
      if (settled) {
        res.destroy();
        return;
      }
      settled = true;
      cleanup();
      res.socket?.setTimeout(timeoutMs, () => res.destroy(refused(`body of ${url.host} idle for ${timeoutMs} ms`, 'unreachable')));
      const abortBody = () => res.destroy(signal?.reason ?? new Error('aborted'));
      signal?.addEventListener('abort', abortBody, { once: true });
      res.once('close', () => signal?.removeEventListener('abort', abortBody));
      resolve({ res, abort: () => res.destroy() });
    });
    if (signal?.aborted) onAbort();
    else req.end(body);
  });
}

function capped(res: http.IncomingMessage, maxBytes: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > maxBytes) {
        res.destroy();
        cb(new DomainError('FILE_TOO_LARGE', { max_size: maxBytes }));
        return;
      }
      cb(null, chunk);
    },
  });
  res.on('error', (err) => counter.destroy(err));
  counter.on('close', () => {
    if (!res.complete) res.destroy();
  });
  return res.pipe(counter);
}

async function collect(body: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > cap) {
      body.destroy();
      throw new DomainError('FILE_TOO_LARGE', { max_size: cap });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const CROSS_ORIGIN_DROP = ['authorization', 'cookie', 'proxy-authorization'];

export async function safeFetch(rawUrl: string, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const method = opts.method ?? 'GET';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let headers: Record<string, string> = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  let url = checkedUrl(rawUrl);
  const redirects: string[] = [];

  for (;;) {
    const pin = await resolveAllowed(url, opts);
    const { res } = await requestOnce(url, pin, method, headers, timeoutMs, opts.signal, opts.body);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location && opts.followRedirects !== false) {
      res.destroy();
      if (redirects.length >= maxRedirects) throw refused(`more than ${maxRedirects} redirects`, 'too_many_redirects');
      redirects.push(url.toString());
      const next = checkedUrl(location, url.toString());
      if (next.origin !== url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CROSS_ORIGIN_DROP.includes(k)));
      }
      url = next;
      continue;
    }

    const declared = Number(res.headers['content-length']);
    if (opts.maxBytes !== undefined && Number.isFinite(declared) && declared > opts.maxBytes && method !== 'HEAD' && status < 300) {
      res.destroy();
      throw new DomainError('FILE_TOO_LARGE', { max_size: opts.maxBytes });
    }
    const body = capped(res, opts.maxBytes ?? Number.POSITIVE_INFINITY);
    const bufferCap = Math.min(opts.maxBytes ?? DEFAULT_BUFFER_CAP, DEFAULT_BUFFER_CAP);
    return {
      url: url.toString(),
      status,
      headers: res.headers,
      address: pin.address,
      redirects,
      body,
      bytes: () => collect(body, bufferCap),
      text: async () => (await collect(body, bufferCap)).toString('utf8'),
      discard: () => {
        res.destroy();
        body.destroy();
      },
    };
  }
}
