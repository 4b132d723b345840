import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError, type ResultMessage, type TaskContext, type TaskMessage } from './worker-protocol.js';

/**
 * Runs inside each thread of a WorkerPool: loads the pool's entry module once, then runs the tasks
 * the pool posts, one at a time, by calling the entry's exported function of that name. Whatever
 * the entry keeps in module state (a loaded model) stays for the thread's life.
 */

type TaskFunction = (payload: unknown, ctx: TaskContext) => unknown;

const port = parentPort;
if (!port) throw new Error('worker-thread.ts runs inside a worker thread only');
const { entry, priority } = workerData as { entry: string; priority?: number };

/** Linux gives each thread its own niceness: setpriority on the thread's id (from /proc) changes this thread only. */
function setThreadPriority(value: number): void {
  try {
    const tid = Number(fs.readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, value);
  } catch {
    // Not Linux: the thread keeps the process's priority.
  }
}

if (priority !== undefined) setThreadPriority(priority);
const tasks = (await import(entry)) as Record<string, unknown>;

/** An AbortSignal that follows the shared flag (polled: the thread may be busy between steps). */
function watch(flag: Int32Array): { signal: AbortSignal; stop(): void } {
  const ac = new AbortController();
  const check = () => {
    if (Atomics.load(flag, 0) !== 0) ac.abort(new Error('aborted'));
  };
  check();
  const timer = setInterval(check, 25);
  return { signal: ac.signal, stop: () => clearInterval(timer) };
}

function reply(msg: ResultMessage): void {
  try {
    port!.postMessage(msg);
  } catch (err) {
    // The value could not be cloned (a function, a class instance with private state, …).
    port!.postMessage({ id: msg.id, ok: false, error: serializeError(err) } satisfies ResultMessage);
  }
}

port.on('message', async ({ id, method, payload, abort }: TaskMessage) => {
  const abortWatch = abort ? watch(abort) : undefined;
  try {
    const fn = tasks[method];
    if (typeof fn !== 'function') throw new Error(`worker entry ${entry} has no task ${method}`);
    const value = await (fn as TaskFunction)(payload, { signal: abortWatch?.signal });
    reply({ id, ok: true, value });
  } catch (err) {
    reply({ id, ok: false, error: serializeError(err) });
  } finally {
    abortWatch?.stop();
  }
});
