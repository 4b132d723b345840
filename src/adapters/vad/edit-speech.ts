import path from 'node:path';
import { segmentOffsets, type Segment } from '../../domain/edits/edit-timeline.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { Storage } from '../../ports/storage.js';
import type { SpeechSegment, Vad } from '../../ports/vad.js';
import { localMedia, type LocalMedia } from '../media/container.js';
import { FfmpegError, inputRangeArgs, localInputArgs, runFfmpeg } from '../media/ffmpeg-run.js';

/**
 * Where somebody talks in the kept stretches of an edit's source (POST /edits `remove_silences`):
 * the source from storage as a local file (the local driver's own file; S3 downloads it, as a render
 * does), the sound of the stretches played one after another (as the edit will sound: one ffmpeg run,
 * only the stretches decoded past the seek) as a 16 kHz WAV in a scratch folder, the voice detector
 * on it, and its speech mapped back to source seconds. A source without a sound track has no speech.
 */

const secs = (t: number) => (Math.round(t * 1e6) / 1e6).toFixed(6).replace(/0+$/, '').replace(/\.$/, '');

/**
 * ffmpeg arguments (the runner adds the global flags) writing the stretches' sound, joined in order,
 * as 16 kHz mono 16-bit WAV. The input is read from the first start to the last end only. Pure.
 */
export function buildKeptAudioArgs(input: LocalMedia, output: string, stretches: readonly Segment[]): string[] {
  if (stretches.length === 0) throw new RangeError('no stretches to extract');
  const t0 = Math.floor(stretches[0].start * 1000) / 1000;
  const t1 = stretches[stretches.length - 1].end;
  const n = stretches.length;
  const trim = (s: Segment) => `atrim=start=${secs(Math.max(0, s.start - t0))}:end=${secs(s.end - t0)},asetpts=PTS-STARTPTS`;
  const graph =
    n === 1
      ? `[0:a:0]${trim(stretches[0])}[a]`
      : [
          `[0:a:0]asplit=${n}${stretches.map((_, i) => `[s${i}]`).join('')}`,
          ...stretches.map((s, i) => `[s${i}]${trim(s)}[c${i}]`),
          `${stretches.map((_, i) => `[c${i}]`).join('')}concat=n=${n}:v=0:a=1[a]`,
        ].join(';');
  return [
    '-y',
    ...localInputArgs(input, inputRangeArgs({ start: t0, end: t1 + 0.05 })),
    '-filter_complex',
    graph,
    '-map',
    '[a]',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    '-f',
    'wav',
    `file:${path.resolve(output)}`,
  ];
}

/** Writes the stretches' joined sound to `output`; false when the input has no sound track. */
export async function extractKeptAudio(input: string, output: string, stretches: readonly Segment[]): Promise<boolean> {
  try {
    await runFfmpeg(buildKeptAudioArgs(localMedia(input), output, stretches));
    return true;
  } catch (err) {
    if (err instanceof FfmpegError && /matches no streams/i.test(err.stderrTail.join('\n'))) return false;
    throw err;
  }
}

/** Times on the joined stretches (output seconds) back on the source: a span across a joint is split there. Pure. */
export function toSourceTime(spans: readonly SpeechSegment[], stretches: readonly Segment[]): SpeechSegment[] {
  const offsets = segmentOffsets(stretches);
  const out: SpeechSegment[] = [];
  for (const sp of spans) {
    stretches.forEach((s, i) => {
      const a = Math.max(sp.start, offsets[i]);
      const b = Math.min(sp.end, offsets[i] + s.end - s.start);
      if (b > a) out.push({ start: s.start + a - offsets[i], end: s.start + b - offsets[i] });
    });
  }
  return out.sort((x, y) => x.start - y.start);
}

export function speechInStretches(d: {
  storage: Pick<Storage, 'withLocalFile'>;
  files: Pick<LocalFiles, 'withTempDir'>;
  vad: Pick<Vad, 'detect'>;
  /** Default extractKeptAudio (ffmpeg). */
  extract?: (input: string, output: string, stretches: readonly Segment[]) => Promise<boolean>;
}) {
  const extract = d.extract ?? extractKeptAudio;
  return (sourceKey: string, stretches: readonly Segment[]): Promise<SpeechSegment[]> => {
    const kept = stretches.filter((s) => s.end > s.start);
    if (kept.length === 0) return Promise.resolve([]);
    return d.storage.withLocalFile(sourceKey, (file) =>
      d.files.withTempDir('edit-speech-', async (dir) => {
        const wav = path.join(dir, 'kept.wav');
        if (!(await extract(file, wav, kept))) return [];
        return toSourceTime(await d.vad.detect(wav), kept);
      }),
    );
  };
}
