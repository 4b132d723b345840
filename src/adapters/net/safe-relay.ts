import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { attributeSpans, isPlaylistHead, isTagLine, PLAYLIST_HEAD_BYTES, playlistLines, quoteAttribute } from './m3u8-syntax.js';
import { readCapped, readHead, withHead } from './read-body.js';
import { checkedUrl, safeFetch, type SafeFetchOptions, type SafeResponse } from './safe-fetch.js';

/**
 * A loopback HTTP relay that lets ffprobe/ffmpeg read a caller's link without connecting anywhere
 * themselves. The tool is given `http://127.0.0.1:<port>/<token>/<origin>/<path>` URLs; every
 * request is forwarded with safeFetch (address rules, pinned connection), Range headers pass
 * through, redirects are answered with relay URLs (so each hop is checked again), and every body that
 * starts as an HLS playlist (`#EXTM3U`, whatever its status, content type or path) is rewritten so
 * that every segment, key, init section and variant URI also goes through the relay; a Range request
 * on a playlist is answered with the whole playlist, rewritten. This closes the gap between "checked
 * with safeFetch" and "the tool connects by itself" (a second DNS answer, a redirect served only to the
 * tool, a segment on a private host).
 *
 * Since the HLS path fetches playlists and segments in Node (hls-fetch.ts), the relay only serves
 * ffprobe reading a direct media file with its demuxer named (`-f`); the rewriting is defence in depth.
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

/**
 * Rewrites every URI of a playlist with `map` (pure): every line that is not empty and not a tag is a
 * URI, and every `URI` attribute of a tag, quoted or not, is one. Lines and attributes are read as
 * ffmpeg reads them (m3u8-syntax.ts: CR, LF, CRLF and NUL end lines); the result has LF line ends and
 * quoted `URI` values, so a media tool reading it finds no address but the ones `map` gave.
 */
export function rewritePlaylist(text: string, base: string, map: (absolute: string) => string): string {
  const abs = (u: string) => {
    try {
      return map(new URL(u.trim(), base).toString());
    } catch {
      return map('invalid:');
    }
  };
  return playlistLines(text)
    .map((line) => {
      if (line.trim() === '') return '';
      if (!isTagLine(line)) return abs(line);
      const colon = line.indexOf(':');
      if (colon < 0) return line;
      const list = line.slice(colon + 1);
      let out = '';
      let at = 0;
      for (const a of attributeSpans(list)) {
        if (a.key !== 'URI') continue;
        out += `${list.slice(at, a.start)}${quoteAttribute(abs(a.value))}`;
        at = a.end;
      }
      return `${line.slice(0, colon + 1)}${out}${list.slice(at)}`;
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

    const maxPlaylist = opts.maxPlaylistBytes ?? 4 * 1024 * 1024;
    const fetchUp = (h: Record<string, string>) =>
      safeFetch(target, { ...opts, method: req.method as 'GET' | 'HEAD', headers: h, followRedirects: false, signal: ac.signal });

    /** Answers a playlist body (whatever its status, type or path), every URI rewritten to the relay. */
    const sendPlaylist = async (up: SafeResponse, head: Buffer, status: number) => {
      const bytes = await readCapped(up, maxPlaylist, () => new Error(`relay: playlist over ${maxPlaylist} bytes`), head);
      const body = Buffer.from(rewritePlaylist(bytes.toString('utf8'), up.url, toRelay), 'utf8');
      res.writeHead(status, { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': body.length });
      res.end(body);
    };

    fetchUp(headers)
      .then(async (up) => {
        const location = up.headers.location;
        if (up.status >= 300 && up.status < 400 && location) {
          up.discard();
          res.writeHead(up.status, { location: toRelay(new URL(location, up.url).toString()), 'content-length': 0 });
          res.end();
          return;
        }
        const out: Record<string, string> = {};
        for (const h of PASS_HEADERS) {
          const v = up.headers[h];
          if (typeof v === 'string') out[h] = v;
        }
        if (req.method === 'HEAD') {
          up.discard();
          res.writeHead(up.status, out);
          res.end();
          return;
        }
        // The body decides, not the status, type or path: anything that starts as a playlist is rewritten.
        const { head, complete } = await readHead(up.body, PLAYLIST_HEAD_BYTES);
        if (isPlaylistHead(head, complete)) {
          if (headers.range === undefined && up.status !== 206) return await sendPlaylist(up, head, up.status);
          // A part of a playlist cannot be rewritten: fetch all of it and answer it whole.
          up.discard();
          const whole = await fetchUp({});
          if (whole.status >= 300 && whole.status < 400) {
            whole.discard();
            throw new Error('relay: playlist answered a redirect without a range');
          }
          const again = await readHead(whole.body, PLAYLIST_HEAD_BYTES);
          if (!isPlaylistHead(again.head, again.complete)) {
            whole.discard();
            throw new Error('relay: a part of the body was a playlist, the whole body is not');
          }
          return await sendPlaylist(whole, again.head, whole.status === 206 ? 200 : whole.status);
        }
        res.writeHead(up.status, out);
        pipeline(withHead(head, up.body), res, (err) => {
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
