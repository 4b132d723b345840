/** Small timing helpers shared by every HTTP client of the service (ASR, downloads, publishing). */

/**
 * A `Retry-After` value (delta-seconds, or an HTTP date such as `Wed, 21 Oct 2026 07:28:00 GMT`) as
 * seconds from `nowMs`, never negative; undefined when absent or unreadable.
 */
export function retryAfterSeconds(value: string | string[] | null | undefined, nowMs = Date.now()): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (!/^[A-Za-z]{3},? /.test(raw)) return undefined; // an HTTP date starts with the day name
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, (at - nowMs) / 1000) : undefined;
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
