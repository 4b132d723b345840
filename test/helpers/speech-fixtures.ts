import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runFfmpeg } from '../../src/adapters/media/ffmpeg-run.js';
import { readWavInfo, wavHeader } from '../../src/adapters/asr/wav.js';
import { errorRate, wordErrors } from './wer.js';

/**
 * Speech fixtures generated at test time (Debian packages espeak-ng and pocketsphinx-testdata, the
 * npm-shipped ffmpeg; nothing downloaded): synthetic sentences, human read speech, silences,
 * concatenated into a 16 kHz mono WAV whose timeline is known to the sample, and a small video
 * with that sound track. Generated files are cached per process in a temp dir.
 *
 * Voices: plain espeak-ng voices (`en-us`, `en-us+m3`, `en-us+f3`) are recognised badly by
 * pocketsphinx (about a quarter of the words); its Klatt variants at a low or high pitch are
 * recognised much better, so VOICES.male / VOICES.female use those. m3 / f3 stay available for
 * tests that need two clearly different voices.
 */

const exec = promisify(execFile);
const RATE = 16000;

export const TESTDATA_DIR = '/usr/share/pocketsphinx/test/data';

export interface Voice {
  voice: string;
  pitch?: number;
  speed?: number;
}

export const VOICES = {
  male: { voice: 'en-us+klatt', pitch: 20, speed: 150 },
  female: { voice: 'en-us+klatt2', pitch: 85, speed: 150 },
  male3: { voice: 'en-us+m3', speed: 150 },
  female3: { voice: 'en-us+f3', speed: 150 },
} satisfies Record<string, Voice>;

/** Human speech shipped by pocketsphinx-testdata (16 kHz), with what is said. */
export const TESTDATA_CLIPS = {
  austen0870: {
    file: 'librivox/sense_and_sensibility_01_austen_64kb-0870.wav',
    text: 'and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them',
  },
  austen0880: { file: 'librivox/sense_and_sensibility_01_austen_64kb-0880.wav', text: 'he was not an ill disposed young man' },
  austen0890: {
    file: 'librivox/sense_and_sensibility_01_austen_64kb-0890.wav',
    text: 'unless to be rather cold hearted and rather selfish is to be ill disposed',
  },
  austen0920: {
    file: 'librivox/sense_and_sensibility_01_austen_64kb-0920.wav',
    text: 'had he married a more a amiable woman he might have been made still more respectable than he was',
  },
  austen0930: { file: 'librivox/sense_and_sensibility_01_austen_64kb-0930.wav', text: 'he might even have been made amiable himself' },
  goforward: { file: 'goforward.raw', text: 'go forward ten meters' },
  cards001: { file: 'cards/001.wav', text: 'ten of clubs' },
  cards002: { file: 'cards/002.wav', text: 'four queen of clubs' },
  cards003: { file: 'cards/003.wav', text: 'seven of clubs' },
  cards004: { file: 'cards/004.wav', text: 'five five' },
  cards005: { file: 'cards/005.wav', text: 'eight of spades four of clubs seven of hearts' },
} as const;

/** The human recordings by set, as the package's own tests group them (96 words in all). */
export const TESTDATA_SETS: Readonly<Record<'librivox' | 'cards' | 'goforward', readonly TestdataClipName[]>> = {
  librivox: ['austen0870', 'austen0880', 'austen0890', 'austen0920', 'austen0930'],
  cards: ['cards001', 'cards002', 'cards003', 'cards004', 'cards005'],
  goforward: ['goforward'],
};

export type TestdataClipName = keyof typeof TESTDATA_CLIPS;

export interface SpeechPart {
  /** Text spoken by espeak-ng. */
  say?: string;
  /** espeak-ng voice (default VOICES.male's). */
  voice?: string;
  pitch?: number;
  speed?: number;
  /** Seconds of digital silence. */
  silence?: number;
  /** A clip of pocketsphinx-testdata: a TESTDATA_CLIPS name or a path under TESTDATA_DIR. */
  testdata?: string;
  /** Free label carried into the timeline (e.g. a speaker name). */
  speaker?: string;
}

export interface PlacedPart {
  start: number;
  end: number;
  kind: 'say' | 'testdata' | 'silence';
  /** What is said (espeak text or the clip's transcript). */
  text?: string;
  voice?: string;
  speaker?: string;
}

