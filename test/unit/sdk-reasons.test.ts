import { describe, expect, it } from 'vitest';
import { CutroomError, ERROR_REASONS, errorReason } from '../../sdk/src/index.js';
import { ERROR_STATUS, FAILURE_ONLY_CODES } from '../../src/domain/error-codes.js';
import { SYSTEM_ERROR_CODES } from '../../src/domain/errors.js';
import { URL_REFUSALS } from '../../src/domain/videos/url-refusals.js';
import type { WaitingReason } from '../../src/ports/source-resolver.js';
import type { PublishErrorCode } from '../../src/ports/publisher.js';
import { CANCELLED, CONNECTION_REVOKED, PUBLISH_FAILED, RENDER_FAILED } from '../../src/domain/publishing/posts.rules.js';

/** Every waiting reason (the type makes the list complete). */
const WAITING_REASONS = Object.keys({ SOURCE_PREMIERE_SCHEDULED: 1, SOURCE_LIVE_IN_PROGRESS: 1, SOURCE_VOD_PROCESSING: 1 } satisfies Record<WaitingReason, 1>);

/**
 * The SDK's one table of error reasons (sdk/src/reasons.ts) against the service's own lists: every code
 * the API answers, every code a job records, every reason of INVALID_URL. The SDK never imports src/;
 * this test is where the two meet.
 */

describe('the table covers every code of the service', () => {
  it('every answered code (src/domain/error-codes.ts) has a sentence', () => {
    const missing = Object.keys(ERROR_STATUS).filter((code) => !Object.hasOwn(ERROR_REASONS, code));
    expect(missing).toEqual([]);
  });

  it('every failure-only code, system error code and waiting reason has a sentence', () => {
    const codes = [...FAILURE_ONLY_CODES, ...Object.values(SYSTEM_ERROR_CODES), ...WAITING_REASONS];
    expect(codes.filter((code) => !Object.hasOwn(ERROR_REASONS, code))).toEqual([]);
  });

  it('every post item error_code (a publisher’s and the worker’s own) has a sentence', () => {
    const publisher = Object.keys({
      AUTH_EXPIRED: 1,
      AUTH_REVOKED: 1,
      QUOTA_EXCEEDED: 1,
      RATE_LIMITED: 1,
      METADATA_REJECTED: 1,
      UPLOAD_FAILED: 1,
      PROCESSING_FAILED: 1,
      NETWORK_ERROR: 1,
    } satisfies Record<PublishErrorCode, 1>);
    const codes = [...publisher, CANCELLED, CONNECTION_REVOKED, PUBLISH_FAILED, RENDER_FAILED, 'EDITS_NOT_FOUND', 'QUEUE_UNAVAILABLE'];
    expect(codes.filter((code) => !Object.hasOwn(ERROR_REASONS, code))).toEqual([]);
  });

  it('every INVALID_URL reason has its own sentence, not the generic one', () => {
    const generic = errorReason('INVALID_URL', {});
    const sentences = URL_REFUSALS.map((reason) => errorReason('INVALID_URL', { reason }));
    expect(sentences.filter((s) => s === generic)).toEqual([]);
    expect(new Set(sentences).size).toBe(URL_REFUSALS.length);
  });
});

describe('sentences use extra', () => {
  it('a loopback link: the private-address rule and the operator setting that lifts it', () => {
    expect(errorReason('INVALID_URL', { reason: 'private_address' })).toBe(
      'Links to private or loopback addresses (localhost, 127.0.0.1, 10.x, 192.168.x …) are refused; the service’s operator can allow them with CUTROOM_ALLOW_PRIVATE_SOURCES=true.',
    );
  });

  it('a video too short: its duration and the minimum, not the maximum', () => {
    expect(errorReason('VIDEO_TOO_SHORT', { duration: 42.4, min_duration: 60, max_duration: 7200 })).toBe(
      'The video is too short (42 s): the service needs at least 1 min of video.',
    );
    expect(errorReason('VIDEO_TOO_LONG', { duration: 7300, min_duration: 60, max_duration: 7200 })).toBe(
      'The video is too long (2 h 1 min 40 s): the most allowed here is 2 h.',
    );
  });

  it('a validation error lists the allowed values of each field', () => {
    expect(
      errorReason('VALIDATION_ERROR', {
        errors: [
          { field: 'source_language', rule: 'const', allowed: ['auto', 'en', 'pt'] },
          { field: 'review', rule: 'const', allowed: ['kept', 'skipped', null] },
          { field: 'name', rule: 'required' },
          { field: 'config.layout.aspect', rule: 'one of 9:16, 1:1, 16:9' },
        ],
      }),
    ).toBe(
      '“source_language” must be one of auto, en or pt; “review” must be one of kept, skipped or null; “name” is required; “config.layout.aspect”: one of 9:16, 1:1, 16:9.',
    );
    expect(errorReason('VALIDATION_ERROR', { errors: [{ field: 'file_name', rule: 'extension', allowed: ['.mp4', '.mov'] }] })).toBe(
      '“file_name” must end in .mp4 or .mov.',
    );
  });

  it('a job that failed names why; limits, sizes and unknown codes', () => {
    expect(errorReason('SUBMISSION_FAILED', { id: 'sub_1', status: 'failed', error_code: 'NO_SPEECH' })).toBe(
      'Clipping failed. Nobody speaks in this video (no sound, or no word recognised), so there is nothing to clip. Any credits charged were refunded.',
    );
    expect(errorReason('FILE_TOO_LARGE', { max_size: 1536 })).toBe('The file is too large: the most allowed here is 1.5 KB.');
    expect(errorReason('HTTP_502')).toContain('HTTP 502');
    expect(errorReason('SOMETHING_NEW')).toBe('The service refused this (SOMETHING_NEW).');
  });
});

describe('CutroomError', () => {
  it('reason and describe(): the sentence, the code, the status and the request id; Retry-After in the sentence', async () => {
    const err = await CutroomError.fromResponse(
      new Response(JSON.stringify({ code: 'VIDEO_TOO_SHORT', extra: { duration: 20, min_duration: 60, max_duration: 600 } }), {
        status: 400,
        headers: { 'x-request-id': 'req-1' },
      }),
    );
    expect(err.reason).toBe('The video is too short (20 s): the service needs at least 1 min of video.');
    expect(err.describe()).toBe('The video is too short (20 s): the service needs at least 1 min of video. (VIDEO_TOO_SHORT, HTTP 400, request req-1)');
    const limited = await CutroomError.fromResponse(
      new Response(JSON.stringify({ code: 'RATE_LIMIT_EXCEEDED' }), { status: 429, headers: { 'retry-after': '7' } }),
    );
    expect(limited.retryAfterSeconds).toBe(7);
    expect(limited.reason).toContain('wait 7 s');
    expect(new CutroomError({ status: null, code: 'WAIT_TIMEOUT' }).describe()).toMatch(/ \(WAIT_TIMEOUT\)$/);
  });
});
