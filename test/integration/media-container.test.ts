import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffFile } from '../../src/adapters/media/container.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { tempDir } from '../helpers/app.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/** Real files written by ffmpeg are sniffed as the container ffmpeg wrote, and probe with it forced. */

let dir: string;
beforeAll(() => {
  dir = tempDir('cutroom-containers-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const VIDEO = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-f', 'lavfi', '-i', 'sine=sample_rate=44100', '-t', '1'];
const AUDIO = ['-f', 'lavfi', '-i', 'sine=sample_rate=44100', '-t', '1'];

const CASES: [string, string[], string][] = [
  ['a.mp4', [...VIDEO, '-c:v', 'libx264', '-c:a', 'aac'], 'mov'],
  ['a.mov', [...VIDEO, '-c:v', 'libx264', '-c:a', 'aac'], 'mov'],
  ['a.m4a', [...AUDIO, '-c:a', 'aac'], 'mov'],
  ['a.mkv', [...VIDEO, '-c:v', 'libx264', '-c:a', 'aac'], 'matroska'],
  ['a.webm', [...VIDEO, '-c:v', 'libvpx', '-c:a', 'libopus', '-deadline', 'realtime'], 'matroska'],
  ['a.ts', [...VIDEO, '-c:v', 'libx264', '-c:a', 'aac', '-f', 'mpegts'], 'mpegts'],
  ['a.flv', [...VIDEO, '-c:v', 'flv', '-c:a', 'aac'], 'flv'],
  ['a.mp3', [...AUDIO, '-c:a', 'libmp3lame'], 'mp3'],
  ['a.wav', [...AUDIO, '-c:a', 'pcm_s16le'], 'wav'],
  ['a.flac', [...AUDIO, '-c:a', 'flac'], 'flac'],
  ['a.ogg', [...AUDIO, '-c:a', 'libvorbis'], 'ogg'],
  ['a.aac', [...AUDIO, '-c:a', 'aac', '-f', 'adts'], 'aac'],
];

describe('containers written by ffmpeg', () => {
  it.each(CASES)('%s is sniffed as %s and probes with that demuxer', async (name, args, want) => {
    const file = path.join(dir, name);
    await runFfmpeg([...args, file]);
    expect(sniffFile(file)).toBe(want);
    const info = await probe(file);
    expect(info.container).toBe(want);
    expect(info.duration).toBeGreaterThan(0.5);
  });
});
