import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AudioExtractError, buildAudioExtractArgs, extractAudio } from '../../src/adapters/media/audio-extract.js';
import { runFfmpeg } from '../../src/adapters/media/ffmpeg-run.js';
import { readWavInfo } from '../../src/adapters/asr/wav.js';

const mov = (p: string) => ({ path: p, format: 'mov' as const });

describe('buildAudioExtractArgs', () => {
  it('extracts the first audio stream as 16 kHz mono s16 WAV', () => {
    expect(buildAudioExtractArgs(mov('/media/in.mp4'), '/tmp/out.wav')).toEqual([
      '-y',
      '-protocol_whitelist',
      'file',
      '-f',
      'mov',
      '-i',
      'file:/media/in.mp4',
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      'file:/tmp/out.wav',
    ]);
  });

  it('seeks the input and limits the length for a range', () => {
    const args = buildAudioExtractArgs(mov('/m/in.mkv'), '/t/o.wav', { start: 12.5, end: 42.25 });
    expect(args.slice(0, 8)).toEqual(['-y', '-protocol_whitelist', 'file', '-ss', '12.5', '-f', 'mov', '-i']);
    expect(args[args.indexOf('-t') + 1]).toBe('29.75');
    expect(args.indexOf('-t')).toBeGreaterThan(args.indexOf('-i'));
    expect(buildAudioExtractArgs(mov('/m/in.mkv'), '/t/o.wav', { end: 10 })).toContain('-t');
    expect(buildAudioExtractArgs(mov('/m/in.mkv'), '/t/o.wav', { start: 0 })).not.toContain('-ss');
  });

  it('keeps odd file names as file names and resolves relative paths', () => {
    const args = buildAudioExtractArgs(mov('-weird:name.mp4'), 'out:x.wav');
    expect(args).toContain(`file:${path.resolve('-weird:name.mp4')}`);
    expect(args[args.length - 1]).toBe(`file:${path.resolve('out:x.wav')}`);
  });

  it('honours another sample rate and refuses bad ranges', () => {
    expect(buildAudioExtractArgs(mov('a'), 'b', { sampleRate: 8000 })).toContain('8000');
    expect(() => buildAudioExtractArgs(mov('a'), 'b', { start: -1 })).toThrow(RangeError);
    expect(() => buildAudioExtractArgs(mov('a'), 'b', { start: 5, end: 5 })).toThrow(RangeError);
    expect(() => buildAudioExtractArgs(mov('a'), 'b', { end: Number.NaN })).toThrow(RangeError);
    expect(() => buildAudioExtractArgs(mov('a'), 'b', { sampleRate: 100 })).toThrow(RangeError);
  });
});

describe('extractAudio (real ffmpeg)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-extract-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('turns a stereo 44.1 kHz video into 16 kHz mono WAV, whole or a range', async () => {
    const video = path.join(dir, 'in.mp4');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=64x36:rate=5',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:sample_rate=44100',
      '-t',
      '6',
      '-ac',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      video,
    ]);
    const whole = path.join(dir, 'whole.wav');
    await extractAudio(video, whole);
    const w = await readWavInfo(whole);
    expect(w).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, format: 1 });
    expect(w.duration).toBeGreaterThan(5.9);
    expect(w.duration).toBeLessThan(6.1);

    const part = path.join(dir, 'part.wav');
    await extractAudio(video, part, { start: 2, end: 4.5 });
    const p = await readWavInfo(part);
    expect(p.duration).toBeCloseTo(2.5, 1);
  });

  it('says NO_AUDIO_STREAM for a video without sound', async () => {
    const silent = path.join(dir, 'silent.mp4');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=64x36:rate=5',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      silent,
    ]);
    const err = await extractAudio(silent, path.join(dir, 'x.wav')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AudioExtractError);
    expect((err as AudioExtractError).code).toBe('NO_AUDIO_STREAM');
  });
});
