import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { DomainError, errorCodeOf, systemErrorCode } from '../../src/domain/errors.js';
import { renderErrorCode } from '../../src/domain/renders/renders.rules.js';

/**
 * Security audit 2, finding 7: a system error's errno (`ECONNRESET`, `ENOSPC`, `EACCES`…) never
 * becomes a record's `error_code`: it is mapped to a stable documented code (docs/api-decisions.md,
 * "System errors in error_code"), and stays in the log only.
 */
const errno = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${code}: something`), { code, ...extra });

/** A real ENOSPC from the kernel: /dev/full refuses every write. */
function realEnospc(): NodeJS.ErrnoException {
  try {
    fs.writeFileSync('/dev/full', 'x');
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  throw new Error('/dev/full accepted a write');
}

/** A real ECONNREFUSED: a loopback port nothing listens on (the server is closed before connecting). */
async function realEconnrefused(): Promise<NodeJS.ErrnoException> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return new Promise((resolve, reject) => {
    const c = net.connect(port, '127.0.0.1', () => reject(new Error('connected')));
    c.on('error', (err) => resolve(err as NodeJS.ErrnoException));
  });
}

describe('system errors map to stable codes', () => {
  it.each([
    ['ECONNRESET', 'NETWORK_ERROR'],
    ['ECONNREFUSED', 'NETWORK_ERROR'],
    ['ECONNABORTED', 'NETWORK_ERROR'],
    ['ETIMEDOUT', 'NETWORK_ERROR'],
    ['EPIPE', 'NETWORK_ERROR'],
    ['EHOSTUNREACH', 'NETWORK_ERROR'],
    ['ENETUNREACH', 'NETWORK_ERROR'],
    ['ENOTFOUND', 'NETWORK_ERROR'],
    ['EAI_AGAIN', 'NETWORK_ERROR'],
    ['UND_ERR_SOCKET', 'NETWORK_ERROR'],
    ['UND_ERR_CONNECT_TIMEOUT', 'NETWORK_ERROR'],
    ['ENOSPC', 'STORAGE_FAILED'],
    ['EDQUOT', 'STORAGE_FAILED'],
    ['EROFS', 'STORAGE_FAILED'],
    ['EIO', 'STORAGE_FAILED'],
    ['EACCES', 'STORAGE_FAILED'],
    ['EPERM', 'STORAGE_FAILED'],
    ['EMFILE', 'STORAGE_FAILED'],
    ['ENOENT', 'STORAGE_FAILED'],
    ['ENOTDIR', 'STORAGE_FAILED'],
    ['EEXIST', 'STORAGE_FAILED'],
    ['ENOMEM', 'PROCESSING_FAILED'],
    ['EINVAL', 'PROCESSING_FAILED'],
    ['E2BIG', 'PROCESSING_FAILED'],
    ['ERR_STREAM_PREMATURE_CLOSE', 'PROCESSING_FAILED'],
    ['ERR_INVALID_ARG_TYPE', 'PROCESSING_FAILED'],
  ])('%s → %s', (code, stable) => {
    expect(errorCodeOf(errno(code))).toBe(stable);
    expect(errorCodeOf(errno(code, { errno: -1, syscall: 'write' }))).toBe(stable);
  });

  it('maps errors the kernel really raised', async () => {
    expect(errorCodeOf(realEnospc())).toBe('STORAGE_FAILED');
    expect(errorCodeOf(await realEconnrefused())).toBe('NETWORK_ERROR');
  });

  it('a program that cannot be started is a processing failure, not storage', () => {
    expect(errorCodeOf(errno('ENOENT', { errno: -2, syscall: 'spawn ffmpeg', path: 'ffmpeg' }))).toBe('PROCESSING_FAILED');
    expect(errorCodeOf(errno('EACCES', { errno: -13, syscall: 'spawn /usr/bin/x' }))).toBe('PROCESSING_FAILED');
  });

  it('keeps the service’s own codes: domain errors, adapter codes, ffmpeg, anything else', () => {
    expect(errorCodeOf(new DomainError('SOURCE_UNAVAILABLE'))).toBe('SOURCE_UNAVAILABLE');
    expect(errorCodeOf(Object.assign(new Error('x'), { code: 'ASR_UNAVAILABLE', retryable: true }))).toBe('ASR_UNAVAILABLE');
    expect(errorCodeOf(Object.assign(new Error('x'), { errorCode: 'PROVIDER_FAILED' }))).toBe('PROVIDER_FAILED');
    expect(errorCodeOf(Object.assign(new Error('x'), { code: 'EXTRACT_FAILED' }))).toBe('EXTRACT_FAILED');
    expect(errorCodeOf(Object.assign(new Error('x'), { code: 'EDIT_INVALID' }))).toBe('EDIT_INVALID');
    expect(errorCodeOf(Object.assign(new Error('x'), { name: 'FfmpegError' }))).toBe('MEDIA_PROCESSING_FAILED');
    expect(errorCodeOf(new Error('boom'))).toBe('PROCESSING_FAILED');
    expect(errorCodeOf(Object.assign(new Error('x'), { code: '23505' }))).toBe('PROCESSING_FAILED');
    expect(errorCodeOf(undefined)).toBe('PROCESSING_FAILED');
  });

  it('an errno a DomainError or an adapter code would carry is mapped too', () => {
    // Whatever the wrapper, the stored code is never an errno.
    expect(errorCodeOf(Object.assign(new Error('x'), { errorCode: 'ECONNRESET' }))).toBe('NETWORK_ERROR');
    // @ts-expect-error -- ENOSPC is no DomainError code (the type refuses it); an errno is mapped whatever carries it
    expect(errorCodeOf(new DomainError('ENOSPC'))).toBe('STORAGE_FAILED');
  });

  it('systemErrorCode answers only for system errors', () => {
    expect(systemErrorCode(errno('ECONNRESET'))).toBe('NETWORK_ERROR');
    expect(systemErrorCode(errno('ENOSPC'))).toBe('STORAGE_FAILED');
    expect(systemErrorCode(errno('ENOMEM'))).toBe('PROCESSING_FAILED');
    expect(systemErrorCode(new DomainError('SOURCE_UNAVAILABLE'))).toBeUndefined();
    expect(systemErrorCode(new Error('boom'))).toBeUndefined();
  });

  it('renders: the same mapping, RENDER_FAILED for the rest', () => {
    expect(renderErrorCode(errno('ENOSPC'))).toBe('STORAGE_FAILED');
    expect(renderErrorCode(realEnospc())).toBe('STORAGE_FAILED');
    expect(renderErrorCode(errno('ECONNRESET'))).toBe('NETWORK_ERROR');
    expect(renderErrorCode(errno('ENOMEM'))).toBe('RENDER_FAILED');
    expect(renderErrorCode(errno('ENOENT', { syscall: 'spawn ffmpeg' }))).toBe('RENDER_FAILED');
    expect(renderErrorCode(Object.assign(new Error('x'), { error_code: 'RENDER_FFMPEG_FAILED' }))).toBe('RENDER_FFMPEG_FAILED');
    expect(renderErrorCode(new DomainError('FILE_NOT_FOUND'))).toBe('SOURCE_NOT_FOUND');
  });
});
