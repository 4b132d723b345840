import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** What one load produced: the achieved rate of 2xx answers and their latency from due time. */
export interface FixedRateResult {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Answers other than 2xx and socket errors: 0 in a valid run. */
  failed: number;
}

/**
 * An open-loop load generator: GET `url` at a steady `rate` requests/s (one every 1000/rate ms, not
 * in bursts) over at most `connections` keep-alive connections, until `until` settles (or for that many
 * seconds). A request's latency runs from the moment it was due, not from when a connection was free
 * to send it, so a stalled server is charged for every request it made wait (no coordinated omission)
 * and for nothing else.
 *
 * Why not autocannon's `overallRate`: it sends each connection's share of a second back to back at the
 * start of the second, and it corrects for coordinated omission with an expected interval of
 * `Math.ceil(1 / rate)` = 1 ms (seconds rounded up, read as milliseconds), so one response that took
 * D ms is also recorded as D−1, D−2, … 1 ms. One 110 ms stall of 10 connections then fills the
 * percentiles above p99 by itself: a run whose answers left the server with a p99 of 7 ms (read off
 * a packet capture) was reported at p99 89 ms.
 */
export async function fixedRate(opts: {
  url: string;
  headers?: Record<string, string>;
  rate: number;
  connections: number;
  until: Promise<unknown> | number;
}): Promise<FixedRateResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  let failed = 0;
  let stopped = false;
  const started = performance.now();

  const send = (due: number) => {
    const done = new Promise<void>((resolve) => {
      const req = http.get(opts.url, { agent, headers: opts.headers }, (res) => {
        res.resume();
        res.once('end', () => {
          if (res.statusCode! >= 200 && res.statusCode! < 300) latencies.push(performance.now() - due);
          else failed++;
          resolve();
        });
      });
      req.once('error', () => {
        failed++;
        resolve();
      });
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  let next = started;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    // Every request that fell due since the last tick goes now, with its own due time.
    for (; next <= now && !stopped; next += interval) send(next);
    if (!stopped) timer = setTimeout(tick, Math.max(0, next - performance.now()));
  };
  tick();

  await (typeof opts.until === 'number' ? new Promise((r) => setTimeout(r, (opts.until as number) * 1000)) : opts.until.catch(() => {}));
  stopped = true;
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all([...inFlight]);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] : 0);
  const ms = (v: number) => Math.round(v * 10) / 10;
  return {
    requests_per_s: Math.round(latencies.length / seconds),
    p50_ms: ms(at(0.5)),
    p99_ms: ms(at(0.99)),
    max_ms: ms(latencies.at(-1) ?? 0),
    failed,
  };
}
