import { errorReason } from './reasons.js';
import { retryAfterMs } from './retry.js';

/**
 * The one error the SDK throws for what the service refused or reported: an error answer of the API
 * (`status` is its HTTP status, `code` and `extra` its body), or a job that ended badly while a
 * `waitFor…` helper watched it (`status` null, `code` such as `RENDER_FAILED`, `extra` the job as last
 * seen). Network failures and aborts are thrown as they are.
 */
export class CutroomError extends Error {
  override readonly name = 'CutroomError';
  /** HTTP status of the error answer; null when no error answer was received (a failed job, a wait that timed out, a bad webhook). */
  readonly status: number | null;
  /** The API's uppercase error code (docs/api-decisions.md lists them), or the SDK's own: `SUBMISSION_FAILED`, `POST_FAILED`, `POST_PARTIAL`, `PERSONA_FAILED`, `PERSONA_VIDEO_FAILED`, `GENERATION_FAILED`, `WAIT_TIMEOUT`, `WEBHOOK_INVALID`. */
  readonly code: string;
  /** What can be acted on: the answer's `extra`, or the failed job. */
  readonly extra: Record<string, unknown> | undefined;
  /** `X-Request-Id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The answer's `Retry-After` in seconds (429 RATE_LIMIT_EXCEEDED), when it had one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: { status: number | null; code: string; extra?: Record<string, unknown>; requestId?: string; retryAfterSeconds?: number; cause?: unknown }) {
    super(init.status === null ? init.code : `${init.code} (HTTP ${init.status})`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.extra = init.extra;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /**
   * The error in one plain sentence that uses `extra` (the allowed values of a field, the minimum
   * duration, why a link was refused, the seconds to wait…): the SDK's table, `errorReason`.
   */
  get reason(): string {
    const extra = this.retryAfterSeconds === undefined ? (this.extra ?? {}) : { retry_after: this.retryAfterSeconds, ...this.extra };
    return errorReason(this.code, extra);
  }

  /** The sentence with what identifies the error: `<reason> (<CODE>, HTTP <status>, request <id>)`. */
  describe(): string {
    const ids = [this.code, ...(this.status === null ? [] : [`HTTP ${this.status}`]), ...(this.requestId ? [`request ${this.requestId}`] : [])];
    return `${this.reason} (${ids.join(', ')})`;
  }

  /** The error of an answer that is not a success. A body that is not the API's `{ code, extra }` (a proxy's page) gives `HTTP_<status>`. */
  static async fromResponse(response: Response): Promise<CutroomError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const wait = retryAfterMs(response.headers.get('retry-after'));
    const { code, extra } = (body ?? {}) as { code?: unknown; extra?: unknown };
    return new CutroomError({
      status: response.status,
      code: typeof code === 'string' ? code : `HTTP_${response.status}`,
      extra: extra && typeof extra === 'object' ? (extra as Record<string, unknown>) : undefined,
      requestId,
      ...(wait === undefined ? {} : { retryAfterSeconds: Math.ceil(wait / 1000) }),
    });
  }
}

/**
 * A mistake in how the SDK was called, found before anything was checked: thrown instead of going on
 * with a setting that would weaken a check. It is not a `CutroomError`, so it cannot be taken for the
 * service's answer or for a bad delivery: a webhook receiver whose secret is unset fails on every
 * request, loudly, instead of accepting forged ones. `verifyWebhook` throws it for a secret that is
 * not base64 or decodes to fewer than 16 bytes (an unset environment variable, `whsec_` alone), a
 * `toleranceSeconds` that is not a finite number ≥ 0 (`NaN` would disable the replay window), or an
 * invalid `now`. The message never contains the secret.
 */
export class CutroomConfigError extends Error {
  override readonly name = 'CutroomConfigError';
  /** Always `CONFIG_INVALID`. */
  readonly code = 'CONFIG_INVALID';
  /** The argument or option that is wrong: `secret`, `toleranceSeconds`, `now`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super(`${option}: ${message}`);
    this.option = option;
  }
}
