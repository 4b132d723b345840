import path from 'node:path';
import { runFfmpeg } from '../../src/adapters/media/ffmpeg-run.js';
import type { CaptionWord } from '../../src/domain/edits/edit.js';
import { makeSpeechWav, speechCacheDir, TALK_SENTENCES, VOICES, type SpeechPart } from './speech-fixtures.js';

/**
 * A talk with planted pauses (generated at test time: espeak-ng sentences, digital silence, lavfi
 * picture): sentences separated by `pauseSeconds` of silence, then silence up to 61 s, over a dark grey picture. With `beep`,
 * a loud 4 kHz tone of BEEP_SECONDS is mixed into the sound and the picture is white for the same
 * BEEP_SECONDS, both starting at `beepAt` (on a frame: inside the last sentence, after a pause).
 * `words` are the sentences' words spread evenly over each sentence, as caption words.
 */

export const BEEP_HZ = 4000;
export const BEEP_SECONDS = 0.2;
/** The fixture lasts at least this long (silence after the talk): the shortest video the service takes is 60 s. */
const MIN_SECONDS = 61;

export interface PausedTalk {
  path: string;
  duration: number;
  fps: number;
  /** Source seconds of each sentence (the espeak part, its own short lead-in and tail included). */
  sentences: Array<{ start: number; end: number; text: string }>;
  words: CaptionWord[];
  /** Where the beep and the flash start (source seconds), when planted. */
  beepAt?: number;
}

export async function makePausedTalkVideo(
  outPath: string,
  opts: { sentences?: number; pauseSeconds?: number; beep?: boolean; width?: number; height?: number; fps?: number } = {},
): Promise<PausedTalk> {
  const n = opts.sentences ?? 3;
  const pause = opts.pauseSeconds ?? 2;
  const fps = opts.fps ?? 25;
  const w = opts.width ?? 320;
  const h = opts.height ?? 180;
  const parts: SpeechPart[] = [{ silence: 0.5 }];
  for (let i = 0; i < n; i++) {
    parts.push({ say: TALK_SENTENCES[i], ...VOICES.male });
    if (i < n - 1) parts.push({ silence: pause });
  }
  // Silence after the talk up to MIN_SECONDS (the shortest video the service takes).
  const talk = await makeSpeechWav(path.join(speechCacheDir(), `paused-talk-${n}-${pause}.wav`), parts);
  parts.push({ silence: Math.max(0.5, Math.ceil(MIN_SECONDS - talk.duration)) });
  const wav = await makeSpeechWav(path.join(speechCacheDir(), `paused-${n}-${pause}.wav`), parts);
  const sentences = wav.parts.filter((p) => p.kind === 'say').map((p) => ({ start: p.start, end: p.end, text: p.text! }));
  const words: CaptionWord[] = sentences.flatMap((s) => {
    const list = s.text.split(' ');
    const step = (s.end - s.start) / list.length;
    return list.map((text, i) => ({ start: round3(s.start + i * step), end: round3(s.start + (i + 0.8) * step), text }));
  });
  const last = sentences[sentences.length - 1];
  const beepAt = opts.beep ? Math.round((last.start + Math.min(0.6, (last.end - last.start) / 2)) * fps) / fps : undefined;
  const video = `color=c=0x303030:size=${w}x${h}:rate=${fps}`;
  const flash = beepAt !== undefined ? `,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='between(t,${beepAt},${beepAt + BEEP_SECONDS - 0.001})'` : '';
  const audio =
    beepAt !== undefined
      ? `[1:a]aresample=48000[sp];sine=frequency=${BEEP_HZ}:sample_rate=48000:duration=${BEEP_SECONDS},volume=0.7,adelay=${Math.round(beepAt * 1000)}[bp];` +
        `[sp][bp]amix=inputs=2:duration=first:normalize=0[a]`
      : `[1:a]aresample=48000[a]`;
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    video,
    '-i',
    wav.path,
    '-filter_complex',
    `[0:v]format=yuv420p${flash}[v];${audio}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-t',
    String(wav.duration),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '30',
    '-g',
    String(fps),
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ac',
    '1',
    '-movflags',
    '+faststart',
    outPath,
  ]);
  return { path: outPath, duration: wav.duration, fps, sentences, words, ...(beepAt !== undefined ? { beepAt } : {}) };
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
