import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ffmpegPath } from '../src/adapters/media/binaries.js';
import { prepareFontsDir } from '../src/adapters/media/fonts.js';
import { renderEdit } from '../src/adapters/media/renderer.js';
import { makeEdit } from '../src/domain/edits/edit.js';
import { BUILTIN_TEMPLATES } from '../src/domain/edits/caption-styles.js';

/**
 * Renders a short clip with each built-in caption template through the real renderer and saves one
 * frame of each as PNG, so a person can look at the captions.
 *
 *   npx tsx scripts/render-template-frames.ts [outDir=.tmp/template-frames] [--watermark]
 *
 * The source is generated: ffmpeg's colourful testsrc2 pattern at 1920x1080, a hard background
 * for captions to stay readable on.
 */

const SENTENCE = 'So this is how we turn one long podcast into ten great clips every single week';
const FRAME_AT = 1.5; // clip seconds: the 5th word ("we") is spoken, on the first page

function ffmpeg(args: string[]): Promise<void> {
  const bin = ffmpegPath();
  return new Promise((resolve, reject) => {
    execFile(bin, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { env: process.env, maxBuffer: 8 << 20 }, (err, _o, stderr) =>
      err ? reject(new Error(`ffmpeg failed: ${stderr || err.message}`)) : resolve(),
    );
  });
}

async function makeSource(file: string, seconds: number): Promise<void> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=300:sample_rate=48000',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '22',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    file,
  ]);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outDir = path.resolve(args.find((a) => !a.startsWith('--')) ?? '.tmp/template-frames');
  const watermark = args.includes('--watermark');
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-template-frames-'));
  try {
    const fontsDir = path.join(work, 'fonts');
    prepareFontsDir(fontsDir);
    const source = path.join(work, 'source.mp4');
    await makeSource(source, 6);
    const words = SENTENCE.split(' ').map((text, i) => ({ start: 1 + i * 0.35, end: 1 + i * 0.35 + 0.3, text }));
    for (const t of BUILTIN_TEMPLATES) {
      const edit = makeEdit({
        source: { key: 'generated/source.mp4', duration: 6, width: 1920, height: 1080 },
        in: 1,
        out: 4,
        layout: { aspect: t.layout.aspect, reframe: t.layout.reframe },
        captions: { words, style: t.captions },
        title: { text: 'The one trick editors hate', style: t.title },
        watermark,
        resolution: t.layout.resolution,
      });
      const video = path.join(work, `${t.id}.mp4`);
      const res = await renderEdit(edit, { inputPath: source, outputPath: video, fontsDir });
      const png = path.join(outDir, `${t.id}.png`);
      await ffmpeg(['-ss', String(FRAME_AT), '-i', video, '-frames:v', '1', png]);
      console.log(`${t.id.padEnd(10)} ${res.width}x${res.height} rendered in ${(res.elapsedMs / 1000).toFixed(1)} s -> ${png}`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
