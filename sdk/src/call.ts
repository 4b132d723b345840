/**
 * What every call of the client shares: `ok()` (the typed data of an `api` call) and the options and
 * types of the resource methods generated into resources.ts.
 */

/**
 * The data of a call of `cutroom.api`. The client throws a CutroomError for every error answer, so a
 * call that returns has succeeded; this unwraps its typed `data`.
 */
export async function ok<R extends { data?: unknown }>(call: Promise<R>): Promise<Exclude<R['data'], undefined>> {
  return (await call).data as Exclude<R['data'], undefined>;
}

/** The options of every resource method. */
export interface CallOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
}

/** The options of a resource method that POSTs. */
export interface PostOptions extends CallOptions {
  /**
   * The call's `Idempotency-Key` (default: a fresh random one, repeated by the call's retries). Pass
   * your own to make a call you may repeat later (after a crash) create or charge once.
   */
  idempotencyKey?: string;
}

/** openapi-fetch's init of a call made with `opts`. */
export function callInit(opts: PostOptions | undefined): { signal?: AbortSignal; headers?: Record<string, string> } {
  if (!opts) return {};
  return { signal: opts.signal, ...(opts.idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': opts.idempotencyKey } }) };
}

type JsonOf<R> = R extends { content: { 'application/json': infer D } } ? D : never;

/** The JSON answer of an operation (`operations['getRender']`): the union of its 2xx JSON bodies. */
export type Answer<O extends { responses: object }> = {
  [S in keyof O['responses']]: S extends 200 | 201 | 202 | 203 ? JsonOf<O['responses'][S]> : never;
}[keyof O['responses']];
