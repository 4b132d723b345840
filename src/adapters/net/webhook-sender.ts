import { DomainError } from '../../domain/errors.js';
import { RESPONSE_EXCERPT_CHARS } from '../../domain/webhooks/webhooks.rules.js';
import type { WebhookAnswer, WebhookSender } from '../../ports/webhook-sender.js';
import { readHead } from './read-body.js';
import { checkedUrl, resolveAllowed, safeFetch, type SafeFetchOptions } from './safe-fetch.js';

export interface WebhookSenderOptions {
  /** CUTROOM_WEBHOOKS_ALLOW_PRIVATE: endpoints on loopback, private and link-local addresses (never cloud metadata). */
  allowPrivate: boolean;
  /** CUTROOM_WEBHOOK_TIMEOUT_MS: deadline of the answer's headers (and idle time of its body). */
  timeoutMs: number;
  /** Tests: a fake resolver. */
  resolve?: SafeFetchOptions['resolve'];
}

const USER_AGENT = 'Cutroom-Webhooks/1.0';

/** Why the safe fetcher refused or failed (its INVALID_URL carries the reason as `cause`). */
function reasonOf(err: unknown): string {
  return err instanceof DomainError && err.code === 'INVALID_URL' && err.cause instanceof Error ? err.cause.message : '';
}

const NOT_ALLOWED = /^address .* is |^non-canonical IP literal/;

/** Webhook requests through the safe fetcher (src/adapters/net/safe-fetch.ts): checked addresses, pinned connections, no redirects. */
export class SafeWebhookSender implements WebhookSender {
  constructor(private readonly opts: WebhookSenderOptions) {}

  async checkUrl(raw: string): Promise<void> {
    let url: URL;
    try {
      url = checkedUrl(raw);
    } catch {
      throw new DomainError('INVALID_WEBHOOK_URL', { reason: 'url' });
    }
    try {
      await resolveAllowed(url, { allowPrivate: this.opts.allowPrivate, resolve: this.opts.resolve });
    } catch (err) {
      throw new DomainError('INVALID_WEBHOOK_URL', { reason: NOT_ALLOWED.test(reasonOf(err)) ? 'address_not_allowed' : 'unresolvable' });
    }
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAnswer> {
    try {
      const res = await safeFetch(url, {
        method: 'POST',
        body,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
        allowPrivate: this.opts.allowPrivate,
        resolve: this.opts.resolve,
        timeoutMs: this.opts.timeoutMs,
        followRedirects: false,
      });
      // Only the first bytes of the answer are read; the connection is dropped after them.
      let excerpt = '';
      try {
        const { head } = await readHead(res.body, RESPONSE_EXCERPT_CHARS * 4);
        excerpt = head
          .toString('utf8')
          .replace(/\uFFFD+$/, '')
          .slice(0, RESPONSE_EXCERPT_CHARS);
      } catch {
        // The status decides; a body that breaks off is not the sender's concern.
      } finally {
        res.discard();
      }
      return { kind: 'answered', status: res.status, excerpt };
    } catch (err) {
      const reason = reasonOf(err);
      if (NOT_ALLOWED.test(reason)) return { kind: 'failed', error: 'address_not_allowed' };
      if (/within \d+ ms|idle for/.test(reason)) return { kind: 'failed', error: 'timeout' };
      return { kind: 'failed', error: 'connection_failed' };
    }
  }
}
