import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { machineTicks, processCpuSeconds } from './cpu.js';
import { writeResults } from './results.js';
import { unlimitedKey } from './service-client.js';

/**
 * API speed: requests/s and latency of `GET /api/v1/balance` on real `cutroom serve` processes,
 * against a bare Fastify route measured in the same run (the baseline: what Node and Fastify give on
 * this machine) and `GET /healthz` (Fastify plus the service's hooks, no database):
 *
 *   - embedded: one `serve` process on a fresh data directory (PGlite);
 *   - PostgreSQL: a scratch database on $BENCH_PG_URL, one `serve --role api` process, then two
 *     processes on two ports hit at once by two load generators (summed); with the rate-limit
 *     counters in Redis ($BENCH_REDIS_URL) and again in PostgreSQL (CUTROOM_RATE_LIMIT_STORE=database).
 *
 * $API_BENCH_STORES (redis,database) chooses the stores (empty: the embedded runs only);
 * $API_BENCH_NODE_ARGS adds Node options to the `serve` processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 *
 * Every run: $API_BENCH_CONNECTIONS (32) keep-alive connections (one for the embedded run of /balance
 * so named) for $API_BENCH_SECONDS (5) s after a 1 s warm-up, one key on a plan with an unlimited rate (set through the admin API). Loopback only.
 * Prints requests/s, p50 and p99, the serving processes' CPU time per request, and the ratios to the
 * bare route; writes bench/results/api.json.
 *
 *   npm run bench -- api
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const SECONDS = Math.max(1, Number(process.env.API_BENCH_SECONDS ?? 5));
const CONNECTIONS = Math.max(1, Number(process.env.API_BENCH_CONNECTIONS ?? 32));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Where the PostgreSQL runs keep the rate-limit counters, one pair of runs each: redis, database. */
const STORES = (process.env.API_BENCH_STORES ?? 'redis,database')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean) as Array<'redis' | 'database'>;
const ADMIN_TOKEN = randomBytes(24).toString('base64url');
/** More Node options for the `serve` processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (a profile per process, written at exit). */
const NODE_ARGS = (process.env.API_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

interface Measured {
  name: string;
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  /** Answers other than 2xx, and socket errors and timeouts: 0 in a valid run. */
  failed: number;
  /**
   * CPU time of the serving processes per answered request (user + system, PostgreSQL and Redis not
   * included): unlike requests/s, it hardly depends on what else the machine is running.
   */
  server_cpu_us_per_request: number | null;
  /** CPU time of this process (the load generators) per answered request. */
  load_generator_cpu_us_per_request: number;
  /** How busy the whole machine was during the measured run (all cores: 1 = every core busy). */
  machine_busy: number | null;
  ratio_to_bare?: number;
}

const children: ChildProcess[] = [];

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

/** The environment of a child: ours without any Cutroom setting, plus `extra`. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CUTROOM_') && k !== 'DATABASE_URL' && k !== 'PORT'));
  return { ...env, ...extra };
}

function start(args: string[], env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, ...args], { cwd: root, env: childEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
  child.on('exit', (code, signal) => {
    if (code && !signal) process.stderr.write(`bench child ${args.join(' ')} exited ${code}: ${err}\n`);
  });
  children.push(child);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the process for ${url} exited (${child.exitCode}) before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Starts `cutroom serve` from the sources on a free port; resolves once /healthz answers. */
async function serve(role: 'all' | 'api', env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = start(
    ['src/main/cli.ts', 'serve', '--role', role],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      CUTROOM_ADMIN_TOKEN: ADMIN_TOKEN,
      CUTROOM_LOG_LEVEL: 'warn',
      ...env,
    },
    NODE_ARGS,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`, child);
  return { base, child };
}

function run(url: string, headers: Record<string, string>, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  return autocannon({ url, headers, connections, duration: seconds });
}

/** CPU seconds the processes have used so far; null where /proc cannot tell. */
function cpuOf(servers: ChildProcess[]): number | null {
  const each = servers.map((c) => processCpuSeconds(c.pid!));
  return each.some((c) => c === null) ? null : (each as number[]).reduce((a, b) => a + b, 0);
}

/**
 * A 1 s warm-up, then the measured runs, one per URL, all at once; requests/s summed, latency of the
 * first; `servers` are the processes answering (their CPU time is taken around the measured runs).
 */
async function measure(
  name: string,
  urls: string[],
  servers: ChildProcess[],
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
): Promise<Measured> {
  await Promise.all(urls.map((u) => run(u, headers, 1, connections)));
  const cpu0 = cpuOf(servers);
  const own0 = process.cpuUsage();
  const ticks0 = machineTicks();
  const results = await Promise.all(urls.map((u) => run(u, headers, SECONDS, connections)));
  const cpu1 = cpuOf(servers);
  const own = process.cpuUsage(own0);
  const ticks1 = machineTicks();
  const answered = results.reduce((s, r) => s + r['2xx'], 0);
  const m: Measured = {
    name,
    requests_per_s: Math.round(results.reduce((s, r) => s + r.requests.average, 0)),
    p50_ms: results[0].latency.p50,
    p99_ms: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts, 0),
    server_cpu_us_per_request: cpu0 === null || cpu1 === null || answered === 0 ? null : Math.round(((cpu1 - cpu0) * 1e6) / answered),
    load_generator_cpu_us_per_request: Math.round((own.user + own.system) / Math.max(answered, 1)),
    machine_busy: ticks0 && ticks1 ? Math.round(((ticks1.busy - ticks0.busy) / Math.max(ticks1.total - ticks0.total, 1)) * 100) / 100 : null,
  };
  const cpu =
    (m.server_cpu_us_per_request === null ? '' : `   server CPU ${String(m.server_cpu_us_per_request).padStart(5)} µs/req`) +
    `   load generator ${String(m.load_generator_cpu_us_per_request).padStart(4)} µs/req` +
    (m.machine_busy === null ? '' : `   machine busy ${String(Math.round(m.machine_busy * 100)).padStart(3)} %`);
  console.log(
    `  ${name.padEnd(72)}${String(m.requests_per_s).padStart(8)} req/s   p50 ${String(m.p50_ms).padStart(5)} ms   p99 ${String(m.p99_ms).padStart(6)} ms${cpu}${m.failed ? `   FAILED ${m.failed}` : ''}`,
  );
  return m;
}

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cutroom_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** One api process, then two, on one scratch database; `store` is where the rate-limit counters live. */
async function postgresRuns(store: 'redis' | 'database'): Promise<{ single: Measured; pair: Measured }> {
  const db = await scratchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-api-'));
  const env: Record<string, string> = { DATABASE_URL: db.url, CUTROOM_DATA_DIR: dataDir, CUTROOM_RATE_LIMIT_STORE: store };
  if (store === 'redis') env.CUTROOM_REDIS_URL = REDIS_URL;
  const started: ChildProcess[] = [];
  try {
    const one = await serve('api', env);
    started.push(one.child);
    const key = await unlimitedKey(one.base, dataDir, ADMIN_TOKEN);
    const headers = { 'x-api-key': key };
    const label = store === 'redis' ? 'rate limits in Redis' : 'rate limits in PostgreSQL';
    const single = await measure(`GET /api/v1/balance, PostgreSQL, 1 api process, ${label}`, [`${one.base}/api/v1/balance`], [one.child], headers);
    const two = await serve('api', env);
    started.push(two.child);
    const pair = await measure(
      `GET /api/v1/balance, PostgreSQL, 2 api processes, ${label}`,
      [`${one.base}/api/v1/balance`, `${two.base}/api/v1/balance`],
      [one.child, two.child],
      headers,
    );
    return { single, pair };
  } finally {
    await Promise.all(started.map(stop));
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}, load average at start ${load()} (1, 5, 15 min)`);
  console.log(`${CONNECTIONS} keep-alive connections, ${SECONDS} s per run after a 1 s warm-up\n`);
  const out: Measured[] = [];

  const barePort = await freePort();
  const bare = start(['bench/bare-fastify.ts'], { PORT: String(barePort) });
  await waitFor(`http://127.0.0.1:${barePort}/bare`, bare);
  const baseline = await measure('bare Fastify route (baseline)', [`http://127.0.0.1:${barePort}/bare`], [bare]);
  out.push(baseline);
  await stop(bare);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-api-'));
  try {
    const embedded = await serve('all', { CUTROOM_DATA_DIR: dataDir });
    const key = await unlimitedKey(embedded.base, dataDir, ADMIN_TOKEN);
    out.push(await measure('GET /healthz, embedded', [`${embedded.base}/healthz`], [embedded.child]));
    out.push(await measure('GET /api/v1/balance, embedded (PGlite)', [`${embedded.base}/api/v1/balance`], [embedded.child], { 'x-api-key': key }));
    // One connection: every request's read runs alone (nothing to share a query with).
    out.push(await measure('GET /api/v1/balance, embedded, 1 connection', [`${embedded.base}/api/v1/balance`], [embedded.child], { 'x-api-key': key }, 1));
    await stop(embedded.child);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const scaling: Record<string, number> = {};
  for (const store of STORES) {
    const { single, pair } = await postgresRuns(store);
    out.push(single, pair);
    scaling[`postgres_two_api_processes_over_one_${store}_rate_limits`] = Number((pair.requests_per_s / single.requests_per_s).toFixed(2));
  }

  for (const m of out) m.ratio_to_bare = Number((m.requests_per_s / baseline.requests_per_s).toFixed(3));
  console.log("\nratio of requests/s to the bare route (and of its server CPU per request to each one's):");
  for (const m of out) {
    const b = baseline.server_cpu_us_per_request;
    const cpuRatio = b === null || !m.server_cpu_us_per_request ? '' : (b / m.server_cpu_us_per_request).toFixed(3).padStart(8);
    console.log(`  ${m.name.padEnd(72)}${m.ratio_to_bare!.toFixed(3).padStart(8)}${cpuRatio}`);
  }
  console.log('PostgreSQL mode, requests/s of two api processes ÷ one:');
  for (const [k, v] of Object.entries(scaling)) console.log(`  ${k.padEnd(72)}${v.toFixed(2).padStart(8)}`);
  console.log(`load average at end ${load()} (1, 5, 15 min)`);
  const file = writeResults('api', { connections: CONNECTIONS, seconds: SECONDS, runs: out, scaling });
  console.log(`written: ${path.relative(process.cwd(), file)}`);
  if (out.some((m) => m.failed > 0)) throw new Error('some requests failed: the numbers above do not measure the answers');
}

try {
  await main();
} finally {
  await Promise.all(children.map(stop));
}
