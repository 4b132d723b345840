import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ffmpegPath } from '../../src/adapters/media/binaries.js';
import { runFfmpeg } from './media-fixtures.js';

/**
 * A real local broadcast for live monitors: a fixture (a test picture with `wav`'s sound, MPEG-TS) that
 * ffmpeg airs in real time (-re) as a live HLS playlist, served by a static server over its folder.
 * Used by test/e2e/monitor-live.test.ts and the Studio's Monitors page test.
 */

/** `wav` (of `seconds`) under a small test picture, as MPEG-TS at `out`: what `airHls` plays. */
export async function makeBroadcastFixture(wav: string, seconds: number, out: string): Promise<void> {
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x90:rate=10',
    '-i',
    wav,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '35',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '20',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '48k',
    '-ac',
    '1',
    '-f',
    'mpegts',
    out,
  ]);
}

export interface Airing {
  /** The playlist's address under `baseUrl`. */
  url: string;
  /** Resolves when ffmpeg wrote the whole fixture (the playlist then ends with #EXT-X-ENDLIST). */
  done: Promise<void>;
  proc: ChildProcess;
}

/**
 * ffmpeg -re: `source` aired in real time as a live HLS playlist at `<dir>/<name>/live.m3u8`
 * (`segmentSeconds` segments, a 10-segment window); ends with #EXT-X-ENDLIST.
 */
export function airHls(source: string, dir: string, name: string, baseUrl: string, segmentSeconds = 2): Airing {
  const out = path.join(dir, name);
  fs.mkdirSync(out, { recursive: true });
  const proc = spawn(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-re',
      '-i',
      source,
      '-c',
      'copy',
      '-f',
      'hls',
      '-hls_time',
      String(segmentSeconds),
      '-hls_list_size',
      '10',
      '-hls_flags',
      'delete_segments+temp_file',
      '-hls_segment_filename',
      path.join(out, 'seg%03d.ts'),
      path.join(out, 'live.m3u8'),
    ],
    { stdio: 'ignore' },
  );
  const done = new Promise<void>((resolve, reject) => proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`)))));
  return { url: `${baseUrl}/${name}/live.m3u8`, done, proc };
}
