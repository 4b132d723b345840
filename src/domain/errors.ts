/**
 * The one error type of the service. `code` is the spec's stable uppercase code; `extra` is present
 * only when the caller can act on it. The HTTP layer maps `code` to a status (src/http/errors.ts).
 */
export class DomainError extends Error {
  readonly code: string;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: string, extra?: Record<string, unknown>, headers?: Record<string, string>) {
    super(code);
    this.name = 'DomainError';
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

export function validationError(errors: Array<{ field: string; rule: string }>): DomainError {
  return new DomainError('VALIDATION_ERROR', { errors });
}

/**
 * The retryable-error rule: a failure that another attempt may cure says so with `retryable: true`
 * (AsrError, PublishError). A job's run then throws it again so that the queue retries the job,
 * instead of failing its record (src/domain/jobs/retry.ts).
 */
export function isRetryable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { retryable?: unknown }).retryable === true;
}

/**
 * The `error_code` a job records for a failure: a DomainError's code, an adapter error's own
 * uppercase `errorCode`/`code`, `MEDIA_PROCESSING_FAILED` for ffmpeg, else `PROCESSING_FAILED`.
 */
export function errorCodeOf(err: unknown): string {
  if (err instanceof DomainError) return err.code;
  const code = (err as { code?: unknown; errorCode?: unknown })?.errorCode ?? (err as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  if ((err as Error)?.name === 'FfmpegError') return 'MEDIA_PROCESSING_FAILED';
  return 'PROCESSING_FAILED';
}
