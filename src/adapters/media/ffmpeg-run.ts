import { spawn } from 'node:child_process';
import { once } from 'node:events';
import diagnostics from 'node:diagnostics_channel';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { runAtJobPriority } from '../workers/job-priority.js';
import { ffmpegPath } from './binaries.js';
import type { LocalMedia } from './container.js';

/**
 * The one place that spawns ffmpeg. Callers build their arguments with pure functions and pass them
 * here; the runner adds the global flags, streams `-progress` (on file descriptor 3, so stdout stays
 * free for raw frames), hands stderr line by line to the caller, keeps a tail of it for errors, and
 * enforces an AbortSignal and a timeout (SIGKILL).
 */

/**
 * Every finished run is published here as `FfmpegRunReport` (metrics subscribe in src/main; no
 * subscriber, no cost).
 */
export const FFMPEG_RUNS_CHANNEL = 'cutroom:ffmpeg-runs';
export interface FfmpegRunReport {
  seconds: number;
  ok: boolean;
}
const runs = diagnostics.channel(FFMPEG_RUNS_CHANNEL);

export type FfmpegLogLevel = 'quiet' | 'panic' | 'fatal' | 'error' | 'warning' | 'info' | 'verbose' | 'debug';

export interface FfmpegProgress {
  /** 0..1 of `durationSeconds`; 0 while unknown. 1 on `progress=end`. */
  fraction: number;
  /** Output time reached, in seconds. */
  outTimeSeconds: number;
  /** Encoding speed relative to real time (`1.5` for `speed=1.5x`), when ffmpeg reports it. */
  speed?: number;
  done: boolean;
}

export interface FfmpegRunOptions {
  /** Length of the output timeline in seconds, to turn `out_time` into a fraction. */
  durationSeconds?: number;
  onProgress?: (p: FfmpegProgress) => void;
  /** Every stderr line (without the line break); `\r` also ends a line. */
  onStderrLine?: (line: string) => void;
  /** Default `error`. Filters that report through the log (showinfo, ebur128) need `info`. */
  logLevel?: FfmpegLogLevel;
  signal?: AbortSignal;
  /** Kills ffmpeg after this long. Default: no limit. */
  timeoutMs?: number;
  /** How many trailing stderr lines an error carries. Default 30. */
  stderrTailLines?: number;
  /** `pipe` exposes stdout as a stream (raw frames); default `ignore`. */
  stdout?: 'ignore' | 'pipe';
  /** `pipe` exposes stdin as a stream (raw frames written by the caller, read with `-i pipe:0`); default `ignore`. */
  stdin?: 'ignore' | 'pipe';
  /** Overrides the binary (default: binaries.ts, `FFMPEG_PATH` or `ffmpeg` on PATH). */
  binary?: string;
}

export interface FfmpegResult {
  stderrTail: string[];
  elapsedMs: number;
}

export type FfmpegFailure = 'exit' | 'timeout' | 'aborted' | 'spawn';

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly reason: FfmpegFailure,
    readonly stderrTail: string[] = [],
    readonly exitCode: number | null = null,
    readonly exitSignal: string | null = null,
  ) {
    super(message);
    this.name = reason === 'aborted' ? 'AbortError' : 'FfmpegError';
  }
}

export interface FfmpegProcess {
  /** Raw stdout when `stdout: 'pipe'` was asked; reading slowly slows ffmpeg down (pipe back-pressure). */
  stdout: Readable | null;
  /** stdin when `stdin: 'pipe'` was asked (end it when the input is complete). */
  stdin?: Writable | null;
  /** Resolves when ffmpeg exits with 0; rejects with FfmpegError otherwise. */
  done: Promise<FfmpegResult>;
  /** Kills ffmpeg now (SIGKILL); `done` then rejects with reason `aborted`. */
  kill(): void;
}

