import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool, WorkerPoolClosedError } from '../../src/adapters/workers/worker-pool.js';
import type * as Tasks from '../fixtures/workers/tasks.worker.js';
import { ROOT } from '../helpers/process.js';
import { makeSpeechWav } from '../helpers/speech-fixtures.js';

/**
 * The worker-thread pool behind the face, voice and diarization adapters, on fixture tasks
 * (test/fixtures/workers/tasks.worker.ts): threads on demand, errors that keep their fields, threads
 * that die without taking the pool with them, moved buffers, abort, close. Then real processes: one
 * must end by itself once its pool is closed, from the TypeScript sources and from tsc's output.
 */

const entry = new URL('../fixtures/workers/tasks.worker.ts', import.meta.url);
let pool: WorkerPool;

beforeAll(() => {
  pool = new WorkerPool({ entry, threads: 2 });
});

afterAll(async () => {
  await pool?.close();
});

describe('WorkerPool', () => {
  it('starts threads on demand, at most `threads`, and runs tasks side by side', async () => {
    const fresh = new WorkerPool({ entry, threads: 2 });
    try {
      expect(fresh.threadCount).toBe(0);
      const held = await Promise.all([1, 2, 3].map(() => fresh.run<typeof Tasks.hold>('hold', 150)));
      expect(fresh.threadCount).toBe(2);
      expect(new Set(held.map((h) => h.threadId)).size).toBe(2);
      expect(await fresh.run<typeof Tasks.echo>('echo', { a: [1, 'two'] })).toMatchObject({ payload: { a: [1, 'two'] } });
    } finally {
      await fresh.close();
    }
  });

  it('rejects a task that throws with the same error (class, message, code), and the thread stays', async () => {
    const before = await pool.run<typeof Tasks.echo>('echo', null);
    const err = await pool.run<typeof Tasks.fail>('fail', 'bad input').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RangeError);
    expect(err).toMatchObject({ message: 'bad input', code: 'FIXTURE_FAILED', retryable: true });
    expect((err as Error).stack).toContain('tasks.worker.ts');
    const after = await pool.run<typeof Tasks.echo>('echo', null);
    expect(after.threadId).toBe(before.threadId);
  });

  it('rejects the call when its thread dies (uncaught error, process.exit) and keeps serving on a new thread', async () => {
    const before = await pool.run<typeof Tasks.echo>('echo', null);
    await expect(pool.run<typeof Tasks.crash>('crash', 'boom in the thread')).rejects.toThrow(/worker thread failed during crash: boom in the thread/);
    await expect(pool.run<typeof Tasks.exit>('exit', 7)).rejects.toThrow(/worker thread failed during exit: worker thread exited with code 7/);
    const after = await Promise.all([pool.run<typeof Tasks.echo>('echo', 1), pool.run<typeof Tasks.echo>('echo', 2)]);
    expect(after.map((a) => a.payload)).toEqual([1, 2]);
    expect(after.every((a) => a.threadId !== before.threadId)).toBe(true);
    expect(pool.threadCount).toBeLessThanOrEqual(2);
  });

  it.runIf(process.platform === 'linux')('runs its threads at the given priority, the event loop thread keeping its own', async () => {
    const low = new WorkerPool({ entry, threads: 1, priority: 10 });
    try {
      expect(await low.run<typeof Tasks.priorities>('priorities', undefined)).toEqual({ thread: 10, process: os.getPriority() });
      expect((await pool.run<typeof Tasks.priorities>('priorities', undefined)).thread).toBe(os.getPriority());
    } finally {
      await low.close();
    }
  });

  it('names a task the entry does not have', async () => {
    await expect(pool.run<typeof Tasks.echo>('nope', null)).rejects.toThrow(/has no task nope/);
  });

  it('moves a transferred buffer to the thread (detached here) and copies one that is not', async () => {
    const data = new Uint8Array(1 << 20).fill(3);
    expect(await pool.run<typeof Tasks.sum>('sum', data, { transfer: [data.buffer] })).toBe(3 << 20);
    expect(data.byteLength).toBe(0);
    const kept = new Uint8Array([1, 2, 3]);
    expect(await pool.run<typeof Tasks.sum>('sum', kept)).toBe(6);
    expect(kept.byteLength).toBe(3);
  });

  it('rejects with the signal reason: at once when already aborted, while running after the task checks it', async () => {
    const ac = new AbortController();
    ac.abort(new Error('too late'));
    await expect(pool.run<typeof Tasks.echo>('echo', null, { signal: ac.signal })).rejects.toThrow('too late');

    const running = new AbortController();
    const spin = pool.run<typeof Tasks.spin>('spin', null, { signal: running.signal });
    setTimeout(() => running.abort(new Error('stop spinning')), 100);
    await expect(spin).rejects.toThrow('stop spinning');
    expect((await pool.run<typeof Tasks.echo>('echo', 'still here')).payload).toBe('still here');
  });

  it('close() stops a running task through its signal, then ends its thread', async () => {
    const closing = new WorkerPool({ entry, threads: 1 });
    const spin = closing.run<typeof Tasks.spin>('spin', null).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    await closing.close();
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(closing.threadCount).toBe(0);
    expect(await spin).toBeInstanceOf(WorkerPoolClosedError);
  });

  it('close() ends the threads and rejects what runs, what waits and what comes after', async () => {
    const closing = new WorkerPool({ entry, threads: 1, closeTimeoutMs: 200 });
    const running = closing.run<typeof Tasks.hold>('hold', 60_000).catch((e: unknown) => e);
    const waiting = closing.run<typeof Tasks.echo>('echo', null).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    expect(closing.threadCount).toBe(1);
    await closing.close();
    expect(closing.threadCount).toBe(0);
    expect(await running).toBeInstanceOf(WorkerPoolClosedError);
    expect(await waiting).toBeInstanceOf(WorkerPoolClosedError);
    await expect(closing.run<typeof Tasks.echo>('echo', null)).rejects.toBeInstanceOf(WorkerPoolClosedError);
  });
});

