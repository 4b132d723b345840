import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { deserializeError, type ResultMessage, type TaskContext, type TaskMessage } from './worker-protocol.js';

/**
 * A small pool of worker threads for CPU-heavy adapter work (face detection, voice detection,
 * diarization), so that the event loop only coordinates. Each thread loads the `entry` module once
 * (worker-thread.ts) and runs one task at a time: `run('name', payload)` calls the entry's exported
 * function `name` in a free thread (threads start on demand, up to `threads`; tasks wait in order).
 *
 * - A task that throws rejects its call with the same error (name, message, `code` and the other
 *   plain fields, the thread's stack); the thread stays.
 * - A thread that dies (an uncaught error, `process.exit`) rejects the task it was running; the next
 *   task gets a new thread.
 * - Big buffers cross without a copy when listed in `transfer` (they are detached on the caller's side).
 * - An idle thread does not keep the process alive; `close()` ends every thread and rejects what waits.
 *   A thread is not ended in the middle of a task: a native engine whose thread goes away under a
 *   running call (onnxruntime's asynchronous `run`) aborts the whole process. close() asks running tasks
 *   to stop (their signal) and ends each thread once its task has returned (or after `closeTimeoutMs`).
 * - With `priority`, the threads run below the event loop's thread when the CPU is short.
 *
 * Built on node:worker_threads rather than a pool library because a thread must be able to load
 * TypeScript sources (tests, tsx) as well as the compiled `dist/`: Node 20 ignores `--import` in a
 * worker's execArgv, so the thread is started from a tiny bootstrap that registers tsx first when the
 * entry is a `.ts` file; the libraries start threads from their own entry file.
 */

export interface WorkerPoolOptions {
  /** The module whose exported functions are the tasks (a `file:` URL; `.ts` under tsx/vitest, `.js` in dist). */
  entry: URL;
  /** Most threads at once. Default os.availableParallelism(). */
  threads?: number;
  /** Thread name prefix, seen in debuggers and heap snapshots. */
  name?: string;
  /**
   * The threads' scheduling priority (nice value, e.g. os.constants.priority.PRIORITY_BELOW_NORMAL), so
   * that the event loop's thread gets a busy CPU first; Linux only (per-thread niceness), ignored elsewhere.
   */
  priority?: number;
  /** How long close() lets a running task stop by itself before its thread is ended anyway. Default 10 s. */
  closeTimeoutMs?: number;
}

export interface RunOptions {
  /** ArrayBuffers moved to the thread (detached here). */
  transfer?: ArrayBuffer[];
  /** Rejects with the signal's reason: at once while waiting, after the task's next check while running. */
  signal?: AbortSignal;
}

/** A task function of an entry module, for typing `run` by the function it calls. */
export type WorkerTask = (payload: never, ctx: TaskContext) => unknown;

interface Pending {
  id: number;
  method: string;
  payload: unknown;
  transfer: ArrayBuffer[];
  signal?: AbortSignal;
  /** Set to 1 to ask the running task to stop (the caller's signal, or close()). */
  abort: Int32Array;
  settled: boolean;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  cleanup(): void;
}

interface Thread {
  worker: Worker;
  task?: Pending;
  /** While closing: called when the thread's task has returned or the thread is gone. */
  onIdle?: () => void;
}

export class WorkerPoolClosedError extends Error {
  constructor() {
    super('worker pool is closed');
    this.name = 'WorkerPoolClosedError';
  }
}

/**
 * Registers tsx in the thread when a `.ts` module is to be loaded, then loads the thread's code. Only
 * dynamic imports, so that it runs as a script or as a module (a parent started with --input-type=module).
 */
const BOOTSTRAP = `
import('node:worker_threads')
  .then(async ({ workerData }) => {
    if (workerData.tsx) (await import(workerData.tsx)).register();
    await import(workerData.thread);
  })
  .catch((err) => process.nextTick(() => { throw err; }));
`;

export class WorkerPool {
  readonly size: number;
  private readonly threads = new Set<Thread>();
  private readonly idle: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {
    this.size = Math.max(1, opts.threads ?? os.availableParallelism());
  }

  /** Threads running now (started on demand, ended by close or by a crash). */
  get threadCount(): number {
    return this.threads.size;
  }

