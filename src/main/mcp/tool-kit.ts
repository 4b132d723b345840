import type { Readable } from 'node:stream';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { Cutroom, CutroomError, type WaitOptions } from '@cutroom/sdk';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.js';
import { ERROR_STATUS } from '../../domain/error-codes.js';
import type { ApiSchemas } from './api-schemas.js';

/**
 * What every MCP tool shares: the answer's shape (the API's JSON as `structuredContent` beside a short
 * text), a refusal as a tool error in the SDK's words, and waiting for a job with MCP progress
 * notifications.
 */

/** A link's body as the tools read it: a stream, its declared size and type. */
export interface LinkBody {
  body: Readable;
  size: number | undefined;
  contentType: string | undefined;
  fileName: string;
}

export interface ToolContext {
  cutroom: Cutroom;
  schemas: ApiSchemas;
  /** Stdio only: `source` may be a path on the caller's computer. Over HTTP a path names the service's own disk and is refused. */
  localFiles: boolean;
  /** Reads a caller's media link (the service's link rules: no private addresses unless allowed). */
  openLink(url: string, signal: AbortSignal): Promise<LinkBody>;
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A result: the API's JSON and one line (or a few) for the model. */
export function ok(text: string, json: object): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: json as Record<string, unknown> };
}

/** A tool error with a code of the tool's own (not the API's): a sentence, and `{ code, reason, extra }`. */
export function refusal(code: string, reason: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${reason} (${code})` }], structuredContent: { code, status: null, reason, extra } };
}

/** A tool error in the words of the SDK: the reason sentence, and the API's `code` and `extra`. */
export function toolError(err: unknown): CallToolResult {
  if (err instanceof DomainError)
    err = new CutroomError({ status: (ERROR_STATUS as Record<string, number>)[err.code] ?? 400, code: err.code, extra: err.extra });
  if (err instanceof CutroomError) {
    return {
      isError: true,
      content: [{ type: 'text', text: err.describe() }],
      structuredContent: { code: err.code, status: err.status, reason: err.reason, ...(err.extra ? { extra: err.extra } : {}) },
    };
  }
  const code = (err as NodeJS.ErrnoException)?.code;
  const cause = (err as { cause?: { message?: string } })?.cause?.message;
  const message = err instanceof Error ? err.message : String(err);
  const text =
    err instanceof TypeError && /fetch failed/.test(message)
      ? `cannot reach the Cutroom service: ${cause ?? message} (is CUTROOM_URL right?)`
      : typeof code === 'string' && code.startsWith('E')
        ? `the local file cannot be read: ${message}`
        : message;
  return { isError: true, content: [{ type: 'text', text }] };
}

export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    return toolError(err);
  }
}

export const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** How long a tool may wait for its job before answering with the job as it is. */
export const waitSeconds = (fallback: number, what: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(300)
    .default(fallback)
    .describe(
      `Seconds to wait for ${what} before answering (0–300, default ${fallback}); the answer then says whether it is done. Progress notifications are sent meanwhile when the request carries a progressToken. Clients whose calls time out after 60 s should keep this under 50.`,
    );

/**
 * Polls a job every 2 s for up to `seconds` with the SDK's `waitFor…`, sending `notifications/progress`
 * (progress 0–100, increasing only, starting with the state the tool found) when the caller gave a
 * progressToken. The job as last seen: done,
 * failed (an answer, not a tool error: its state has `error_code`) or still running when the time is up.
 */
export async function waitForJob<T extends object>(
  extra: Extra,
  seconds: number,
  first: T,
  wait: (opts: WaitOptions<T>) => Promise<T>,
  describe: (job: T) => { progress?: number; message: string },
): Promise<T> {
  const token = extra._meta?.progressToken;
  let last = -1;
  const report = (job: T) => {
    if (token === undefined) return;
    const { progress, message } = describe(job);
    const value = Math.round(Math.min(1, Math.max(0, progress ?? 0)) * 100);
    if (value <= last) return;
    last = value;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: value, total: 100, message } }).catch(() => {});
  };
  // The state as the tool found it comes first, so a job already done reports its 100 too.
  report(first);
  if (seconds <= 0) return first;
  try {
    return await wait({ intervalMs: 2000, timeoutMs: seconds * 1000, signal: extra.signal, onPoll: report });
  } catch (err) {
    // A failed job, or one still running when the time is up, is answered as it was last seen.
    if (err instanceof CutroomError && err.status === null && err.extra && 'id' in err.extra) return err.extra as T;
    throw err;
  }
}
