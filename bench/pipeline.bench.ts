import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { submissions } from '../src/adapters/db/schema/index.js';
import type { SubmissionRow } from '../src/domain/submissions/submissions.service.js';
import { createTestApp } from '../test/helpers/app.js';
import { readyVideo } from '../test/helpers/videos.js';
import { cachedTalkVideo } from './talk-video.js';
import { childCpuSeconds } from './cpu.js';
import { writeResults } from './results.js';

/**
 * Clipping pipeline speed (issue 4): wall time ÷ video duration per stage, for a generated talk
 * video (default 10 minutes of 640x360 25 fps; espeak-ng and pocketsphinx-testdata speech, a face
 * sliding over testsrc2; cached between runs, see bench/talk-video.ts).
 *
 * It runs the real service code in this process: an embedded container on an in-memory PGlite
 * (as the tests build it, queue started but no workers), the file uploaded into storage and
 * completed with the videos service, a submission created with the submissions service, then
 * `pipeline.run(id)` called directly, so the time measured is the pipeline's and not the queue's
 * polling. Each stage's end is taken where the pipeline moves the submission to its next state
 * (its `advance`), with the CPU time of this process and of its finished children (ffmpeg,
 * pocketsphinx) at that moment: on a busy machine wall time depends on the other load, CPU time
 * much less. The load average is printed at the start and the end.
 *
 * The face model loads on first use, inside video_analysis (as for the first submission after a
 * start). CUTROOM_* settings of the environment (CUTROOM_ASR, CUTROOM_ASR_URL, CUTROOM_LLM_URL,
 * ...) are passed to the container, so other engines can be measured the same way.
 *
 *   npm run bench -- pipeline     or     npx tsx bench/pipeline.bench.ts
 *   npm run bench -- pipeline --concurrent 2     N submissions of the video at once (each in its own
 *     workspace, all started together): each one's wall time ÷ its duration, per stage, and the whole
 *     process's CPU; JSON in bench/results/pipeline-concurrent-<N>.json (one at a time: pipeline.json)
 *   BENCH_MINUTES=10 (shorter for a quick run, at least 1)   BENCH_CACHE_DIR=$TMPDIR/cutroom-bench-cache
 *   BENCH_WIDTH=640 BENCH_HEIGHT=360 BENCH_FPS=25
 */

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const WIDTH = Number(process.env.BENCH_WIDTH ?? 640);
const HEIGHT = Number(process.env.BENCH_HEIGHT ?? 360);
const FPS = Number(process.env.BENCH_FPS ?? 25);

const STAGES = ['queued', 'downloading', 'transcribing', 'video_analysis', 'analyzing', 'finalizing'] as const;

/** CPU seconds (user + system) of this process's finished children; null off Linux. */

interface Mark {
  /** The state entered at this moment. */
  status: string;
  wall: number;
  cpu: number;
  children: number | null;
}

function mark(status: string): Mark {
  const u = process.cpuUsage();
  return { status, wall: performance.now() / 1000, cpu: (u.user + u.system) / 1e6, children: childCpuSeconds() };
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function cutroomEnv(): Record<string, string> {
  const skip = new Set(['CUTROOM_DATA_DIR', 'CUTROOM_ADMIN_TOKEN', 'CUTROOM_LOG_LEVEL']);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('CUTROOM_') && !skip.has(k) && v !== undefined) env[k] = v;
  return env;
}

