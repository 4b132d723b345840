import path from 'node:path';
import { refused, safeFetch } from '../../adapters/net/safe-fetch.js';
import type { LinkBody } from './tool-kit.js';

/**
 * How the MCP tools read a caller's media link (`transcribe`): the service's own safe fetch
 * (src/adapters/net/safe-fetch.ts: every hop's address checked, redirects followed by hand), so over
 * HTTP a link cannot reach the service's private network unless CUTROOM_ALLOW_PRIVATE_SOURCES allows
 * it. Stdio runs on the caller's computer, where its own network is the caller's to read.
 */
export function linkOpener(allowPrivate: boolean): (url: string, signal: AbortSignal) => Promise<LinkBody> {
  return async (url, signal) => {
    const res = await safeFetch(url, { allowPrivate, signal, timeoutMs: 30_000 });
    if (res.status !== 200) {
      res.discard();
      throw refused(`the link answered HTTP ${res.status}`, 'http_status', { status: res.status });
    }
    const length = Number(res.headers['content-length']);
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const name = decodeURIComponent(path.posix.basename(new URL(res.url).pathname)) || 'media';
    return {
      body: res.body,
      size: Number.isSafeInteger(length) && length > 0 ? length : undefined,
      // A file type the link states (audio/…, video/…) is sent as is; else the SDK reads it from the name.
      contentType: /^(audio|video)\/[\w.+-]+$/.test(type) ? type : undefined,
      fileName: name.slice(0, 200),
    };
  };
}
