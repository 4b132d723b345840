import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareFontsDir } from '../src/adapters/media/fonts.js';
import { renderEdit } from '../src/adapters/media/renderer.js';
import { buildAss } from '../src/adapters/media/captions.ass.js';
import { editHash, makeEdit, type Edit } from '../src/domain/edits/edit.js';
import { buildRenderCommand } from '../src/adapters/media/filter-graph.js';
import { getBuiltinTemplate } from '../src/domain/edits/caption-styles.js';
import { childCpuSeconds } from './cpu.js';
import { writeResults } from './results.js';
import { ffmpeg, makeSource } from './ffmpeg-source.js';

/**
 * Render speed: a 60 s clip from a generated 1920x1080 source to 1080x1920 with bold-pop captions,
 * a title and a moving speaker crop, once through the service's renderEdit (edit checks, font
 * check, ffprobe, ASS, runner with progress, atomic rename) and once as the bare ffmpeg command with
 * the same filter graph. Runs alternate A B B A so load changes hit both alike; the ratio of the
 * medians is the service's overhead (goal <= 1.10). On a busy machine wall time swings by 10 % and
 * more between identical runs, so the CPU time of the finished child processes (Linux
 * /proc/self/stat cutime + cstime) is printed beside it: it hardly depends on other load.
 *
 *   npm run bench -- render            RENDER_BENCH_SECONDS=60 RENDER_BENCH_ROUNDS=2
 */

const SECONDS = Number(process.env.RENDER_BENCH_SECONDS ?? 60);
const ROUNDS = Math.max(1, Number(process.env.RENDER_BENCH_ROUNDS ?? 2));
const GOAL = 1.1;

/** A moving path of a w x h crop in the 1920x1080 source, between x0 and x0 + 2 * swing. */
function movingPath(seconds: number, w: number, h: number, x0: number, swing: number, y = 0) {
  const out = [];
  for (let t = 0; t <= seconds + 2; t += 2) out.push({ t, x: 2 * Math.round((x0 + swing + swing * Math.sin(t / 7)) / 2), y, w, h });
  return out;
}

/**
 * The layout measured (RENDER_BENCH_LAYOUT): `speaker` (default), `split` (two moving 970x864 halves),
 * `screen` (the source at the width, a moving 444x540 face below) or `auto` (shots of 10 s: speaker,
 * split, screen in turn).
 */
function benchLayout(seconds: number): Record<string, unknown> {
  const kind = process.env.RENDER_BENCH_LAYOUT ?? 'speaker';
  const splitPaths = [movingPath(seconds, 970, 864, 0, 200, 100), movingPath(seconds, 970, 864, 550, 200, 100)];
  const screenPath = movingPath(seconds, 444, 540, 1000, 200, 500);
  if (kind === 'split') return { reframe: 'split', splitPaths };
  if (kind === 'screen') return { reframe: 'screen', screenPath };
  if (kind === 'auto') {
    const kinds = ['speaker', 'split', 'screen'] as const;
    const shots = [];
    for (let a = 1, i = 0; a < 1 + seconds - 1e-9; a += 10, i++) {
      const k = kinds[i % 3];
      shots.push({ start: a, end: Math.min(1 + seconds, a + 10), reframe: k, ...(k === 'split' ? { splitPaths } : k === 'screen' ? { screenPath } : {}) });
    }
    return { reframe: 'auto', shots };
  }
  return { reframe: 'speaker' };
}

