import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { LocalEmbeddedGenerator } from '../src/adapters/images/embedded.generator.js';
import { portraitScene } from '../test/helpers/generation-fixtures.js';
import { childCpuSeconds } from './cpu.js';
import { writeResults } from './results.js';

/**
 * The embedded generation models on this machine: seconds per output (wall clock, one output at a time,
 * on the event loop's thread as CUTROOM_COMPUTE_THREADS=0 would run them; the pool runs one per thread),
 * for each model at the sizes callers use. Videos also in seconds per second of video. Writes
 * bench/results/generations.json.
 */

interface Case {
  model: string;
  label: string;
  input: { width: number; height: number };
  options: Record<string, unknown>;
}

const CASES: Case[] = [
  { model: 'upscale-x4', label: '256×192 → 1024×768', input: { width: 256, height: 192 }, options: {} },
  { model: 'upscale-x4', label: '512×384 → 2048×1536', input: { width: 512, height: 384 }, options: {} },
  { model: 'cutout', label: '1024×768, transparent', input: { width: 1024, height: 768 }, options: { background: 'transparent' } },
  {
    model: 'camera-motion',
    label: '5 s, 16:9, 720p, push_in',
    input: { width: 1024, height: 768 },
    options: { duration: 5, aspect_ratio: '16:9', resolution: '720p', motion: 'push_in' },
  },
  {
    model: 'camera-motion',
    label: '5 s, 9:16, 1080p, zoom_out',
    input: { width: 1024, height: 768 },
    options: { duration: 5, aspect_ratio: '9:16', resolution: '1080p', motion: 'zoom_out' },
  },
  {
    model: 'parallax',
    label: '5 s, 16:9, 720p, pan_right',
    input: { width: 1024, height: 768 },
    options: { duration: 5, aspect_ratio: '16:9', resolution: '720p', motion: 'pan_right' },
  },
];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-gen-'));
  const engine = new LocalEmbeddedGenerator(null);
  const runs: Array<Record<string, unknown>> = [];
  try {
    // Load the models once (not measured), as a long-running worker has them loaded.
    const warm = path.join(dir, 'warm.png');
    fs.writeFileSync(warm, await portraitScene(64, 48));
    await engine.run('upscale-x4', { images: [warm], options: {}, outDir: dir });
    await engine.run('cutout', { images: [warm], options: {}, outDir: dir });
    for (const c of CASES) {
      const file = path.join(dir, `in-${c.input.width}.png`);
      if (!fs.existsSync(file)) fs.writeFileSync(file, await portraitScene(c.input.width, c.input.height));
      const cpu0 = process.cpuUsage();
      const child0 = childCpuSeconds();
      const t0 = performance.now();
      const out = await engine.run(c.model, { images: [file], options: c.options, outDir: dir });
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const child = child0 === null ? null : (childCpuSeconds() ?? 0) - child0;
      const meta = out.contentType.startsWith('image/') ? await sharp(out.file).metadata() : undefined;
      const run = {
        model: c.model,
        case: c.label,
        output: { width: out.width, height: out.height, seconds: out.seconds, content_type: out.contentType, engine: out.engine },
        seconds_per_output: Number(seconds.toFixed(2)),
        ...(out.seconds ? { seconds_per_video_second: Number((seconds / out.seconds).toFixed(2)) } : {}),
        cpu_seconds: Number(((cpu.user + cpu.system) / 1e6 + (child ?? 0)).toFixed(2)),
        ...(meta ? { output_bytes: fs.statSync(out.file).size } : {}),
      };
      runs.push(run);
      console.log(
        `${c.model.padEnd(14)} ${c.label.padEnd(28)} ${seconds.toFixed(2).padStart(7)} s per output${out.seconds ? ` (${(seconds / out.seconds).toFixed(2)} s per second of video)` : ''}  cpu ${run.cpu_seconds} s`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const file = writeResults('generations', { runs });
  console.log(`written: ${path.relative(process.cwd(), file)}`);
}

await main();
