/** What an attempt to send a webhook came to. */
export type WebhookAnswer =
  | { kind: 'answered'; status: number; /** At most the first RESPONSE_EXCERPT_CHARS of the body. */ excerpt: string }
  | { kind: 'failed'; error: 'timeout' | 'address_not_allowed' | 'connection_failed' };

/**
 * Sends webhook requests to callers' URLs through the safe fetcher (src/adapters/net/webhook-sender.ts):
 * never to private, loopback or link-local addresses unless the operator allows them.
 */
export interface WebhookSender {
  /**
   * Throws DomainError('INVALID_WEBHOOK_URL', { reason }) when the URL may not be called:
   * `url` (not an absolute http(s) URL without credentials), `address_not_allowed`, `unresolvable`.
   */
  checkUrl(url: string): Promise<void>;
  /** POSTs `body` with `headers`; never follows a redirect, reads at most an excerpt of the answer. */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAnswer>;
}
