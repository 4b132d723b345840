import { constants } from 'node:os';
import type { ErrorCode } from './error-codes.js';

/**
 * The one error type of the service. `code` is the spec's stable uppercase code, one of the table in
 * error-codes.ts; `extra` is present only when the caller can act on it. The HTTP layer answers `code`
 * with its status from that table (src/http/errors.ts).
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, extra?: Record<string, unknown>, headers?: Record<string, string>) {
    super(code);
    this.name = 'DomainError';
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

/**
 * One failed field of a VALIDATION_ERROR: `field` (dotted path) and `rule` (what it broke). A rule that
 * picks among fixed values (`enum`, and `const` for a choice among literals) also carries `allowed`,
 * the values the field takes (docs/api-decisions.md, "Error extras").
 */
export interface FieldFailure {
  field: string;
  rule: string;
  allowed?: readonly unknown[];
}

export function validationError(errors: FieldFailure[]): DomainError {
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
 * The stable codes a system error is recorded as (docs/api-decisions.md, "System errors in
 * error_code"): the errno itself (`ECONNRESET`, `ENOSPC`, `EACCES`…) says how the host failed, not
 * what the caller can do, and changes with the platform, so it is kept in the log only.
 */
export const SYSTEM_ERROR_CODES = {
  /** The service could not reach, or lost, a server it needed (a source, a speech server, storage, a provider). */
  network: 'NETWORK_ERROR',
  /** The service's own disk or files failed: full, read-only, no permission, missing work file. */
  storage: 'STORAGE_FAILED',
  /** Any other system error: the generic failure. */
  other: 'PROCESSING_FAILED',
} as const;

/** Space-separated codes → a set (long lists stay readable). */
const codes = (...groups: string[]): ReadonlySet<string> => new Set(groups.flatMap((g) => g.split(/\s+/).filter(Boolean)));

/** Connections, sockets, TLS certificates and name resolution. */
const NETWORK_CODES = codes(
  'ECONNRESET ECONNREFUSED ECONNABORTED ETIMEDOUT EPIPE EHOSTUNREACH EHOSTDOWN ENETUNREACH ENETDOWN ENETRESET ENOTCONN',
  'EADDRNOTAVAIL EADDRINUSE EPROTO ESOCKETTIMEDOUT',
  // dns (c-ares) codes
  'ENOTFOUND ENODATA EFORMERR ESERVFAIL ENOTIMP EREFUSED EBADQUERY EBADNAME EBADFAMILY EBADRESP ETIMEOUT EOF EFILE',
  'EDESTRUCTION EBADSTR EBADFLAGS ENONAME EBADHINTS ENOTINITIALIZED ECANCELLED',
  // OpenSSL certificate checks as Node reports them (Node's tls docs, "X509 certificate error codes")
  'UNABLE_TO_GET_ISSUER_CERT UNABLE_TO_GET_CRL UNABLE_TO_DECRYPT_CERT_SIGNATURE UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY CERT_SIGNATURE_FAILURE CRL_SIGNATURE_FAILURE CERT_NOT_YET_VALID CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID CRL_HAS_EXPIRED ERROR_IN_CERT_NOT_BEFORE_FIELD ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD ERROR_IN_CRL_NEXT_UPDATE_FIELD OUT_OF_MEM DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN UNABLE_TO_GET_ISSUER_CERT_LOCALLY UNABLE_TO_VERIFY_LEAF_SIGNATURE CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED INVALID_CA PATH_LENGTH_EXCEEDED INVALID_PURPOSE CERT_UNTRUSTED CERT_REJECTED HOSTNAME_MISMATCH',
);

/** Files and disks. */
const STORAGE_CODES = codes(
  'ENOSPC EDQUOT EROFS EIO EACCES EPERM EMFILE ENFILE ENOENT ENOTDIR EISDIR EEXIST ENOTEMPTY EBUSY EFBIG ENAMETOOLONG',
  'EXDEV ELOOP EBADF ETXTBSY ESTALE',
);

/**
 * The stable code of a system error — Node's errno names (`os.constants.errno`), its DNS, TLS and
 * internal (`ERR_*`) codes, undici's (`UND_ERR_*`), or any error shaped like Node's SystemError
 * (`errno` number, `syscall`) — or undefined for the service's own errors. `otherwise` is the code of
 * a system error that is neither network nor storage. A program that could not be started (`spawn`)
 * is not a storage failure.
 */
export function systemErrorCode(err: unknown, otherwise: string = SYSTEM_ERROR_CODES.other): string | undefined {
  const e = err as { code?: unknown; errorCode?: unknown; errno?: unknown; syscall?: unknown } | null | undefined;
  const code = e?.errorCode ?? e?.code;
  const systemShaped = typeof e?.errno === 'number' || typeof e?.syscall === 'string';
  if (typeof code !== 'string') return systemShaped ? otherwise : undefined;
  const spawn = typeof e?.syscall === 'string' && e.syscall.startsWith('spawn');
  if (NETWORK_CODES.has(code) || code.startsWith('EAI_') || code.startsWith('UND_ERR') || /^ERR_(TLS|SSL|SOCKET|HTTP2?|PROXY)_/.test(code)) {
    return SYSTEM_ERROR_CODES.network;
  }
  if (STORAGE_CODES.has(code)) return spawn ? otherwise : SYSTEM_ERROR_CODES.storage;
  if (Object.hasOwn(constants.errno, code) || code.startsWith('ERR_') || systemShaped) return otherwise;
  return undefined;
}

/**
 * The `error_code` a job records for a failure: a DomainError's code, an adapter error's own
 * uppercase `errorCode`/`code`, `MEDIA_PROCESSING_FAILED` for ffmpeg, else `PROCESSING_FAILED`.
 * A system error (an errno such as `ECONNRESET`, `ENOSPC`, `EACCES`) is never recorded as it is:
 * `systemErrorCode` maps it to `NETWORK_ERROR`, `STORAGE_FAILED` or `PROCESSING_FAILED`; the errno
 * stays in the log line the caller writes with the error.
 */
export function errorCodeOf(err: unknown): string {
  const system = systemErrorCode(err);
  if (system) return system;
  if (err instanceof DomainError) return err.code;
  const code = (err as { code?: unknown; errorCode?: unknown })?.errorCode ?? (err as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  if ((err as Error)?.name === 'FfmpegError') return 'MEDIA_PROCESSING_FAILED';
  return 'PROCESSING_FAILED';
}
