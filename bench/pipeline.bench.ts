import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { submissions } from '../src/adapters/db/schema.js';
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

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

function cutroomEnv(): Record<string, string> {
  const skip = new Set(['CUTROOM_DATA_DIR', 'CUTROOM_ADMIN_TOKEN', 'CUTROOM_LOG_LEVEL']);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('CUTROOM_') && !skip.has(k) && v !== undefined) env[k] = v;
  return env;
}

async function main(): Promise<void> {
  if (!(MINUTES >= 1)) throw new Error(`BENCH_MINUTES must be at least 1 (a submission needs 60 s), got ${process.env.BENCH_MINUTES}`);
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average at start ${load()} (1, 5, 15 min)`);

  const video = await cachedTalkVideo({ minutes: MINUTES, width: WIDTH, height: HEIGHT, fps: FPS });
  const mb = fs.statSync(video.path).size / 2 ** 20;
  console.log(
    `video: ${video.duration.toFixed(1)} s talk, ${video.width}x${video.height} ${video.fps} fps, ${mb.toFixed(1)} MiB, ` +
      (video.cached ? `from the cache ${video.path}` : `made in ${video.makeSeconds.toFixed(1)} s, cached at ${video.path}`),
  );

  const t = await createTestApp({ startQueue: true, env: cutroomEnv() });
  try {
    const c = t.c;
    const ws = await t.workspace({ credits: Math.ceil(video.duration / 60) + 10 });
    const videoId = await readyVideo(t, ws.id, video.path);
    const ctx = await c.workspaces.get(ws.id);
    const sub = await c.submissions.create(ctx, { video_id: videoId, source_language: 'en' });

    // The pipeline moves the submission from state to state in its (private) advance(); each call
    // that returns is the end of one stage and the start of the next.
    const marks: Mark[] = [];
    type Advance = (row: SubmissionRow, from: string, changes?: unknown) => Promise<SubmissionRow>;
    const pipeline = c.pipeline as unknown as { advance?: Advance };
    const advance = pipeline.advance;
    if (typeof advance !== 'function') throw new Error('SubmissionPipeline has no advance() any more: update bench/pipeline.bench.ts');
    pipeline.advance = async (row, from, changes) => {
      const next = await advance.call(c.pipeline, row, from, changes);
      const m = mark(next.status);
      const prev = marks[marks.length - 1];
      marks.push(m);
      if (prev) console.log(`  ${from} done in ${(m.wall - prev.wall).toFixed(1)} s (${(m.wall - marks[0].wall).toFixed(1)} s so far)`);
      return next;
    };

    marks.push(mark('queued'));
    await c.pipeline.run(sub.id, { retryCount: 0, retryLimit: 0 });
    const end = mark('end');

    const [row] = await c.database.db.select().from(submissions).where(eq(submissions.id, sub.id));
    if (row.status !== 'completed') {
      console.log(`submission ended ${row.status} (${row.errorCode ?? 'no error code'}) after ${(end.wall - marks[0].wall).toFixed(1)} s`);
      process.exitCode = 1;
      return;
    }

    const d = video.duration;
    const pad = (s: string, n: number) => s.padEnd(n);
    const num = (v: number, n: number, digits = 1) => v.toFixed(digits).padStart(n);
    console.log(`\npipeline on ${d.toFixed(0)} s of video (wall s, ÷ video duration, CPU s of node + children):`);
    console.log(`  ${pad('stage', 16)}${'wall s'.padStart(9)}${'÷ video'.padStart(10)}${'CPU node'.padStart(11)}${'children'.padStart(10)}`);
    const stages: Array<{ stage: string; wall_s: number; cpu_node_s: number; cpu_children_s: number | null }> = [];
    for (let i = 0; i < marks.length; i++) {
      const from = marks[i];
      const to = marks[i + 1] ?? end;
      if (!STAGES.includes(from.status as (typeof STAGES)[number])) continue;
      const wall = to.wall - from.wall;
      const kids = from.children === null || to.children === null ? '' : num(to.children - from.children, 10);
      console.log(`  ${pad(from.status, 16)}${num(wall, 9)}${num(wall / d, 10, 3)}${num(to.cpu - from.cpu, 11)}${kids}`);
      stages.push({ stage: from.status, wall_s: wall, cpu_node_s: to.cpu - from.cpu, cpu_children_s: from.children === null || to.children === null ? null : to.children - from.children });
    }
    const total = end.wall - marks[0].wall;
    const totalKids = marks[0].children === null || end.children === null ? '' : num(end.children - marks[0].children, 10);
    console.log(`  ${pad('total', 16)}${num(total, 9)}${num(total / d, 10, 3)}${num(end.cpu - marks[0].cpu, 11)}${totalKids}`);
    console.log(`  = ${((total / d) * 60).toFixed(1)} s of pipeline per minute of video, ${(d / total).toFixed(2)}x real time`);
    const file = writeResults('pipeline', { video_seconds: d, stages, total_wall_s: total, wall_per_video_minute_s: (total / d) * 60, clips: row.clipsCount });
    console.log(`  written: ${path.relative(process.cwd(), file)}`);

    const transcript = row.transcript as { words: unknown[] } | null;
    const analysis = row.analysis as { detector?: string; fps?: number; sceneCuts?: number[]; cropPath9x16?: Array<{ x: number }> } | null;
    const xs = (analysis?.cropPath9x16 ?? []).map((k) => k.x);
    console.log(
      `  ${transcript?.words.length ?? 0} words transcribed (${c.config.asr.engine}), ${row.clipsCount} clips with previews; ` +
        `faces at ${analysis?.fps ?? '?'} fps with ${analysis?.detector ?? '?'}, ${analysis?.sceneCuts?.length ?? 0} scene cuts, ` +
        `crop path ${xs.length} keyframes, x ${xs.length ? `${Math.min(...xs)}..${Math.max(...xs)}` : '-'}`,
    );
  } finally {
    await t.close();
    console.log(`load average at end ${load()} (1, 5, 15 min)`);
  }
}

await main();
