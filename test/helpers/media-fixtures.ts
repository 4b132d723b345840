import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ffmpegPath } from '../../src/adapters/media/binaries.js';

/**
 * Small media files generated at test time with the machine's ffmpeg (lavfi test sources, no
 * downloads). Defaults keep them tiny and fast: 320x180 at 15 fps, x264 ultrafast, mono AAC 32 kb/s.
 * A 70 s video takes about 2 s and 2 MB.
 */

export interface VideoOptions {
  seconds: number;
  width?: number;
  height?: number;
  fps?: number;
  /** Adds a 440 Hz sine track. Default true. */
  audio?: boolean;
  /** Container-level title/artist tags. */
  title?: string;
  artist?: string;
  /** Stores a display rotation (degrees clockwise) in the video stream. */
  rotate?: 90 | 180 | 270;
}

export interface AudioOptions {
  seconds: number;
  title?: string;
  artist?: string;
  /** Embeds a small cover picture (an `attached_pic` video stream), like many MP3/M4A files. Only for .mp3 and .m4a. */
  coverArt?: boolean;
}

export interface HlsOptions extends Omit<VideoOptions, 'rotate' | 'title' | 'artist'> {
  /** Target segment length. Default 4 s. */
  segmentSeconds?: number;
  /** Removes `#EXT-X-ENDLIST` (and the VOD playlist type), as a stream still on air looks. Default false. */
  live?: boolean;
  /** Also writes `master.m3u8` with one variant pointing at the media playlist. Default false. */
  master?: boolean;
}

export interface HlsFixture {
  dir: string;
  /** File name of the media playlist inside `dir` (`index.m3u8`). */
  playlist: string;
  /** File name of the master playlist (`master.m3u8`) when `master` was asked. */
  master?: string;
  segments: string[];
}

export function runFfmpeg(args: string[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const bin = ffmpegPath();
    execFile(
      bin,
      ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args],
      { env: process.env, timeout: timeoutMs, maxBuffer: 4 << 20 },
      (err, _out, stderr) => {
        if (err) reject(new Error(`ffmpeg ${args.join(' ')} failed: ${stderr || err.message}`));
        else resolve();
      },
    );
  });
}

function tagArgs(o: { title?: string; artist?: string }): string[] {
  const out: string[] = [];
  if (o.title !== undefined) out.push('-metadata', `title=${o.title}`);
  if (o.artist !== undefined) out.push('-metadata', `artist=${o.artist}`);
  return out;
}

function sourceArgs(o: { seconds: number; width?: number; height?: number; fps?: number; audio?: boolean }): string[] {
  const w = o.width ?? 320;
  const h = o.height ?? 180;
  const fps = o.fps ?? 15;
  const args = ['-f', 'lavfi', '-i', `testsrc2=size=${w}x${h}:rate=${fps}`];
  if (o.audio ?? true) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050');
  args.push('-t', String(o.seconds));
  return args;
}

function videoCodecArgs(ext: string, fps: number): string[] {
  if (ext === '.webm') return ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k', '-c:a', 'libvorbis', '-ac', '1'];
  return [
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '35',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(fps * 2),
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '32k',
    '-ac',
    '1',
  ];
}

/** Writes a test-pattern video (with a sine tone unless `audio: false`). The container follows the extension: .mp4 .mov .mkv .m4v .webm. */
export async function makeVideo(file: string, o: VideoOptions): Promise<string> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const ext = path.extname(file).toLowerCase();
  const fps = o.fps ?? 15;
  const args = [...sourceArgs(o), ...videoCodecArgs(ext, fps), ...tagArgs(o)];
  const mp4 = ext === '.mp4' || ext === '.mov' || ext === '.m4v';
  if (mp4) args.push('-movflags', '+faststart');
  if (!o.rotate) {
    await runFfmpeg([...args, file]);
    return file;
  }
  // The rotation tag only becomes a display matrix when the stream is copied, so encode, then remux.
  const tmp = `${file}.unrotated${ext}`;
  await runFfmpeg([...args, tmp]);
  await runFfmpeg(['-i', tmp, '-map', '0', '-c', 'copy', '-metadata:s:v:0', `rotate=${o.rotate}`, ...(mp4 ? ['-movflags', '+faststart'] : []), file]);
  fs.rmSync(tmp, { force: true });
  return file;
}

/** Writes a sine-tone audio file; the codec follows the extension: .mp3 .m4a .aac .wav .ogg. */
export async function makeAudio(file: string, o: AudioOptions): Promise<string> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const ext = path.extname(file).toLowerCase();
  const codec: Record<string, string[]> = {
    '.mp3': ['-c:a', 'libmp3lame', '-b:a', '32k'],
    '.m4a': ['-c:a', 'aac', '-b:a', '32k'],
    '.aac': ['-c:a', 'aac', '-b:a', '32k'],
    '.wav': ['-c:a', 'pcm_s16le'],
    '.ogg': ['-c:a', 'libvorbis', '-q:a', '0'],
  };
  if (!codec[ext]) throw new Error(`makeAudio: unsupported extension ${ext}`);
  const args = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050'];
  if (o.coverArt) {
    if (ext !== '.mp3' && ext !== '.m4a') throw new Error('makeAudio: coverArt needs .mp3 or .m4a');
    args.push('-f', 'lavfi', '-i', 'color=c=red:size=64x64', '-map', '0:a', '-map', '1:v', '-frames:v', '1');
    args.push('-c:v', ext === '.mp3' ? 'mjpeg' : 'png', '-disposition:v', 'attached_pic');
    if (ext === '.mp3') args.push('-pix_fmt', 'yuvj420p', '-id3v2_version', '3');
  }
  args.push('-t', String(o.seconds), '-ac', '1', ...codec[ext], ...tagArgs(o));
  await runFfmpeg([...args, file]);
  return file;
}

/**
 * Writes an HLS rendition into `dir`: `index.m3u8` and `seg000.ts`... (VOD unless `live`), and with
 * `master` a `master.m3u8` listing it. Segments are cut on keyframes every `segmentSeconds`.
 */
export async function makeHls(dir: string, o: HlsOptions): Promise<HlsFixture> {
  fs.mkdirSync(dir, { recursive: true });
  const fps = o.fps ?? 15;
  const seg = o.segmentSeconds ?? 4;
  const args = [
    ...sourceArgs(o),
    ...videoCodecArgs('.ts', fps),
    '-force_key_frames',
    `expr:gte(t,n_forced*${seg})`,
    '-f',
    'hls',
    '-hls_time',
    String(seg),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    path.join(dir, 'seg%03d.ts'),
    path.join(dir, 'index.m3u8'),
  ];
  await runFfmpeg(args);
  const playlistPath = path.join(dir, 'index.m3u8');
  if (o.live) {
    const text = fs.readFileSync(playlistPath, 'utf8');
    fs.writeFileSync(
      playlistPath,
      text
        .split('\n')
        .filter((l) => !l.startsWith('#EXT-X-ENDLIST') && !l.startsWith('#EXT-X-PLAYLIST-TYPE'))
        .join('\n'),
    );
  }
  const segments = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const out: HlsFixture = { dir, playlist: 'index.m3u8', segments };
  if (o.master) {
    const w = o.width ?? 320;
    const h = o.height ?? 180;
    fs.writeFileSync(
      path.join(dir, 'master.m3u8'),
      ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=${w}x${h}`, 'index.m3u8', ''].join('\n'),
    );
    out.master = 'master.m3u8';
  }
  return out;
}
