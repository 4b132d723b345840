import { CutroomError, errorReason } from '@cutroom/sdk/browser';

/**
 * A code in words, with what its `extra` says (the values a field takes, the minimum duration, why a
 * link was refused…): the SDK's one table of reasons, shared with the CLI. The code itself is shown
 * beside the words where a person may need it for a bug report.
 */
export function codeInWords(code: string, extra: Record<string, unknown> = {}): string {
  return errorReason(code, extra);
}

/** Any error the Studio meets, as one sentence (an API error: its reason, then its code). */
export function describe(err: unknown): string {
  if (err instanceof CutroomError) return `${err.reason} (${err.code})`;
  if (err instanceof DOMException && err.name === 'AbortError') return 'Stopped.';
  if (err instanceof TypeError) return 'The service could not be reached: check the connection and try again.';
  return err instanceof Error ? err.message : String(err);
}
