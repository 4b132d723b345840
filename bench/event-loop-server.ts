import { createHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/env.js';
import { startService } from '../src/main/serve.js';

/**
 * `cutroom serve` (role all: the embedded mode, API and jobs in one process) with the event loop
 * watched, for bench/event-loop.bench.ts, which forks it. Over the IPC channel: `{ type: 'ready' }`
 * once listening; on `{ type: 'reset' }` the counters start again; on `{ type: 'read' }` it answers
 * `{ type: 'loop', ... }`: the event-loop delay (perf_hooks monitorEventLoopDelay, 10 ms resolution:
 * how late a timer due every 10 ms fired) in ms, the event-loop utilisation (share of the time the
 * loop was busy) and the process's CPU seconds (every thread) since the reset. SIGTERM shuts it down.
 */

export interface LoopStats {
  type: 'loop';
  delay_p50_ms: number;
  delay_p99_ms: number;
  delay_max_ms: number;
  utilisation: number;
  cpu_seconds: number;
  /** Time from a request's arrival in the server to the end of its answer, in ms: what the server adds to the client's latency. */
  server_p50_ms: number;
  server_p99_ms: number;
  server_max_ms: number;
}

// EVENT_LOOP_BENCH_TX_LOG=<ms>: prints every embedded transaction, and every statement outside one,
// that held the database that long (a request's query waits for it), with where it was opened.
const txLogMs = Number(process.env.EVENT_LOOP_BENCH_TX_LOG ?? 0);
if (txLogMs > 0) {
  const { PGlite } = await import('@electric-sql/pglite');
  const transaction = PGlite.prototype.transaction;
  PGlite.prototype.transaction = async function (this: InstanceType<typeof PGlite>, fn: Parameters<typeof transaction>[0]) {
    const opened = new Error('opened at');
    let t0 = 0;
    try {
      return await transaction.call(this, (tx) => {
        t0 = performance.now();
        return fn(tx);
      });
    } finally {
      const held = performance.now() - t0;
      if (t0 && held >= txLogMs) console.error(`transaction held ${held.toFixed(0)} ms\n${opened.stack?.split('\n').slice(2, 12).join('\n')}`);
    }
  } as typeof transaction;
  // Every statement outside a transaction holds PGlite's query lock too: time those holds as well.
  const proto = PGlite.prototype as unknown as { _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> };
  const exclusive = proto._runExclusiveQuery;
  proto._runExclusiveQuery = function <T>(this: unknown, fn: () => Promise<T>): Promise<T> {
    const asked = new Error('queried at');
    return exclusive.call(this, async () => {
      const t0 = performance.now();
      try {
        return await fn();
      } finally {
        const held = performance.now() - t0;
        if (held >= txLogMs) console.error(`query held ${held.toFixed(0)} ms\n${asked.stack?.split('\n').slice(2, 14).join('\n')}`);
      }
    }) as Promise<T>;
  };
}

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
let elu = performance.eventLoopUtilization();
let cpu = process.cpuUsage();

const service = await startService('all', loadConfig());
// Server-side latency, beside Fastify's own listener: from the parsed request to the last byte written.
const served = createHistogram();
service.app?.server.on('request', (_req, res) => {
  const t0 = process.hrtime.bigint();
  res.once('finish', () => served.record(Math.max(1, Number(process.hrtime.bigint() - t0))));
});
const send = (msg: unknown) => process.send?.(msg);

process.on('message', (msg: { type: string }) => {
  if (msg.type === 'reset') {
    histogram.reset();
    served.reset();
    elu = performance.eventLoopUtilization();
    cpu = process.cpuUsage();
  } else if (msg.type === 'read') {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const used = process.cpuUsage(cpu);
    const stats: LoopStats = {
      type: 'loop',
      delay_p50_ms: ms(histogram.percentile(50)),
      delay_p99_ms: ms(histogram.percentile(99)),
      delay_max_ms: ms(histogram.max),
      utilisation: Math.round(performance.eventLoopUtilization(elu).utilization * 1000) / 1000,
      cpu_seconds: Math.round((used.user + used.system) / 1e4) / 100,
      server_p50_ms: ms(served.percentile(50)),
      server_p99_ms: ms(served.percentile(99)),
      server_max_ms: ms(served.max),
    };
    send(stats);
  }
});

process.once('SIGTERM', () => {
  service.shutdown().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
send({ type: 'ready' });
