/**
 * Render cache-hit latency: POST …/clips/{clipId}/render for a clip whose identical file already
 * exists, through the whole HTTP stack (auth, rate limit, edit lookup, cache query, signing), against
 * a trivial authenticated route (GET /renders/limits) measured in the same run as the baseline.
 * Run: npm run bench -- render-cache   (or npx tsx bench/render-cache.bench.ts)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, tempDir } from '../test/helpers/app.js';
import { clipsFixture } from '../test/helpers/clips.js';
import { makeVideo } from '../test/helpers/media-fixtures.js';

const HITS = Number(process.env.BENCH_HITS ?? 200);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)] };
}

async function main() {
  const dir = tempDir('cutroom-bench-cache-');
  const t = await createTestApp({ workers: true });
  try {
    const file = await makeVideo(path.join(dir, 'src.mp4'), { seconds: 70, width: 320, height: 180 });
    const ws = await t.workspace({ credits: 0 });
    const fx = await clipsFixture(t, ws.id, file, { ranges: [{ start: 5, end: 10 }] });
    const headers = { 'x-api-key': ws.key };
    const url = `/api/v1/clips/${fx.videoId}/submissions/${fx.submissionId}/clips/${fx.clipIds[0]}/render`;
    const first = (await t.app.inject({ method: 'POST', url, headers })).json();
    for (let i = 0; i < 600; i++) {
      const r = (await t.app.inject({ method: 'GET', url: `/api/v1/renders/${first.id}`, headers })).json();
      if (r.status === 'completed') break;
      if (r.status === 'failed') throw new Error(`render failed: ${r.error_code}`);
      await new Promise((res) => setTimeout(res, 500));
    }
    const hit: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < HITS; i++) {
      let t0 = performance.now();
      const res = await t.app.inject({ method: 'POST', url, headers });
      hit.push(performance.now() - t0);
      if (res.statusCode !== 200 || !res.json().from_cache) throw new Error(`expected a cache hit, got ${res.statusCode} ${res.body}`);
      t0 = performance.now();
      await t.app.inject({ method: 'GET', url: '/api/v1/renders/limits', headers });
      base.push(performance.now() - t0);
    }
    const h = stats(hit);
    const b = stats(base);
    console.log(`render cache hit over HTTP (${HITS} requests, in-process inject, PGlite):`);
    console.log(`  cache hit: median ${h.median.toFixed(2)} ms, p95 ${h.p95.toFixed(2)} ms`);
    console.log(`  baseline GET /renders/limits: median ${b.median.toFixed(2)} ms, p95 ${b.p95.toFixed(2)} ms`);
    console.log(`  ratio (median): ${(h.median / b.median).toFixed(2)}  (load average ${os.loadavg()[0].toFixed(1)})`);
  } finally {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