/**
 * Feeds raw frames to an ffmpeg started with `stdin: 'pipe'` (`-i pipe:0`): `produce` calls `write` for
 * each frame (back-pressure honoured), then stdin is ended and ffmpeg's end awaited. When `produce`
 * throws, ffmpeg is killed (its exit awaited) and the error thrown again.
 */
export async function writeFrames(ff: FfmpegProcess, produce: (write: (frame: Uint8Array) => Promise<void>) => Promise<void>): Promise<FfmpegResult> {
  const stdin = ff.stdin!;
  try {
    await produce(async (frame) => {
      if (!stdin.write(frame)) await Promise.race([once(stdin, 'drain'), ff.done]);
    });
    stdin.end();
  } catch (err) {
    ff.kill();
    await ff.done.catch(() => undefined);
    throw err;
  }
  return ff.done;
}

/** The full argv: global flags first, then the caller's arguments (pure; unit-tested). */
export function buildFfmpegArgs(args: string[], opts: { logLevel?: FfmpegLogLevel; progress?: boolean } = {}): string[] {
  const out = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', opts.logLevel ?? 'error'];
  if (opts.progress ?? true) out.push('-progress', 'pipe:3');
  return [...out, ...args];
}

/**
 * Input arguments for a local file (pure): the demuxer forced to the container its bytes are
 * (`localMedia()` in container.ts: never a playlist or any demuxer that opens other inputs), only the
 * `file` protocol, and a `file:` prefix (a name starting with `-` or containing `:` stays a file name).
 */
export function localInputArgs(input: LocalMedia, extra: string[] = []): string[] {
  return ['-protocol_whitelist', 'file', ...extra, '-f', input.format, '-i', `file:${path.resolve(input.path)}`];
}

/** A stretch of an input, in seconds: [start, end). */
export interface InputRange {
  start: number;
  end: number;
}

/**
 * Input options that read only [start, end) of the next input (pure): `-ss` seeks (frames before
 * `start` are decoded and dropped, so the cut is exact) and `-t` stops reading, for every output of
 * the process; timestamps then count from `start`. None without a range. Jobs pass the stretch that
 * was measured and paid for, so a file can never make them process more (docs/storage.md).
 */
export function inputRangeArgs(range: InputRange | undefined): string[] {
  if (!range) return [];
  const { start, end } = range;
  if (!(Number.isFinite(start) && start >= 0 && Number.isFinite(end) && end > start)) throw new RangeError(`invalid input range ${start}..${end}`);
  const secs = (t: number) => String(Math.round(t * 1000) / 1000);
  return [...(start > 0 ? ['-ss', secs(start)] : []), '-t', secs(end - start)];
}

/**
 * Parses `-progress` output (key=value lines; a block ends with `progress=continue|end`). Stateful
 * but pure: feed it chunks of text, it calls `emit` once per completed block.
 */
export function createProgressParser(durationSeconds: number | undefined, emit: (p: FfmpegProgress) => void): (chunk: string) => void {
  let pending = '';
  let outUs: number | undefined;
  let speed: number | undefined;
  return (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      const eq = line.indexOf('=');
      if (eq <= 0) continue;
      const key = line.slice(0, eq);
      const value = line.slice(eq + 1).trim();
      if (key === 'out_time_us' || key === 'out_time_ms') {
        // Both are microseconds (`out_time_ms` is misnamed in ffmpeg); N/A before the first frame.
        const n = Number(value);
        if (Number.isFinite(n) && n >= 0) outUs = n;
      } else if (key === 'speed') {
        const n = Number.parseFloat(value);
        speed = Number.isFinite(n) ? n : undefined;
      } else if (key === 'progress') {
        const done = value === 'end';
        const outTimeSeconds = (outUs ?? 0) / 1e6;
        let fraction = durationSeconds && durationSeconds > 0 ? Math.min(1, outTimeSeconds / durationSeconds) : 0;
        if (done) fraction = 1;
        emit({ fraction, outTimeSeconds, ...(speed !== undefined ? { speed } : {}), done });
      }
    }
  };
}

