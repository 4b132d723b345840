import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { checkedUrl, safeFetch, type SafeFetchOptions } from './safe-fetch.js';

/**
 * A loopback HTTP relay that lets ffprobe/ffmpeg read a caller's link without connecting anywhere
 * themselves. The tool is given `http://127.0.0.1:<port>/<token>/<origin>/<path>` URLs; every
 * request is forwarded with safeFetch (address rules, pinned connection), Range headers pass
 * through, redirects are answered with relay URLs (so each hop is checked again), and HLS playlists
 * are rewritten so that every segment, key and variant URI also goes through the relay.
 * This closes the gap between "checked with safeFetch" and "the tool connects by itself"
 * (a second DNS answer, a redirect served only to the tool, a segment on a private host).
 */

export interface SafeRelay {
  /** The relay URL standing for `target` (an absolute http(s) URL). */
  url(target: string): string;
  /** Requests the relay refused or could not forward, newest last (for error messages). */
  readonly failures: Error[];
  close(): Promise<void>;
}

export interface SafeRelayOptions extends Omit<SafeFetchOptions, 'method' | 'headers' | 'followRedirects' | 'signal'> {
  /** Largest playlist rewritten. Default 4 MiB. */
  maxPlaylistBytes?: number;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');
const PASS_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/** Rewrites every URI of a playlist (segment lines and `URI="..."` attributes) with `map`. Pure. */
export function rewritePlaylist(text: string, base: string, map: (absolute: string) => string): string {
  const abs = (u: string) => {
    try {
      return map(new URL(u, base).toString());
    } catch {
      return map('invalid:');
    }
  };
  return text
    .split('\n')
    .map((raw) => {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '') return raw;
      if (line.startsWith('#')) return line.replace(/URI="([^"]*)"/g, (_m, u: string) => `URI="${abs(u)}"`);
      return abs(line.trim());
    })
    .join('\n');
}

export async function startSafeRelay(opts: SafeRelayOptions): Promise<SafeRelay> {
  const token = randomBytes(12).toString('hex');
  const failures: Error[] = [];
  let base = '';

  const toRelay = (target: string): string => {
    let u: URL;
    try {
      u = checkedUrl(target);
    } catch {
      return `${base}/${token}/refused`;
    }
    return `${base}/${token}/${b64(u.origin)}${u.pathname}${u.search}`;
  };

  const fail = (res: http.ServerResponse, status: number, err: Error) => {
    failures.push(err);
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain' });
    res.end();
  };

  const server = http.createServer((req, res) => {
    const m = /^\/([0-9a-f]+)\/([A-Za-z0-9_-]+)(\/[^]*)?$/.exec(req.url ?? '');
    if (!m || m[1] !== token) return fail(res, 404, new Error(`relay: unknown path ${req.url}`));
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, new Error(`relay: method ${req.method}`));
    let target: string;
    try {
      target = checkedUrl(`${unb64(m[2])}${m[3] ?? '/'}`).toString();
    } catch (err) {
      return fail(res, 400, err as Error);
    }
    const ac = new AbortController();
    res.on('close', () => ac.abort(new Error('relay client went away')));
    const headers: Record<string, string> = {};
    if (typeof req.headers.range === 'string') headers.range = req.headers.range;

    safeFetch(target, { ...opts, method: req.method as 'GET' | 'HEAD', headers, followRedirects: false, signal: ac.signal })
      .then(async (up) => {
        const location = up.headers.location;
        if (up.status >= 300 && up.status < 400 && location) {
          up.discard();
          res.writeHead(up.status, { location: toRelay(new URL(location, up.url).toString()), 'content-length': 0 });
          res.end();
          return;
        }
        const isPlaylist = /mpegurl/i.test(String(up.headers['content-type'] ?? '')) || new URL(up.url).pathname.toLowerCase().endsWith('.m3u8');
        if (isPlaylist && up.status === 200 && req.method === 'GET') {
          const max = opts.maxPlaylistBytes ?? 4 * 1024 * 1024;
          const text = (await up.bytes()).subarray(0, max + 1);
          if (text.length > max) throw new Error(`relay: playlist over ${max} bytes`);
          const body = Buffer.from(rewritePlaylist(text.toString('utf8'), up.url, toRelay), 'utf8');
          res.writeHead(200, { 'content-type': String(up.headers['content-type'] ?? 'application/vnd.apple.mpegurl'), 'content-length': body.length });
          res.end(body);
          return;
        }
        const out: Record<string, string> = {};
        for (const h of PASS_HEADERS) {
          const v = up.headers[h];
          if (typeof v === 'string') out[h] = v;
        }
        res.writeHead(up.status, out);
        if (req.method === 'HEAD') {
          up.discard();
          res.end();
          return;
        }
        pipeline(up.body, res, (err) => {
          if (err && !ac.signal.aborted) failures.push(err);
        });
      })
      .catch((err: Error) => {
        if (ac.signal.aborted) return;
        const why = (err.cause as Error | undefined)?.message ?? err.message;
        fail(res, 403, new Error(`relay: ${target}: ${why}`));
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: toRelay,
    failures,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs `fn` with a relay that lives only as long as the call. */
export async function withSafeRelay<T>(opts: SafeRelayOptions, fn: (relay: SafeRelay) => Promise<T>): Promise<T> {
  const relay = await startSafeRelay(opts);
  try {
    return await fn(relay);
  } finally {
    await relay.close();
  }
}
