/** Waits `ms` milliseconds; rejects with the signal's reason when it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A timer (no Node module: the browser entry uses it too). */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });

export interface RetryOptions {
  /** Retries after the first attempt (default 3). 0 turns retrying off. */
  retries?: number;
  /** First backoff delay, doubled at each retry (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait before a retry (default 30 s). A 429 whose `Retry-After` asks for longer is not retried: its error is thrown. */
  maxDelayMs?: number;
}

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function retryPolicy(o: RetryOptions = {}): RetryPolicy {
  return { retries: o.retries ?? 3, baseDelayMs: o.baseDelayMs ?? 500, maxDelayMs: o.maxDelayMs ?? 30_000 };
}

/** Exponential backoff with jitter: between half and all of `baseDelayMs * 2^attempt`, at most `maxDelayMs`. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(full / 2 + (random() * full) / 2);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before sending the request again, or undefined to answer `response` as it is:
 * 429 after its `Retry-After` (backoff without one); 5xx, and 409 REQUEST_IN_PROGRESS (an earlier try
 * with the same Idempotency-Key still running), after the backoff.
 */
async function retryDelay(response: Response, policy: RetryPolicy, attempt: number): Promise<number | undefined> {
  if (response.status === 429) {
    const asked = retryAfterMs(response.headers.get('retry-after'));
    if (asked === undefined) return backoffMs(policy, attempt);
    return asked <= policy.maxDelayMs ? asked : undefined;
  }
  if (response.status >= 500) return backoffMs(policy, attempt);
  if (response.status === 409) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { code?: unknown } | undefined;
    if (body?.code === 'REQUEST_IN_PROGRESS') return backoffMs(policy, attempt);
  }
  return undefined;
}

/**
 * A fetch that sends a request again after a 429, a 5xx, a 409 REQUEST_IN_PROGRESS or a network
 * failure, `policy.retries` times at most. Safe for POSTs because the client gives each one an
 * `Idempotency-Key` that every try repeats. An abort of the request's signal stops it at once.
 */
export function retryingFetch(base: (request: Request) => Promise<Response>, policy: RetryPolicy, sleep: Sleep): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.retries;
      let response: Response;
      try {
        response = await base(last ? request : request.clone());
      } catch (err) {
        if (last || request.signal.aborted) throw err;
        await sleep(backoffMs(policy, attempt), request.signal);
        continue;
      }
      const wait = last ? undefined : await retryDelay(response, policy, attempt);
      if (wait === undefined) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