/** Runs `node <args>` and resolves with its exit code and output, or fails after `timeoutMs`. */
function runNode(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} still running after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

describe('a process with a pool', () => {
  const child = path.join(ROOT, 'test/fixtures/workers/close-child.ts');
  let dir: string;
  let wav: string;

  beforeAll(async () => {
    // Inside the repository (.tmp/ is ignored by git), so that compiled files find node_modules.
    fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    dir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'worker-pool-'));
    wav = (await makeSpeechWav(path.join(dir, 'speech.wav'), [{ silence: 0.5 }, { say: 'One short sentence to find.', voice: 'en-us+m3' }, { silence: 0.5 }]))
      .path;
  });

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends by itself once close() has ended a thread that was still busy', async () => {
    const r = await runNode(['--import', 'tsx', child, 'busy'], 30_000);
    expect(r.out).toContain('held task: WorkerPoolClosedError; threads: 0');
    expect(r.code).toBe(0);
  });

  it('closes while Silero runs in a thread: the detection is rejected, the process lives and ends', async () => {
    const long = await makeSpeechWav(path.join(dir, 'long.wav'), [{ silence: 900 }, { say: 'At the very end.', voice: 'en-us+m3' }, { silence: 0.5 }]);
    const r = await runNode(['--import', 'tsx', child, 'closing', wav, long.path], 60_000);
    expect(r.out).toContain('running detection: WorkerPoolClosedError; closed');
    expect(r.code).toBe(0);
  });

  it('runs the real engines in threads from the TypeScript sources, then ends once closed', async () => {
    const r = await runNode(['--import', 'tsx', child, 'compute', wav], 60_000);
    expect(r.out).toMatch(/human-blazeface\/wasm: 0 faces, 1 speech segments, 1 turns; closed/);
    expect(r.code).toBe(0);
  });

  it('runs them from tsc output (as dist/ does) with plain node, then ends once closed', async () => {
    const out = path.join(dir, 'dist');
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const src = (f: string) => path.join(ROOT, 'src', f);
    // The project's compiler options (tsconfig.json), on the pool's module graph only.
    const build = await runNode(
      [
        tsc,
        '--outDir',
        out,
        '--rootDir',
        src(''),
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--strict',
        '--skipLibCheck',
        '--types',
        'node',
        src('main/compute.wiring.ts'),
        src('adapters/workers/compute.worker.ts'),
        src('adapters/workers/worker-thread.ts'),
      ],
      120_000,
    );
    expect(build.out).toBe('');
    const script = `
      const { createCompute } = await import(${JSON.stringify(path.join(out, 'main/compute.wiring.js'))});
      const compute = createCompute(2);
      const detector = await compute.faces();
      const boxes = await detector.detect({ width: 64, height: 48, data: new Uint8Array(64 * 48 * 3) });
      const speech = await compute.vad.detect(${JSON.stringify(wav)});
      const turns = await compute.diarizer.diarize(${JSON.stringify(wav)}, speech);
      await compute.close();
      console.log(detector.name + ': ' + boxes.length + ' faces, ' + speech.length + ' speech segments, ' + turns.length + ' turns; closed');
    `;
    const r = await runNode(['--input-type=module', '-e', script], 60_000);
    expect(r.out).toMatch(/human-blazeface\/wasm: 0 faces, 1 speech segments, 1 turns; closed/);
    expect(r.code).toBe(0);
  }, 180_000);
});