function benchEdit(seconds: number): Edit {
  const words = [];
  const vocab = 'so this is how we turn one long video into short clips that people actually want to watch'.split(' ');
  for (let t = 1, i = 0; t < seconds + 1; t += 0.4, i++) words.push({ start: t, end: t + 0.35, text: vocab[i % vocab.length] });
  const cropPath = [];
  for (let t = 0; t <= seconds + 2; t += 2) cropPath.push({ t, x: 2 * Math.round((657 + 500 * Math.sin(t / 7)) / 2), y: 0, w: 606, h: 1080 });
  const tpl = getBuiltinTemplate('bold-pop')!;
  return makeEdit({
    source: { key: 'bench/source.mp4', duration: seconds + 2, width: 1920, height: 1080 },
    in: 1,
    out: 1 + seconds,
    layout: { aspect: '9:16', cropPath, ...benchLayout(seconds) },
    captions: { words, style: tpl.captions },
    title: { text: 'Benchmark clip', style: tpl.title },
    watermark: false,
    resolution: '1080p',
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-render-'));
  try {
    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const source = path.join(dir, 'source.mp4');
    const g0 = performance.now();
    await makeSource(source, SECONDS + 2);
    console.log(`source: ${SECONDS + 2} s of 1920x1080 30 fps made in ${((performance.now() - g0) / 1000).toFixed(1)} s`);
    const edit = benchEdit(SECONDS);

    // The bare command: the same graph and arguments, its ASS written once beforehand.
    const assFile = path.join(dir, 'bare.ass');
    fs.writeFileSync(assFile, buildAss(edit)!);
    const bareOut = path.join(dir, 'bare.mp4');
    const bare = buildRenderCommand(
      edit,
      { input: source, inputFormat: 'mov', output: bareOut, assFile, fontsDir, watermarkFontFile: null },
      { hasAudio: true },
    );

    const service: number[] = [];
    const plain: number[] = [];
    const serviceCpu: number[] = [];
    const plainCpu: number[] = [];
    const overhead: number[] = [];
    const cpuNote = (c: number | null) => (c === null ? '' : `, CPU ${c.toFixed(1)} s`);
    const runService = async () => {
      const c0 = childCpuSeconds();
      const r = await renderEdit(edit, { inputPath: source, outputPath: path.join(dir, 'service.mp4'), fontsDir, onProgress: () => {} });
      const cpu = c0 === null ? null : childCpuSeconds()! - c0;
      service.push(r.elapsedMs);
      overhead.push(r.elapsedMs - r.ffmpegMs);
      if (cpu !== null) serviceCpu.push(cpu);
      console.log(
        `  service renderEdit: ${(r.elapsedMs / 1000).toFixed(1)} s wall (${(SECONDS / (r.elapsedMs / 1000)).toFixed(2)}x real time; outside ffmpeg ${r.elapsedMs - r.ffmpegMs} ms${cpuNote(cpu)})`,
      );
    };
    const runBare = async () => {
      const c0 = childCpuSeconds();
      const ms = await ffmpeg(bare.args);
      const cpu = c0 === null ? null : childCpuSeconds()! - c0;
      plain.push(ms);
      if (cpu !== null) plainCpu.push(cpu);
      console.log(`  bare ffmpeg:        ${(ms / 1000).toFixed(1)} s wall (${(SECONDS / (ms / 1000)).toFixed(2)}x real time${cpuNote(cpu)})`);
    };
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        await runService();
        await runBare();
      } else {
        await runBare();
        await runService();
      }
    }

    const hashRuns = 200;
    const h0 = performance.now();
    for (let i = 0; i < hashRuns; i++) editHash(edit);
    const hashUs = ((performance.now() - h0) / hashRuns) * 1000;

    const ratio = median(service) / median(plain);
    console.log(`render ${SECONDS} s 1920x1080 -> 1080x1920 with captions (median of ${ROUNDS}):`);
    console.log(
      `  wall: service ${(median(service) / 1000).toFixed(1)} s, bare ffmpeg ${(median(plain) / 1000).toFixed(1)} s, ratio ${ratio.toFixed(3)} (goal <= ${GOAL.toFixed(2)}: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
    );
    if (serviceCpu.length && plainCpu.length) {
      const cpuRatio = median(serviceCpu) / median(plainCpu);
      console.log(`  CPU:  service ${median(serviceCpu).toFixed(1)} s, bare ffmpeg ${median(plainCpu).toFixed(1)} s, ratio ${cpuRatio.toFixed(3)}`);
    }
    console.log(`  service time outside ffmpeg (checks, ffprobe, ASS, rename): median ${median(overhead).toFixed(0)} ms`);
    console.log(
      `  render speed ${(SECONDS / (median(service) / 1000)).toFixed(2)}x real time on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)})`,
    );
    console.log(
      `  editHash of this edit (${edit.captions!.words.length} words, ${edit.layout.cropPath!.length} keyframes): ${hashUs.toFixed(0)} µs (the engine's part of a cache hit)`,
    );
    const file = writeResults('render', {
      seconds: SECONDS,
      rounds: ROUNDS,
      service_wall_ms: service,
      bare_wall_ms: plain,
      service_cpu_s: serviceCpu,
      bare_cpu_s: plainCpu,
      wall_ratio: Number(ratio.toFixed(3)),
      goal: GOAL,
      outside_ffmpeg_ms_median: median(overhead),
      edit_hash_us: Math.round(hashUs),
    });
    console.log(`written: ${path.relative(process.cwd(), file)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
