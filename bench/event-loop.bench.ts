import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoopStats } from './event-loop-server.js';
import { fixedRate } from './fixed-rate.js';
import { writeResults } from './results.js';
import { json, unlimitedKey } from './service-client.js';
import { cachedTalkVideo, type TalkVideo } from './talk-video.js';

/**
 * Does the API wait on job CPU work? One embedded `cutroom serve` process (bench/event-loop-server.ts:
 * the service with its event loop watched) is loaded with `GET /api/v1/balance` at a steady
 * $EVENT_LOOP_BENCH_RATE (200) requests/s (bench/fixed-rate.ts: open loop, latency from each request's
 * due time), first idle for 10 s, then while it runs a clipping submission of the generated talk
 * (bench/talk-video.ts, $BENCH_MINUTES minutes, default 4) from POST /clips to `completed`. Measured:
 * latency p50/p99/max and requests/s of the load; in the server, the time from a request's arrival
 * to its answer (p99/max), the event-loop delay (p50/p99/max) and utilisation; the load generator's
 * own loop delay. The baseline, loaded at the same time and rate from the same generator: a bare
 * Fastify route in its own process (bench/bare-fastify.ts), i.e. what any Node server gets from this
 * machine while the pipeline and renders fill its cores.
 *
 * Renders run beside the pipeline: before the measured phase a 1-minute talk is clipped (not measured),
 * and while the pipeline runs its clips are rendered one after another (each a different edit, so no
 * cache hit; 1080x1920 with captions, the default template), so the load meets both a pipeline and a
 * render, as the target asks. How many renders finished and how long one was running are printed.
 *
 * Twice in the same run, each on a fresh data directory: with CUTROOM_COMPUTE_THREADS=0 (face
 * detection, voice detection and diarization on the event loop: the code before the worker pool)
 * and with the default pool (one thread per core). Prints both and the ratio; writes
 * bench/results/event-loop.json. Target: p99 < 25 ms at 200 requests/s while the pipeline runs.
 *
 *   npm run bench -- event-loop        BENCH_MINUTES=4 EVENT_LOOP_BENCH_RATE=200 EVENT_LOOP_BENCH_NODE_ARGS=
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const MINUTES = Number(process.env.BENCH_MINUTES ?? 4);
const RATE = Number(process.env.EVENT_LOOP_BENCH_RATE ?? 200);
const CONNECTIONS = 10;
const IDLE_SECONDS = 10;
/** More Node options for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see what still runs on its event loop. */
const NODE_ARGS = (process.env.EVENT_LOOP_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const ADMIN_TOKEN = randomBytes(24).toString('base64url');
/** The bare Fastify route's process (bench/bare-fastify.ts), loaded beside the service as the baseline. */
let bareBase = '';

interface Load {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Answers other than 2xx and socket errors: 0 in a valid run. */
  failed: number;
  /** The load generator's own event-loop delay p99 (ms, 10 ms resolution): a late generator reads late answers. */
  generator_loop_p99_ms: number;
}

interface ModeResult {
  mode: string;
  compute_threads: string;
  idle: Load & { loop: LoopStats; bare: Load };
  pipeline: Load & { loop: LoopStats; bare: Load; seconds: number; status: string; renders: RenderStats };
}

interface RenderStats {
  /** Renders completed while the pipeline ran (the last one may have been cut short by its end). */
  completed: number;
  /** Seconds of the pipeline's run during which a render was queued or active. */
  rendering_seconds: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Our environment without any Cutroom setting, plus `extra`. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CUTROOM_') && k !== 'DATABASE_URL' && k !== 'PORT'));
  return { ...env, ...extra };
}

function nextMessage<T>(child: ChildProcess, type: string, timeoutMs = 120_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no ${type} message from the server within ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (m: { type?: string }) => m?.type === type && done(undefined, m as T);
    const onExit = (code: number | null) => done(new Error(`the server exited (${code}) before its ${type} message`));
    function done(err?: Error, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Uploads the video through the API and submits it; the submission's path under /clips. */
async function submit(base: string, key: string, video: TalkVideo): Promise<string> {
  const headers = { 'x-api-key': key };
  const name = path.basename(video.path);
  const up = await json('POST', `${base}/api/v1/videos/upload`, headers, {
    file_name: name,
    file_size: fs.statSync(video.path).size,
    content_type: 'video/mp4',
  });
  const put = await fetch(up.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: fs.readFileSync(video.path) });
  if (!put.ok) throw new Error(`PUT upload: ${put.status} ${await put.text()}`);
  await json('POST', `${base}/api/v1/videos/upload/complete`, headers, { video_id: up.video_id, file_name: name });
  const sub = await json('POST', `${base}/api/v1/clips`, headers, { video_id: up.video_id, source_language: 'en' });
  return `/clips/${up.video_id}/submissions/${sub.id}`;
}

/**
 * GET /api/v1/balance at RATE requests/s until `until` settles (or for `seconds`), and at the same time
 * the bare Fastify route (the baseline: what this machine under this load gives any Node server) at
 * the same rate from the same generator.
 */
async function load(base: string, key: string, until: Promise<unknown> | number): Promise<{ service: Load; bare: Load }> {
  const baseline = loadUrl(`${bareBase}/bare`, {}, until);
  const service = await loadUrl(`${base}/api/v1/balance`, { 'x-api-key': key }, until);
  return { service, bare: await baseline };
}

async function loadUrl(url: string, headers: Record<string, string>, until: Promise<unknown> | number): Promise<Load> {
  const generatorLoop = monitorEventLoopDelay({ resolution: 10 });
  generatorLoop.enable();
  const r = await fixedRate({ url, headers, rate: RATE, connections: CONNECTIONS, until });
  generatorLoop.disable();
  return { ...r, generator_loop_p99_ms: Math.round(generatorLoop.percentile(99) / 1e4) / 100 };
}

/** The clips of a completed submission, best first. */
async function clipsOf(base: string, key: string, at: string): Promise<string[]> {
  const r = await json('GET', `${base}/api/v1${at}/clips?sort=rating&order=desc&limit=50`, { 'x-api-key': key });
  return r.clips.map((c: { id: string }) => `${at}/clips/${c.id}/render`);
}

/** Renders the clips one after another until `stop` settles (each clip at most once). */
async function renderAlongside(base: string, key: string, renders: string[], stop: Promise<unknown>): Promise<RenderStats> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  let busyMs = 0;
  let completed = 0;
  for (const at of renders) {
    if (stopped) break;
    const started = performance.now();
    const r = await json('POST', `${base}/api/v1${at}`, { 'x-api-key': key });
    for (let status = r.status; !stopped && status !== 'completed';) {
      if (status === 'failed') throw new Error(`render ${r.id} failed: ${r.error_code}`);
      await new Promise((res) => setTimeout(res, 500));
      status = (await json('GET', `${base}/api/v1/renders/${r.id}`, { 'x-api-key': key })).status;
      if (status === 'completed') completed++;
    }
    busyMs += performance.now() - started;
  }
  return { completed, rendering_seconds: Math.round(busyMs / 100) / 10 };
}

async function waitForSubmission(base: string, key: string, at: string): Promise<string> {
  for (;;) {
    const s = await json('GET', `${base}/api/v1${at}`, { 'x-api-key': key });
    if (s.status === 'completed' || s.status === 'failed') return s.status === 'failed' ? `failed (${s.error_code ?? '?'})` : s.status;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** The load's own columns: rate and latency, and its failures when there were any. */
function bareLine(label: string, l: Load): string {
  return (
    `  ${label.padEnd(26)}${String(l.requests_per_s).padStart(6)} req/s  p50 ${String(l.p50_ms).padStart(5)} ms  p99 ${String(l.p99_ms).padStart(6)} ms  max ${String(l.max_ms).padStart(6)} ms` +
    (l.failed ? `   FAILED ${l.failed}` : '')
  );
}

/** The service's line: the load's columns, then what the server and the generator saw. */
function line(label: string, l: Load, loop: LoopStats): string {
  return (
    bareLine(label, { ...l, failed: 0 }) +
    `   in the server p99 ${String(loop.server_p99_ms).padStart(6)} ms  max ${String(loop.server_max_ms).padStart(6)} ms` +
    `   loop delay p99 ${String(loop.delay_p99_ms).padStart(7)} ms  max ${String(loop.delay_max_ms).padStart(7)} ms  busy ${(loop.utilisation * 100).toFixed(0).padStart(3)} %` +
    `   generator loop delay p99 ${l.generator_loop_p99_ms} ms` +
    (l.failed ? `   FAILED ${l.failed}` : '')
  );
}

/** Starts the bare Fastify route's process on a free port; resolves with it once it listens. */
async function startBare(): Promise<ChildProcess> {
  const port = await freePort();
  const child = fork(path.join(here, 'bare-fastify.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: childEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench/bare-fastify.ts exited (${code}) before listening`)));
    child.stdout!.once('data', () => resolve());
  });
  bareBase = `http://127.0.0.1:${port}`;
  return child;
}

async function runMode(mode: string, threads: string | undefined, video: TalkVideo, renderSource: TalkVideo): Promise<ModeResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-loop-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = fork(path.join(here, 'event-loop-server.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx', ...NODE_ARGS],
    env: childEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      CUTROOM_DATA_DIR: dataDir,
      CUTROOM_ADMIN_TOKEN: ADMIN_TOKEN,
      CUTROOM_LOG_LEVEL: 'warn',
      ...(threads === undefined ? {} : { CUTROOM_COMPUTE_THREADS: threads }),
    }),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    await nextMessage(child, 'ready');
    const key = await unlimitedKey(base, dataDir, ADMIN_TOKEN);
    const read = () => {
      const next = nextMessage<LoopStats>(child, 'loop');
      child.send({ type: 'read' });
      return next;
    };

    child.send({ type: 'reset' });
    const { service: idle, bare: idleBare } = await load(base, key, IDLE_SECONDS);
    const idleLoop = await read();
    console.log(line(`${mode}, idle`, idle, idleLoop));
    console.log(bareLine('  bare route, same time', idleBare));

    // Clips to render during the measured phase, from a short talk clipped first (not measured).
    const short = await submit(base, key, renderSource);
    const shortStatus = await waitForSubmission(base, key, short);
    if (shortStatus !== 'completed') throw new Error(`the short talk's submission ended ${shortStatus}`);
    const toRender = await clipsOf(base, key, short);

    const at = await submit(base, key, video);
    child.send({ type: 'reset' });
    const t0 = performance.now();
    const finished = waitForSubmission(base, key, at);
    const rendering = renderAlongside(base, key, toRender, finished);
    const { service: busy, bare: busyBare } = await load(base, key, finished);
    const status = await finished;
    const seconds = Math.round((performance.now() - t0) / 100) / 10;
    const busyLoop = await read();
    const renders = await rendering;
    console.log(
      line(`${mode}, pipeline + render`, busy, busyLoop) +
        `   (submission ${status} in ${seconds} s; ${renders.completed} renders completed, one running for ${renders.rendering_seconds} s of it)`,
    );
    console.log(bareLine('  bare route, same time', busyBare));
    return {
      mode,
      compute_threads: threads ?? String(os.availableParallelism()),
      idle: { ...idle, loop: idleLoop, bare: idleBare },
      pipeline: { ...busy, loop: busyLoop, bare: busyBare, seconds, status, renders },
    };
  } finally {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const video = await cachedTalkVideo({ minutes: MINUTES });
  const renderSource = await cachedTalkVideo({ minutes: 1 });
  console.log(
    `machine: ${os.availableParallelism()} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ` +
      `GET /api/v1/balance at ${RATE} requests/s over ${CONNECTIONS} connections; talk video ${video.duration.toFixed(0)} s (${video.width}x${video.height})`,
  );
  const bare = await startBare();
  let before: ModeResult, after: ModeResult;
  try {
    before = await runMode('on the event loop', '0', video, renderSource);
    after = await runMode('worker threads', undefined, video, renderSource);
  } finally {
    await stop(bare);
  }
  const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 1e-9)) * 10) / 10;
  const ratios = {
    p99_latency: ratio(before.pipeline.p99_ms, after.pipeline.p99_ms),
    max_latency: ratio(before.pipeline.max_ms, after.pipeline.max_ms),
    loop_delay_p99: ratio(before.pipeline.loop.delay_p99_ms, after.pipeline.loop.delay_p99_ms),
  };
  console.log(
    `\nwhile the pipeline and renders run, on the event loop ÷ worker threads: p99 latency ${ratios.p99_latency}x, max latency ${ratios.max_latency}x, event-loop delay p99 ${ratios.loop_delay_p99}x; ` +
      `worker threads p99 ${after.pipeline.p99_ms} ms (target < 25 ms), the bare route's at the same time ${after.pipeline.bare.p99_ms} ms`,
  );
  const file = writeResults('event-loop', { rate: RATE, connections: CONNECTIONS, video_seconds: Math.round(video.duration), runs: [before, after], ratios });
  console.log(`results: ${path.relative(root, file)}`);
}

await main();
