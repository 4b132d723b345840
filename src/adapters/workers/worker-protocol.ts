/**
 * The messages between a WorkerPool (worker-pool.ts) and its threads (worker-thread.ts), and how an
 * error crosses: structured cloning keeps an Error's message but drops its class and its own fields
 * (`code`, `reason`, …), so errors travel as plain objects and are rebuilt on the other side.
 */

/** Main thread → worker: run the entry's exported function `method` on `payload`. */
export interface TaskMessage {
  id: number;
  method: string;
  payload: unknown;
  /** Set to 1 by the main thread when the caller aborts (a SharedArrayBuffer, seen at once by the thread). */
  abort?: Int32Array;
}

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own fields that are strings, numbers or booleans (`code`, `reason`, `retryable`, …). */
  fields: Record<string, string | number | boolean>;
}

/** Worker → main thread: the task's value, or the error it threw. */
export type ResultMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

/** What a task function receives beside its payload. */
export interface TaskContext {
  /** Aborted when the caller's signal is (checked between steps, as the in-thread adapters do). */
  signal?: AbortSignal;
}

/** Anything thrown, as a plain object that survives postMessage (pure). */
export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: SerializedError['fields'] = {};
  for (const [k, v] of Object.entries(err)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = v;
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

const BUILTIN: Record<string, new (message: string) => Error> = { RangeError, TypeError, SyntaxError };

/** The error again, with its name, message, fields and the thread's stack (pure). */
export function deserializeError(e: SerializedError): Error {
  const err = new (BUILTIN[e.name] ?? Error)(e.message);
  if (err.name !== e.name) err.name = e.name;
  Object.assign(err, e.fields);
  if (e.stack) err.stack = e.stack;
  return err;
}
