import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareFontsDir } from '../src/adapters/media/fonts.js';
import { renderEdit } from '../src/adapters/media/renderer.js';
import { makeEdit, type Edit } from '../src/domain/edits/edit.js';
import { getBuiltinTemplate } from '../src/domain/edits/caption-styles.js';
import { writeResults } from './results.js';
import { makeSource } from './ffmpeg-source.js';
import { createTestApp } from '../test/helpers/app.js';
import { clipsFixture } from '../test/helpers/clips.js';

/**
 * Edits with cuts: preview and final render times of a 30 s and a 60 s edit, each made of four kept
 * stretches of a generated 1920x1080 30 fps source (pauses cut out), 9:16 with a moving speaker
 * crop, bold-pop captions and a title, through the service's renderEdit. The engine's goals for
 * edits: a 30 s preview within 4 s on an idle 2-core machine (the API adds its queue
 * pick-up), and the final render's speed as in `npm run bench -- render`. Measures; never fails on
 * a time. The 30 s preview is also measured as a caller sees it: from POST /renders (quality
 * `preview`, a derived edit with three cuts) to the render `completed` in GET /renders/{id}, through
 * the in-process app with its workers on PGlite and local storage (the embedded default).
 *
 *   npm run bench -- edits             EDITS_BENCH_ROUNDS=1
 */

const ROUNDS = Math.max(1, Number(process.env.EDITS_BENCH_ROUNDS ?? 1));
const LENGTHS = [30, 60];

/** An edit of `seconds` output seconds: four equal stretches with a 1.5 s pause cut between each. */
function cutEdit(seconds: number, sourceSeconds: number): Edit {
  const part = seconds / 4;
  const segments = [0, 1, 2, 3].map((i) => ({ start: 1 + i * (part + 1.5), end: 1 + i * (part + 1.5) + part }));
  const words = [];
  const vocab = 'so this is how we turn one long video into short clips that people actually want to watch'.split(' ');
  for (let t = 1, i = 0; t < segments[3].end; t += 0.4, i++) words.push({ start: t, end: t + 0.35, text: vocab[i % vocab.length] });
  const cropPath = [];
  for (let t = 0; t <= sourceSeconds; t += 2) cropPath.push({ t, x: 2 * Math.round((657 + 500 * Math.sin(t / 7)) / 2), y: 0, w: 606, h: 1080 });
  const tpl = getBuiltinTemplate('bold-pop')!;
  return makeEdit({
    source: { key: 'bench/source.mp4', duration: sourceSeconds, width: 1920, height: 1080 },
    in: segments[0].start,
    out: segments[3].end,
    segments,
    layout: { aspect: '9:16', reframe: 'speaker', cropPath },
    captions: { words, style: tpl.captions },
    title: { text: 'Benchmark clip', style: tpl.title },
    watermark: false,
    resolution: '1080p',
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Milliseconds from POST /renders (quality `preview`) to `completed`, per round: a 30 s edit of four
 * stretches derived (POST /edits) from a clip's edit over the generated source; each round derives
 * a new edit (a different title) so no render comes from the cache.
 */
async function apiPreviewTimes(source: string, seconds: number): Promise<number[]> {
  const t = await createTestApp({ workers: true });
  try {
    const ws = await t.workspace({ credits: 0 });
    const headers = { 'x-api-key': ws.key };
    const part = seconds / 4;
    const segments = [0, 1, 2, 3].map((i) => ({ start: 1 + i * (part + 1.5), end: 1 + i * (part + 1.5) + part }));
    const fx = await clipsFixture(t, ws.id, source, { ranges: [{ start: segments[0].start, end: segments[3].end }] });
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, headers, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const edit = await call('POST', '/edits', { base_edit_id: fx.editIds[0], segments, snap: false, title: { text: `Preview ${r + 1}` } });
      const t0 = performance.now();
      const render = await call('POST', '/renders', { edit_id: edit.id, quality: 'preview' });
      for (let s = render; s.status !== 'completed'; s = await call('GET', `/renders/${render.id}`)) {
        if (s.status === 'failed') throw new Error(`preview failed: ${s.error_code}`);
        await new Promise((res) => setTimeout(res, 20));
      }
      times.push(performance.now() - t0);
      console.log(`  ${seconds} s edit, preview through the API (request to completed): ${(times[r] / 1000).toFixed(2)} s`);
    }
    return times;
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-edits-bench-'));
  try {
    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const sourceSeconds = Math.max(...LENGTHS) + 10;
    const source = path.join(dir, 'source.mp4');
    await makeSource(source, sourceSeconds);
    const results: Record<string, number[]> = {};
    console.log(`${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at start`);
    for (const seconds of LENGTHS) {
      const edit = cutEdit(seconds, sourceSeconds);
      for (const quality of ['preview', 'final'] as const) {
        const times: number[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const res = await renderEdit(edit, { inputPath: source, outputPath: path.join(dir, `${quality}-${seconds}.mp4`), fontsDir, quality });
          times.push(res.elapsedMs);
          console.log(
            `  ${seconds} s edit, ${quality} (${res.width}x${res.height}): ${(res.elapsedMs / 1000).toFixed(2)} s (ffmpeg ${(res.ffmpegMs / 1000).toFixed(2)} s)`,
          );
        }
        results[`${quality}_${seconds}s_ms`] = times;
        console.log(
          `${seconds} s edit, ${quality}: median ${(median(times) / 1000).toFixed(2)} s, ${(seconds / (median(times) / 1000)).toFixed(2)}x real time`,
        );
      }
    }
    const api = await apiPreviewTimes(source, 30);
    results.api_preview_30s_ms = api;
    console.log(`30 s edit, preview through the API: median ${(median(api) / 1000).toFixed(2)} s (goal: 4 s on an idle 2-core machine)`);
    const file = writeResults('edits', { rounds: ROUNDS, ...results });
    console.log(`written: ${path.relative(process.cwd(), file)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
