import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../domain/errors.js';
import type { HostedOutput, HostedOutputFetcher } from '../../ports/hosted-generation.js';
import { safeFetch } from '../net/safe-fetch.js';

/**
 * HostedOutputFetcher with the service's safe fetcher: a provider's output URL is a third party's
 * address, so every hop is checked like a caller's link (private and metadata addresses refused, the
 * connection pinned, redirects checked), the body streamed to the file and capped. Only the model's own
 * origin (its base URL, where a self-hosted server serves its files) may be private.
 */
export class SafeOutputFetcher implements HostedOutputFetcher {
  constructor(private readonly opts: { allowPrivate: boolean; timeoutMs?: number }) {}

  async fetch(output: HostedOutput, file: string, o: { maxBytes: number; trustedOrigin?: string; signal?: AbortSignal }): Promise<{ size: number }> {
    if ('bytes' in output) {
      if (output.bytes.length > o.maxBytes) throw new DomainError('FILE_TOO_LARGE', { max_size: o.maxBytes });
      await fs.promises.writeFile(file, output.bytes);
      return { size: output.bytes.length };
    }
    const trusted = o.trustedOrigin ? new URL(o.trustedOrigin).origin : undefined;
    const res = await safeFetch(output.url, {
      allowPrivate: this.opts.allowPrivate,
      maxBytes: o.maxBytes,
      timeoutMs: this.opts.timeoutMs ?? 60_000,
      signal: o.signal,
      treatAsPublic: (_address, url) => trusted !== undefined && url.origin === trusted,
    });
    if (res.status !== 200) {
      res.discard();
      throw new Error(`output download answered HTTP ${res.status}`);
    }
    const partial = `${file}.part`;
    try {
      await pipeline(res.body, fs.createWriteStream(partial));
      await fs.promises.rename(partial, file);
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
    return { size: (await fs.promises.stat(file)).size };
  }
}