export interface SpeechFixture {
  path: string;
  duration: number;
  parts: PlacedPart[];
}

let cacheDir: string | undefined;
/** This process's fixture cache (removed at exit). */
export function speechCacheDir(): string {
  if (!cacheDir) {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-speech-'));
    const dir = cacheDir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return cacheDir;
}

const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16);
const pcmCache = new Map<string, Promise<Buffer>>();
const fileCache = new Map<string, Promise<SpeechFixture>>();

async function pcmOfWav(file: string): Promise<Buffer> {
  const info = await readWavInfo(file);
  const fd = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(info.dataBytes);
    await fd.read(buf, 0, buf.length, info.dataOffset);
    return buf;
  } finally {
    await fd.close();
  }
}

function testdataPath(name: string): { file: string; text?: string } {
  const clip = (TESTDATA_CLIPS as Record<string, { file: string; text: string }>)[name];
  const file = path.resolve(TESTDATA_DIR, clip ? clip.file : name);
  if (!file.startsWith(TESTDATA_DIR + '/')) throw new Error(`testdata ${name} is outside ${TESTDATA_DIR}`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: install the Debian package pocketsphinx-testdata (scripts/setup.sh)`);
  return { file, text: clip?.text };
}

/** 16 kHz mono s16 PCM of one part (cached). */
function renderPart(part: SpeechPart): Promise<Buffer> {
  const key = hash(part);
  let p = pcmCache.get(key);
  if (p) return p;
  p = (async () => {
    const dir = speechCacheDir();
    const out = path.join(dir, `part-${key}.wav`);
    if (part.say !== undefined) {
      const raw = path.join(dir, `part-${key}.espeak.wav`);
      const v = part.voice ?? VOICES.male.voice;
      const args = ['-v', v, '-s', String(part.speed ?? 150), '-w', raw];
      const pitch = part.pitch ?? (part.voice === undefined ? VOICES.male.pitch : undefined);
      if (pitch !== undefined) args.push('-p', String(pitch));
      await exec('espeak-ng', [...args, part.say]);
      await runFfmpeg(['-y', '-i', raw, '-ac', '1', '-ar', String(RATE), '-c:a', 'pcm_s16le', out]);
    } else if (part.testdata !== undefined) {
      const { file } = testdataPath(part.testdata);
      const input = file.endsWith('.raw') ? ['-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', file] : ['-i', file];
      await runFfmpeg(['-y', ...input, '-ac', '1', '-ar', String(RATE), '-c:a', 'pcm_s16le', out]);
    } else {
      const s = part.silence ?? 0;
      return Buffer.alloc(Math.round(s * RATE) * 2);
    }
    return pcmOfWav(out);
  })();
  pcmCache.set(key, p);
  return p;
}

async function buildWav(parts: SpeechPart[], out: string): Promise<SpeechFixture> {
  const buffers = await Promise.all(parts.map(renderPart));
  const placed: PlacedPart[] = [];
  let samples = 0;
  parts.forEach((part, i) => {
    const n = buffers[i].length / 2;
    const kind = part.say !== undefined ? 'say' : part.testdata !== undefined ? 'testdata' : 'silence';
    const text = part.say ?? (part.testdata !== undefined ? testdataPath(part.testdata).text : undefined);
    placed.push({
      start: samples / RATE,
      end: (samples + n) / RATE,
      kind,
      ...(text !== undefined ? { text } : {}),
      ...(kind === 'say' ? { voice: part.voice ?? VOICES.male.voice } : {}),
      ...(part.speaker !== undefined ? { speaker: part.speaker } : {}),
    });
    samples += n;
  });
  const data = Buffer.concat(buffers);
  await fs.promises.writeFile(out, Buffer.concat([wavHeader(data.length, RATE), data]));
  return { path: out, duration: samples / RATE, parts: placed };
}

async function cached(key: string, ext: string, outPath: string, make: (file: string) => Promise<SpeechFixture>): Promise<SpeechFixture> {
  let p = fileCache.get(key);
  if (!p) {
    p = make(path.join(speechCacheDir(), `${key}${ext}`));
    fileCache.set(key, p);
    p.catch(() => fileCache.delete(key));
  }
  const made = await p;
  await fs.promises.mkdir(path.dirname(path.resolve(outPath)), { recursive: true });
  if (path.resolve(outPath) !== made.path) await fs.promises.copyFile(made.path, outPath);
  return { ...made, path: path.resolve(outPath) };
}

/** Writes the parts one after the other into a 16 kHz mono 16-bit WAV at `outPath`; returns the timeline. */
export function makeSpeechWav(outPath: string, parts: SpeechPart[]): Promise<SpeechFixture> {
  return cached(`speech-${hash(parts)}`, '.wav', outPath, (file) => buildWav(parts, file));
}

/** Sentences of the generated talk: common words, a question, numbers, strong words (highlight signals). */
export const TALK_SENTENCES = [
  'hello and welcome back to the show',
  'today we need to talk about the money and the time we have left',
  'i think this is the most important thing i have ever said',
  'what do you want to do today',
  'we made one million dollars in three years',
  'this is amazing and i love it',
  'the first thing you need to know is very simple',
  'why do most people never start',
  'thank you very much for watching',
];

/**
 * A talk of about `seconds`: sentences in two alternating voices, human read speech and pauses of
 * 0.8 to 2.4 s, deterministic; ends with silence up to exactly `seconds`.
 */
export function talkScript(seconds: number): SpeechPart[] {
  const human: TestdataClipName[] = ['austen0870', 'austen0880', 'austen0890', 'austen0920', 'austen0930'];
  const parts: SpeechPart[] = [{ silence: 0.5 }];
  let estimate = 0.5;
  for (let i = 0; estimate < seconds - 8; i++) {
    if (i % 4 === 3) {
      parts.push({ testdata: human[Math.floor(i / 4) % human.length], speaker: 'human' });
      estimate += 5;
    } else {
      const who = i % 2 === 0 ? 'male' : 'female';
      parts.push({ say: TALK_SENTENCES[i % TALK_SENTENCES.length], ...VOICES[who], speaker: who });
      estimate += 3;
    }
    const pause = 0.8 + ((i * 7) % 9) * 0.2;
    parts.push({ silence: pause });
    estimate += pause;
  }
  return parts;
}

async function padTo(parts: SpeechPart[], seconds: number): Promise<SpeechPart[]> {
  const buffers = await Promise.all(parts.map(renderPart));
  const have = buffers.reduce((a, b) => a + b.length / 2, 0) / RATE;
  if (have > seconds) throw new Error(`talk script is ${have.toFixed(1)} s, longer than ${seconds} s`);
  return [...parts, { silence: Math.round((seconds - have) * RATE) / RATE }];
}

/** A talk WAV of exactly `minutes` (see talkScript). */
export async function makeTalkWav(outPath: string, opts: { minutes: number }): Promise<SpeechFixture> {
  const seconds = Math.round(opts.minutes * 60 * 1000) / 1000;
  return makeSpeechWav(outPath, await padTo(talkScript(seconds), seconds));
}

/** An MP4 (x264 ultrafast test pattern + mono AAC) of exactly `minutes` of talk; the timeline of its sound. */
export async function makeTalkVideo(outPath: string, opts: { minutes: number; width?: number; height?: number; fps?: number }): Promise<SpeechFixture> {
  const w = opts.width ?? 160;
  const h = opts.height ?? 90;
  const fps = opts.fps ?? 10;
  const key = `talkvideo-${hash({ ...opts, w, h, fps })}`;
  return cached(key, '.mp4', outPath, async (file) => {
    const wav = await makeTalkWav(path.join(speechCacheDir(), `${key}.wav`), { minutes: opts.minutes });
    await runFfmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${w}x${h}:rate=${fps}`,
        '-i',
        wav.path,
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-t',
        String(wav.duration),
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
        '-c:a',
        'aac',
        '-b:a',
        '48k',
        '-ac',
        '1',
        '-movflags',
        '+faststart',
        file,
      ],
      { timeoutMs: 600_000 },
    );
    return { ...wav, path: file };
  });
}

/** Word error rate of `hyp` against `ref`, both normalised as test/helpers/wer.ts documents (case, punctuation, numbers, mr/mister). */
export function wordErrorRate(ref: string, hyp: string): number {
  return errorRate([wordErrors(ref, hyp)]);
}