/** `--concurrent N` (or `--concurrent=N`, or BENCH_CONCURRENT): how many submissions run at once. */
function concurrency(): number {
  const args = process.argv.slice(2);
  let value = process.env.BENCH_CONCURRENT;
  args.forEach((a, i) => {
    if (a === '--concurrent') value = args[i + 1];
    else if (a.startsWith('--concurrent=')) value = a.slice('--concurrent='.length);
  });
  const n = Number(value ?? 1);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--concurrent must be a whole number of at least 1, got ${value}`);
  return n;
}

interface StageTime {
  stage: string;
  wall_s: number;
  cpu_node_s: number;
  cpu_children_s: number | null;
}

/** The stages between consecutive marks (CPU columns are the whole process's, shared by every submission running then). */
function stagesOf(marks: Mark[], end: Mark): StageTime[] {
  const out: StageTime[] = [];
  for (let i = 0; i < marks.length; i++) {
    const from = marks[i];
    const to = marks[i + 1] ?? end;
    if (!STAGES.includes(from.status as (typeof STAGES)[number])) continue;
    out.push({
      stage: from.status,
      wall_s: to.wall - from.wall,
      cpu_node_s: to.cpu - from.cpu,
      cpu_children_s: from.children === null || to.children === null ? null : to.children - from.children,
    });
  }
  return out;
}

async function main(): Promise<void> {
  if (!(MINUTES >= 1)) throw new Error(`BENCH_MINUTES must be at least 1 (a submission needs 60 s), got ${process.env.BENCH_MINUTES}`);
  const n = concurrency();
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average at start ${load()} (1, 5, 15 min)`);

  const video = await cachedTalkVideo({ minutes: MINUTES, width: WIDTH, height: HEIGHT, fps: FPS });
  const mb = fs.statSync(video.path).size / 2 ** 20;
  console.log(
    `video: ${video.duration.toFixed(1)} s talk, ${video.width}x${video.height} ${video.fps} fps, ${mb.toFixed(1)} MiB, ` +
      (video.cached ? `from the cache ${video.path}` : `made in ${video.makeSeconds.toFixed(1)} s, cached at ${video.path}`),
  );
  if (n > 1) console.log(`${n} submissions of this video at once, each in its own workspace`);

  const t = await createTestApp({ startQueue: true, env: cutroomEnv() });
  try {
    const c = t.c;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const ws = await t.workspace({ credits: Math.ceil(video.duration / 60) + 10 });
      const videoId = await readyVideo(t, ws.id, video.path);
      const ctx = await c.workspaces.get(ws.id);
      ids.push((await c.submissions.create(ctx, { video_id: videoId, source_language: 'en' })).id);
    }
    const label = (id: string) => (n > 1 ? `#${ids.indexOf(id) + 1} ` : '');

    // The pipeline moves the submission from state to state in its (private) advance(); each call
    // that returns is the end of one stage and the start of the next.
    const marks = new Map<string, Mark[]>();
    // Every argument goes through: the last stage advances inside its transaction (`tx`), and a call
    // without it would wait on the embedded database for that very transaction.
    type Advance = (row: SubmissionRow, from: string, ...rest: unknown[]) => Promise<SubmissionRow>;
    const pipeline = c.pipeline as unknown as { advance?: Advance };
    const advance = pipeline.advance;
    if (typeof advance !== 'function') throw new Error('SubmissionPipeline has no advance() any more: update bench/pipeline.bench.ts');
    pipeline.advance = async (row, from, ...rest) => {
      const next = await advance.call(c.pipeline, row, from, ...rest);
      const m = mark(next.status);
      const own = marks.get(row.id)!;
      const prev = own[own.length - 1];
      own.push(m);
      if (prev) console.log(`  ${label(row.id)}${from} done in ${(m.wall - prev.wall).toFixed(1)} s (${(m.wall - own[0].wall).toFixed(1)} s so far)`);
      return next;
    };

    const start = mark('queued');
    for (const id of ids) marks.set(id, [start]);
    const ends = new Map<string, Mark>();
    await Promise.all(
      ids.map(async (id) => {
        await c.pipeline.run(id, { retryCount: 0, retryLimit: 0 });
        ends.set(id, mark('end'));
      }),
    );
    const end = mark('end');

    const d = video.duration;
    const pad = (s: string, w: number) => s.padEnd(w);
    const num = (v: number, w: number, digits = 1) => v.toFixed(digits).padStart(w);
    const runs: Array<{ submission: string; status: string; total_wall_s: number; ratio_to_duration: number; clips: number | null; stages: StageTime[] }> = [];
    for (const id of ids) {
      const [row] = await c.database.db.select().from(submissions).where(eq(submissions.id, id));
      const own = marks.get(id)!;
      const total = ends.get(id)!.wall - start.wall;
      runs.push({
        submission: id,
        status: row.status,
        total_wall_s: total,
        ratio_to_duration: total / d,
        clips: row.clipsCount,
        stages: stagesOf(own, ends.get(id)!),
      });
      if (row.status !== 'completed') {
        console.log(`submission ${label(id)}ended ${row.status} (${row.errorCode ?? 'no error code'}) after ${total.toFixed(1)} s`);
        process.exitCode = 1;
      }
    }
    if (process.exitCode) return;

    if (n === 1) {
      const [only] = runs;
      console.log(`\npipeline on ${d.toFixed(0)} s of video (wall s, ÷ video duration, CPU s of node + children):`);
      console.log(`  ${pad('stage', 16)}${'wall s'.padStart(9)}${'÷ video'.padStart(10)}${'CPU node'.padStart(11)}${'children'.padStart(10)}`);
      for (const st of only.stages) {
        const kids = st.cpu_children_s === null ? '' : num(st.cpu_children_s, 10);
        console.log(`  ${pad(st.stage, 16)}${num(st.wall_s, 9)}${num(st.wall_s / d, 10, 3)}${num(st.cpu_node_s, 11)}${kids}`);
      }
    } else {
      console.log(`\n${n} pipelines at once on ${d.toFixed(0)} s of video each (wall s per stage; CPU is the whole process's, below):`);
      console.log(`  ${pad('stage', 16)}${ids.map((_, i) => `#${i + 1} wall s`.padStart(12)).join('')}`);
      for (const stage of STAGES) {
        const cells = runs.map((r) => r.stages.find((st) => st.stage === stage));
        if (cells.every((x) => !x)) continue;
        console.log(`  ${pad(stage, 16)}${cells.map((x) => (x ? num(x.wall_s, 12) : ''.padStart(12))).join('')}`);
      }
      console.log(`  ${pad('total', 16)}${runs.map((r) => num(r.total_wall_s, 12)).join('')}`);
      console.log(`  ${pad('÷ video', 16)}${runs.map((r) => num(r.ratio_to_duration, 12, 3)).join('')}`);
    }
    const total = end.wall - start.wall;
    const cpuKids = start.children === null || end.children === null ? null : end.children - start.children;
    console.log(
      `  ${pad('all', 16)}${num(total, 9)} s wall, ${num(total / d, 6, 3)} × the duration; CPU ${(end.cpu - start.cpu).toFixed(1)} s node` +
        (cpuKids === null ? '' : ` + ${cpuKids.toFixed(1)} s children`),
    );
    const worst = Math.max(...runs.map((r) => r.ratio_to_duration));
    if (n > 1) console.log(`  slowest submission: ${worst.toFixed(3)} × its duration (target for two at once: ≤ 0.5 on an idle machine)`);
    else console.log(`  = ${((total / d) * 60).toFixed(1)} s of pipeline per minute of video, ${(d / total).toFixed(2)}x real time`);
    const results =
      n === 1
        ? { video_seconds: d, stages: runs[0].stages, total_wall_s: total, wall_per_video_minute_s: (total / d) * 60, clips: runs[0].clips }
        : {
            video_seconds: d,
            concurrent: n,
            submissions: runs,
            slowest_ratio_to_duration: worst,
            total_wall_s: total,
            cpu_node_s: end.cpu - start.cpu,
            cpu_children_s: cpuKids,
          };
    const file = writeResults(n === 1 ? 'pipeline' : `pipeline-concurrent-${n}`, results);
    console.log(`  written: ${path.relative(process.cwd(), file)}`);

    const [row] = await c.database.db.select().from(submissions).where(eq(submissions.id, ids[0]));
    const transcript = row.transcript as { words: unknown[] } | null;
    const analysis = row.analysis as { detector?: string; fps?: number; sceneCuts?: number[]; cropPath9x16?: Array<{ x: number }> } | null;
    const xs = (analysis?.cropPath9x16 ?? []).map((k) => k.x);
    console.log(
      `  ${label(ids[0])}${transcript?.words.length ?? 0} words transcribed (${c.config.asr.engine}), ${row.clipsCount} clips with previews; ` +
        `faces at ${analysis?.fps ?? '?'} fps with ${analysis?.detector ?? '?'}, ${analysis?.sceneCuts?.length ?? 0} scene cuts, ` +
        `crop path ${xs.length} keyframes, x ${xs.length ? `${Math.min(...xs)}..${Math.max(...xs)}` : '-'}`,
    );
  } finally {
    await t.close();
    console.log(`load average at end ${load()} (1, 5, 15 min)`);
  }
}

await main();
