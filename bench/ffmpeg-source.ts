import { spawn } from 'node:child_process';
import { ffmpegPath } from '../src/adapters/media/binaries.js';
import { buildFfmpegArgs } from '../src/adapters/media/ffmpeg-run.js';

/** What the render benchmarks share: running ffmpeg as the service does, and their generated source. */

/** Runs ffmpeg with the runner's global flags, without -progress; resolves with the wall time in ms. */
export function ffmpeg(args: string[]): Promise<number> {
  const bin = ffmpegPath();
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, buildFfmpegArgs(args, { progress: false }), { env: process.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`ffmpeg exited ${code}: ${err.slice(-2000)}`))));
  });
}

/** A 1920x1080 30 fps test picture with a 220 Hz tone, `seconds` long, H.264 + AAC (the renders' source). */
export async function makeSource(file: string, seconds: number): Promise<void> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:sample_rate=48000',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '23',
    '-g',
    '60',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-y',
    file,
  ]);
}
