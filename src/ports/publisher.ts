/**
 * Publishers send one rendered MP4 to one connected account: `local` (a folder served by the service),
 * `youtube`, `tiktok`, `instagram` (src/adapters/publishing/, built by publisher.factory.ts). The metadata
 * rules every network accepts are in src/domain/publishing/metadata.rules.ts; docs/publishing.md.
 */

/**
 * What the operator stored for a connection (encrypted at rest, credentials-crypto.ts). snake_case like
 * the admin API; each network reads the fields it needs (docs/publishing.md lists them).
 */
export interface Credentials {
  access_token?: string;
  refresh_token?: string;
  /** ISO 8601 instant when `access_token` expires; a publisher refreshes ahead of it when it can. */
  expires_at?: string;
  /** OAuth client of this connection; falls back to the service's CUTROOM_<NETWORK>_CLIENT_* settings. */
  client_id?: string;
  /** TikTok's name for the client id (either is accepted). */
  client_key?: string;
  client_secret?: string;
  /** TikTok: the user's open_id. */
  open_id?: string;
  /** Instagram: the Instagram professional account id (the `<ig-user-id>` of the Graph API). */
  ig_user_id?: string;
  /** Public handle, used to build TikTok URLs (`@username`). */
  username?: string;
  [key: string]: unknown;
}

export interface PublishInput {
  /** Local path of the MP4 to publish. */
  file: string;
  sizeBytes: number;
  /** This network's own fields (`metadata.<platform>` of the post target), forwarded untouched. */
  metadata: Record<string, unknown>;
  credentials: Credentials;
  /** Stable per post item: the same value on every attempt of the same item. */
  idempotencyKey: string;
  /** The connection's account name (the `local` folder name, TikTok's `@handle` when `username` is absent). */
  account?: string;
  /** The last state given to `onState` by an earlier attempt of the same item (crash or retry). */
  resumeState?: unknown;
  /**
   * Called (and awaited) before each step that creates something on the network, with JSON-serialisable
   * progress (upload session URL, publish id, container id). Persist it: the next attempt passes it back
   * as `resumeState` and continues instead of publishing twice. An error thrown here aborts the attempt
   * and is rethrown untouched.
   */
  onState?(state: unknown): Promise<void>;
  signal?: AbortSignal;
}

export interface PublishResult {
  /** The public address of the published video (the item's `published_url`). */
  publishedUrl: string;
  /** The network's own id of the video. */
  externalId: string;
  /** Present when tokens were refreshed: save them on the connection. */
  credentials?: Credentials;
}

export interface Publisher {
  /** Lowercase network name, the key of the post target's `metadata` (`local`, `youtube`, ...). */
  readonly platform: string;
  readonly canPublishVideo: boolean;
  /**
   * Checks the credentials an operator gives for a connection to this network (admin API): null when
   * usable, otherwise the name of the first missing or malformed field.
   */
  checkCredentials(credentials: Credentials): string | null;
  /** Throws PublishError; any other error is a bug or comes from `onState`. */
  publish(input: PublishInput): Promise<PublishResult>;
}

/** The item `error_code`s a publisher reports. */
export type PublishErrorCode =
  /** The access token is expired or invalid and could not be refreshed. */
  | 'AUTH_EXPIRED'
  /** Access was withdrawn (refresh token revoked, scope or permission missing, account barred): reconnect. */
  | 'AUTH_REVOKED'
  /** The network's daily upload or API quota is used up. */
  | 'QUOTA_EXCEEDED'
  /** Too many requests right now (retryable, after `retryAfterSeconds` when known). */
  | 'RATE_LIMITED'
  /** The network refused the title, caption or options. */
  | 'METADATA_REJECTED'
  /** The transfer failed or the network answered 5xx (retryable); non-retryable for a missing local file. */
  | 'UPLOAD_FAILED'
  /** The network received the file but failed to process or publish it. */
  | 'PROCESSING_FAILED'
  /** Connection refused, reset or timed out (retryable). */
  | 'NETWORK_ERROR';

const RETRYABLE: ReadonlySet<PublishErrorCode> = new Set(['RATE_LIMITED', 'UPLOAD_FAILED', 'NETWORK_ERROR']);

export interface PublishErrorOptions {
  /** Default: true for RATE_LIMITED, UPLOAD_FAILED and NETWORK_ERROR. */
  retryable?: boolean;
  /** HTTP status of the network's answer, when there was one. */
  status?: number;
  retryAfterSeconds?: number;
  /** With METADATA_REJECTED: the network-qualified field (`youtube.title`) when known. */
  field?: string;
  /** Refreshed tokens obtained before the failure: save them even though publishing failed. */
  credentials?: Credentials;
  cause?: unknown;
}

export class PublishError extends Error {
  readonly error_code: PublishErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly field?: string;
  credentials?: Credentials;

  constructor(code: PublishErrorCode, message: string, opts: PublishErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'PublishError';
    this.error_code = code;
    this.retryable = opts.retryable ?? RETRYABLE.has(code);
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
    if (opts.field !== undefined) this.field = opts.field;
    if (opts.credentials !== undefined) this.credentials = opts.credentials;
  }
}
