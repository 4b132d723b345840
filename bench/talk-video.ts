import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFfmpeg } from '../src/adapters/media/ffmpeg-run.js';
import { makeTalkWav, speechCacheDir } from '../test/helpers/speech-fixtures.js';

/**
 * A generated talk video for benchmarks, kept in a cache folder between runs (default
 * `$TMPDIR/cutroom-bench-cache`, or `BENCH_CACHE_DIR`). The sound is the test suite's talk
 * (makeTalkWav: espeak-ng sentences in two voices, pocketsphinx-testdata read speech, pauses);
 * the picture is makeTalkVideo's recipe (testsrc2, x264 ultrafast) with a real face photo from
 * @vladmandic/human's assets sliding across it, so face detection and the speaker crop have
 * something to follow. The cache key covers the options and the fixture generator's source, so
 * a changed talk script makes a new file.
 */

export interface TalkVideoOptions {
  minutes: number;
  width?: number;
  height?: number;
  fps?: number;
  cacheDir?: string;
}

export interface TalkVideo {
  path: string;
  /** Seconds of sound (the video's length). */
  duration: number;
  width: number;
  height: number;
  fps: number;
  /** True when the file came from the cache. */
  cached: boolean;
  /** Seconds spent generating it (0 when cached). */
  makeSeconds: number;
}

const RECIPE_VERSION = 1;

function generatorHash(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const h = createHash('sha256');
  h.update(String(RECIPE_VERSION));
  for (const f of [path.join(here, '..', 'test', 'helpers', 'speech-fixtures.ts')]) {
    try {
      h.update(fs.readFileSync(f));
    } catch {
      // A missing source only means the cache key cannot follow its changes.
    }
  }
  return h.digest('hex').slice(0, 10);
}

export function benchCacheDir(dir?: string): string {
  return path.resolve(dir ?? process.env.BENCH_CACHE_DIR ?? path.join(os.tmpdir(), 'cutroom-bench-cache'));
}

/** Returns the cached talk video for these options, generating it first when it is not there. */
export async function cachedTalkVideo(opts: TalkVideoOptions): Promise<TalkVideo> {
  const width = opts.width ?? 640;
  const height = opts.height ?? 360;
  const fps = opts.fps ?? 25;
  const dir = benchCacheDir(opts.cacheDir);
  fs.mkdirSync(dir, { recursive: true });
  const tag = `${opts.minutes}m-${width}x${height}-${fps}fps-${generatorHash()}`;
  const file = path.join(dir, `talk-${tag}.mp4`);
  const meta = path.join(dir, `talk-${tag}.json`);
  if (fs.existsSync(file) && fs.existsSync(meta)) {
    const { duration } = JSON.parse(fs.readFileSync(meta, 'utf8')) as { duration: number };
    return { path: file, duration, width, height, fps, cached: true, makeSeconds: 0 };
  }

  const t0 = performance.now();
  const wav = await makeTalkWav(path.join(speechCacheDir(), `bench-talk-${tag}.wav`), { minutes: opts.minutes });
  const require = createRequire(import.meta.url);
  const photo = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..', 'assets', 'screenshot-faceid.jpg');
  const face = Math.round(height / 2.6 / 2) * 2;
  // Written under a unique name and renamed, so a run that stops half way leaves no broken cache entry.
  const tmp = path.join(dir, `.talk-${tag}-${process.pid}.mp4`);
  try {
    await runFfmpeg(
      [
        '-y',
        '-i',
        photo,
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${width}x${height}:rate=${fps}`,
        '-i',
        wav.path,
        '-filter_complex',
        `[0:v]crop=140:140:14:142,scale=${face}:${face}[f];[1:v][f]overlay=x='(W-w)/2+(W-w)/2*sin(t/6)':y=(H-h)/3,format=yuv420p[v]`,
        '-map',
        '[v]',
        '-map',
        '2:a',
        '-t',
        String(wav.duration),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '30',
        '-g',
        String(fps * 2),
        '-c:a',
        'aac',
        '-b:a',
        '48k',
        '-ac',
        '1',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        tmp,
      ],
      { timeoutMs: 3_600_000 },
    );
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fs.writeFileSync(meta, JSON.stringify({ duration: wav.duration, width, height, fps, minutes: opts.minutes }));
  return { path: file, duration: wav.duration, width, height, fps, cached: false, makeSeconds: (performance.now() - t0) / 1000 };
}
