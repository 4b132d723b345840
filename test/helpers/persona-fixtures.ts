import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFfmpeg } from './media-fixtures.js';
import { makeSpeechWav } from './speech-fixtures.js';

/**
 * Persona fixtures from the synthetic faces in test/fixtures/faces (people who do not exist, made by a
 * generative model; copied into the repository so a clone anywhere has them): face photos with margin, two faces, no face, and a "talking head" video (a
 * face photo moved slowly by ffmpeg over a still background, with espeak-ng speech).
 */

export const FACES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/faces');

export function syntheticFace(n: 42 | 44 | 45 | 49 | 53 | 55 = 42): string {
  const file = path.join(FACES_DIR, `face-${n}.jpg`);
  if (!fs.existsSync(file)) throw new Error(`synthetic face fixture missing: ${file}`);
  return file;
}

/** A face photo: the synthetic face (scaled to `face` px) on a larger grey canvas, as PNG or JPEG by extension. */
export async function facePhoto(out: string, opts: { n?: 42 | 44 | 45 | 49 | 53 | 55; face?: number; canvas?: number } = {}): Promise<string> {
  const face = opts.face ?? 320;
  const canvas = opts.canvas ?? 640;
  await runFfmpeg([
    '-i',
    syntheticFace(opts.n),
    '-vf',
    `scale=${face}:${face},pad=${canvas}:${canvas}:(ow-iw)/2:(oh-ih)/3:color=0x808890`,
    '-frames:v',
    '1',
    out,
  ]);
  return out;
}

/** Two different synthetic faces side by side on one photo. */
export async function twoFacesPhoto(out: string): Promise<string> {
  await runFfmpeg([
    '-i',
    syntheticFace(44),
    '-i',
    syntheticFace(53),
    '-filter_complex',
    '[0]scale=280:280,pad=360:480:40:100:color=0x808890[a];[1]scale=280:280,pad=360:480:40:100:color=0x808890[b];[a][b]hstack=inputs=2',
    '-frames:v',
    '1',
    out,
  ]);
  return out;
}

/** A picture with no face (a test pattern). */
export async function noFacePhoto(out: string): Promise<string> {
  await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=480x480', '-frames:v', '1', out]);
  return out;
}

/**
 * A talking-head video of `seconds`: the synthetic face (`face` px) over a textured still background
 * (a test pattern, so a pixel check can tell the background apart), drifting slowly sideways and
 * up/down, with espeak-ng speech as its sound. 360x640 (9:16) at 15 fps, H.264 + AAC.
 */
export async function talkingHeadVideo(out: string, opts: { seconds?: number; n?: 42 | 44 | 45 | 49 | 53 | 55; face?: number } = {}): Promise<string> {
  // Face 53 by default: another person than the default face photo (42).
  const seconds = opts.seconds ?? 4;
  const face = opts.face ?? 220;
  const dir = path.dirname(out);
  const wav = path.join(dir, `${path.basename(out, path.extname(out))}.speech.wav`);
  await makeSpeechWav(wav, [
    { silence: 0.3 },
    { say: 'Hello, I am a person who does not exist, and this is a short test of the head swap.' },
    { silence: 0.5 },
  ]);
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=360x640:rate=15,hue=s=0.35`,
    '-loop',
    '1',
    '-framerate',
    '15',
    '-i',
    syntheticFace(opts.n ?? 53),
    '-i',
    wav,
    '-filter_complex',
    `[1]scale=${face}:${face},format=rgb24[f];[0][f]overlay=x='(W-w)/2+12*sin(t*1.3)':y='150+8*sin(t*0.9)':shortest=1,format=yuv420p[v]`,
    '-map',
    '[v]',
    '-map',
    '2:a',
    '-af',
    'apad',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '23',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-ac',
    '1',
    '-movflags',
    '+faststart',
    out,
  ]);
  return out;
}

/** A video without a face: a test pattern with a tone. */
export async function noFaceVideo(out: string, seconds = 3): Promise<string> {
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=360x640:rate=15',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:sample_rate=22050',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '32k',
    '-ac',
    '1',
    '-movflags',
    '+faststart',
    out,
  ]);
  return out;
}