/** Splits a text stream into lines on `\n` or `\r` (ffmpeg ends status lines with `\r`). */
export function createLineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      const parts = pending.split(/\r\n|\r|\n/);
      pending = parts.pop() ?? '';
      for (const p of parts) if (p !== '') onLine(p);
    },
    end() {
      if (pending !== '') onLine(pending);
      pending = '';
    },
  };
}

/** Starts ffmpeg; see FfmpegProcess. `args` are the caller's (inputs, filters, outputs). */
export function startFfmpeg(args: string[], opts: FfmpegRunOptions = {}): FfmpegProcess {
  const started = Date.now();
  const tailMax = opts.stderrTailLines ?? 30;
  const tail: string[] = [];
  let killedFor: FfmpegFailure | null = null;

  const argv = buildFfmpegArgs(args, { logLevel: opts.logLevel, progress: true });
  let bin: string;
  try {
    bin = opts.binary ?? ffmpegPath();
  } catch (err) {
    return { stdout: null, done: Promise.reject(new FfmpegError(String((err as Error).message), 'spawn')), kill() {} };
  }
  if (opts.signal?.aborted) {
    return { stdout: null, done: Promise.reject(new FfmpegError('ffmpeg aborted before start', 'aborted')), kill() {} };
  }
  const child = spawn(bin, argv, {
    env: process.env,
    stdio: [opts.stdin === 'pipe' ? 'pipe' : 'ignore', opts.stdout === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  runAtJobPriority(child);
  // A caller writing to stdin learns of ffmpeg's end through `done`, not through an EPIPE crash.
  child.stdin?.on('error', () => {});

  const kill = (why: FfmpegFailure) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killedFor ??= why;
    child.kill('SIGKILL');
  };

  const lines = createLineSplitter((line) => {
    tail.push(line);
    if (tail.length > tailMax) tail.shift();
    opts.onStderrLine?.(line);
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => lines.push(c));

  const progressStream = child.stdio[3] as Readable | null;
  if (progressStream) {
    const parse = createProgressParser(opts.durationSeconds, (p) => opts.onProgress?.(p));
    progressStream.setEncoding('utf8');
    progressStream.on('data', (c: string) => parse(c));
    progressStream.on('error', () => {});
  }

  const onAbort = () => kill('aborted');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = opts.timeoutMs ? setTimeout(() => kill('timeout'), opts.timeoutMs) : null;

  const done = new Promise<FfmpegResult>((resolve, reject) => {
    let spawnError: Error | null = null;
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code, sig) => {
      lines.end();
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      const elapsedMs = Date.now() - started;
      if (runs.hasSubscribers) runs.publish({ seconds: elapsedMs / 1000, ok: !spawnError && killedFor === null && code === 0 } satisfies FfmpegRunReport);
      if (spawnError) return reject(new FfmpegError(`ffmpeg could not start: ${spawnError.message}`, 'spawn', [...tail]));
      if (killedFor === 'timeout') return reject(new FfmpegError(`ffmpeg timed out after ${opts.timeoutMs} ms`, 'timeout', [...tail], code, sig));
      if (killedFor === 'aborted') return reject(new FfmpegError('ffmpeg aborted', 'aborted', [...tail], code, sig));
      if (code !== 0) {
        const last = tail.length ? tail[tail.length - 1] : '';
        return reject(new FfmpegError(`ffmpeg exited with ${code ?? sig}: ${last}`, 'exit', [...tail], code, sig));
      }
      resolve({ stderrTail: [...tail], elapsedMs });
    });
  });
  // A caller that only reads stdout must not crash the process with an unhandled rejection.
  done.catch(() => {});
  return { stdout: child.stdout ?? null, stdin: child.stdin ?? null, done, kill: () => kill('aborted') };
}

/** Runs ffmpeg to completion (stdout ignored). */
export function runFfmpeg(args: string[], opts: Omit<FfmpegRunOptions, 'stdout'> = {}): Promise<FfmpegResult> {
  return startFfmpeg(args, { ...opts, stdout: 'ignore' }).done;
}