  /** Calls the entry's exported function `method` with `payload` in a free thread. */
  run<F extends WorkerTask>(method: string, payload: Parameters<F>[0], opts: RunOptions = {}): Promise<Awaited<ReturnType<F>>> {
    if (this.closed) return Promise.reject(new WorkerPoolClosedError());
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const task: Pending = {
        id: this.nextId++,
        method,
        payload,
        transfer: opts.transfer ?? [],
        signal,
        abort: new Int32Array(new SharedArrayBuffer(4)),
        settled: false,
        resolve: (v) => resolve(v as Awaited<ReturnType<F>>),
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      const onAbort = () => {
        const waiting = this.queue.indexOf(task);
        if (waiting >= 0) {
          this.queue.splice(waiting, 1);
          this.settle(task, () => reject(signal!.reason));
        } else {
          Atomics.store(task.abort, 0, 1);
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  /** Ends every thread (models and all) and rejects the tasks still running or waiting. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) this.settle(task, () => task.reject(new WorkerPoolClosedError()));
    await Promise.all([...this.threads].map((t) => this.end(t)));
    this.threads.clear();
    this.idle.length = 0;
  }

  /** Ends a thread between tasks: a running task is rejected at once, asked to stop, and awaited (bounded). */
  private async end(t: Thread): Promise<void> {
    const task = t.task;
    if (task) {
      const between = new Promise<void>((resolve) => (t.onIdle = resolve));
      Atomics.store(task.abort, 0, 1);
      this.settle(task, () => task.reject(new WorkerPoolClosedError()));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([between, new Promise((resolve) => (timer = setTimeout(resolve, this.opts.closeTimeoutMs ?? 10_000)))]);
      clearTimeout(timer);
    }
    await t.worker.terminate();
  }

  /** Resolves or rejects a task once. */
  private settle(task: Pending, fn: () => void): void {
    if (task.settled) return;
    task.settled = true;
    task.cleanup();
    fn();
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const thread = this.idle.pop() ?? (this.threads.size < this.size ? this.spawn() : undefined);
      if (!thread) return;
      const task = this.queue.shift()!;
      thread.task = task;
      thread.worker.ref();
      const msg: TaskMessage = { id: task.id, method: task.method, payload: task.payload, abort: task.abort };
      try {
        thread.worker.postMessage(msg, task.transfer);
      } catch (err) {
        // The payload could not be cloned: the thread never saw the task.
        thread.task = undefined;
        this.release(thread);
        this.settle(task, () => task.reject(err));
      }
    }
  }

  private spawn(): Thread {
    const here = import.meta.url;
    const thread = new URL(`./worker-thread${here.endsWith('.ts') ? '.ts' : '.js'}`, here);
    const needsTsx = [thread, this.opts.entry].some((u) => u.pathname.endsWith('.ts'));
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      name: `${this.opts.name ?? 'cutroom-worker'}-${this.threads.size + 1}`,
      workerData: {
        thread: thread.href,
        entry: this.opts.entry.href,
        priority: this.opts.priority,
        tsx: needsTsx ? import.meta.resolve('tsx/esm/api') : undefined,
      },
    });
    const t: Thread = { worker };
    worker.on('message', (msg: ResultMessage) => this.onResult(t, msg));
    worker.on('error', (err) => this.onCrash(t, err));
    worker.on('exit', (code) => this.onCrash(t, new Error(`worker thread exited with code ${code}`)));
    this.threads.add(t);
    return t;
  }

  private onResult(t: Thread, msg: ResultMessage): void {
    const task = t.task;
    if (!task || task.id !== msg.id) return;
    t.task = undefined;
    if (t.onIdle) return t.onIdle();
    this.release(t);
    this.settle(task, () => {
      if (task.signal?.aborted) task.reject(task.signal.reason);
      else if (msg.ok) task.resolve(msg.value);
      else task.reject(deserializeError(msg.error));
    });
    this.dispatch();
  }

  /** The thread is gone (an uncaught error, then its exit): its task fails, a new thread takes the queue. */
  private onCrash(t: Thread, cause: Error): void {
    if (!this.threads.delete(t)) return;
    const at = this.idle.indexOf(t);
    if (at >= 0) this.idle.splice(at, 1);
    const task = t.task;
    t.task = undefined;
    if (task) this.settle(task, () => task.reject(new Error(`worker thread failed during ${task.method}: ${cause.message}`, { cause })));
    t.onIdle?.();
    void t.worker.terminate();
    this.dispatch();
  }

  private release(t: Thread): void {
    t.worker.unref();
    if (this.threads.has(t)) this.idle.push(t);
  }
}
