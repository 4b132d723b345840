import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HumanFaceDetector } from '../src/adapters/faces/human.face-detector.js';
import { ffmpegPath } from '../src/adapters/media/binaries.js';
import { probe } from '../src/adapters/media/ffprobe.js';
import { prepareFontsDir } from '../src/adapters/media/fonts.js';
import { sampleFrames } from '../src/adapters/media/frame-sampler.js';
import { measureLoudness } from '../src/adapters/media/loudness.js';
import { renderEdit } from '../src/adapters/media/renderer.js';
import { detectSceneCuts } from '../src/adapters/media/scene-detect.js';
import { analyzeVideo } from '../src/domain/analysis/video-analysis.js';
import { getBuiltinTemplate, type ReframeMode } from '../src/domain/edits/caption-styles.js';
import { buildClipEdit, sourceFaces } from '../src/domain/edits/clip-edit.js';
import { storedAnalysis } from '../src/domain/submissions/pipeline.js';

/**
 * One frame of each reframe layout, rendered through the real analysis and renderer from generated
 * sources with the synthetic faces of test/fixtures/faces, saved as small PNGs to look at (and for
 * docs/rendering.md):
 *
 *   npx tsx scripts/render-layout-frames.ts [outDir=docs/images]
 *
 * Sources (960x540): two faces side by side over ffmpeg's testsrc2; a slide (white, dark text-like
 * rows, a red bar at the left edge and a blue one at the right) with a face in its bottom-right corner.
 */

const FACES = path.resolve('test/fixtures/faces');
const SENTENCE = 'Two people one frame and a slide you can read';

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(ffmpegPath(), ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { maxBuffer: 8 << 20 }, (err, _o, stderr) =>
      err ? reject(new Error(`ffmpeg failed: ${stderr || err.message}`)) : resolve(),
    );
  });
}

const ENC = ['-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p'];

async function twoFaces(file: string): Promise<void> {
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=960x540:rate=15'],
    ...['-loop', '1', '-i', path.join(FACES, 'face-42.jpg'), '-loop', '1', '-i', path.join(FACES, 'face-45.jpg')],
    ...['-filter_complex', '[1:v]scale=170:170[a];[2:v]scale=170:170[b];[0:v][a]overlay=x=120:y=150[v1];[v1][b]overlay=x=660:y=150[v]'],
    ...['-map', '[v]', ...ENC, file],
  ]);
}

async function slide(file: string): Promise<void> {
  const blocks = Array.from({ length: 6 }, (_, i) => `drawbox=x=${60 + (i % 2) * 40}:y=${70 + i * 55}:w=${560 - (i % 3) * 90}:h=26:color=0x202020:t=fill`).join(
    ',',
  );
  const bars = 'drawbox=x=0:y=0:w=24:h=540:color=red:t=fill,drawbox=x=936:y=0:w=24:h=540:color=blue:t=fill';
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'color=c=white:size=960x540:rate=15', '-loop', '1', '-i', path.join(FACES, 'face-49.jpg')],
    ...['-filter_complex', `[0:v]${blocks},${bars}[s];[1:v]scale=150:150[f];[s][f]overlay=x=770:y=370[v]`],
    ...['-map', '[v]', ...ENC, file],
  ]);
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? 'docs/images');
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-layout-frames-'));
  const detector = await HumanFaceDetector.create();
  try {
    const fontsDir = path.join(work, 'fonts');
    prepareFontsDir(fontsDir);
    const sources = { faces: path.join(work, 'faces.mp4'), slide: path.join(work, 'slide.mp4') };
    await twoFaces(sources.faces);
    await slide(sources.slide);
    const tpl = getBuiltinTemplate('bold-pop')!;
    const words = SENTENCE.split(' ').map((text, i) => ({ start: 1 + i * 0.3, end: 1.25 + i * 0.3, text }));
    const layouts: Array<[string, keyof typeof sources, ReframeMode]> = [
      ['speaker', 'faces', 'speaker'],
      ['split', 'faces', 'split'],
      ['center', 'faces', 'center'],
      ['screen', 'slide', 'screen'],
      ['fit', 'slide', 'fit'],
    ];
    for (const [name, src, reframe] of layouts) {
      const range = { start: 0, end: 6 };
      const analysed = await analyzeVideo(sources[src], { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector }, { range });
      const stored = storedAnalysis(analysed, range);
      const edit = buildClipEdit({
        source: { key: 'generated', duration: 6, width: 960, height: 540 },
        start: 1,
        end: 5,
        words,
        cropPath9x16: stored.cropPath9x16,
        faces: sourceFaces(stored),
        template: { captions: tpl.captions, layout: { ...tpl.layout, reframe } },
        watermark: false,
      });
      const mp4 = path.join(work, `${name}.mp4`);
      await renderEdit(edit, { inputPath: sources[src], outputPath: mp4, fontsDir, quality: 'preview' });
      const png = path.join(outDir, `layout-${name}.png`);
      await ffmpeg(['-ss', '1.5', '-i', mp4, '-frames:v', '1', '-compression_level', '9', png]);
      console.log(`${name}: ${png} (${Object.keys(edit.layout).join(', ')})`);
    }
  } finally {
    await detector.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
