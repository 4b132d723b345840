import path from 'node:path';
import type { LocalFiles } from '../../ports/local-files.js';
import type { AudioExtractor } from '../../ports/media.js';
import type { Storage } from '../../ports/storage.js';
import type { SpeechSegment, Vad } from '../../ports/vad.js';

/**
 * Where somebody talks in the kept stretches of an edit's source (POST /edits `remove_silences`):
 * the source from storage as a local file (the local driver's own file; S3 downloads it, as a render
 * does), the 16 kHz WAV of each listened range in a scratch folder, the voice detector on each.
 * Only the stretches are listened to: stretches closer than LISTEN_JOIN_SECONDS share one range (one
 * ffmpeg run), others get their own. Times are source seconds. A source without a sound track has no
 * speech.
 */

/** Stretches with less than this between them are extracted as one range. */
export const LISTEN_JOIN_SECONDS = 10;

/** The ranges to extract for the stretches (ascending): neighbours closer than `join` merged. Pure. */
export function listenRanges(stretches: readonly SpeechSegment[], join = LISTEN_JOIN_SECONDS): SpeechSegment[] {
  const out: SpeechSegment[] = [];
  for (const s of [...stretches].sort((a, b) => a.start - b.start)) {
    if (!(s.end > s.start)) continue;
    const last = out[out.length - 1];
    if (last && s.start - last.end < join) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

export function speechInStretches(d: {
  storage: Pick<Storage, 'withLocalFile'>;
  files: Pick<LocalFiles, 'withTempDir'>;
  audio: AudioExtractor;
  vad: Pick<Vad, 'detect'>;
}) {
  return (sourceKey: string, stretches: readonly SpeechSegment[]): Promise<SpeechSegment[]> => {
    const ranges = listenRanges(stretches);
    if (ranges.length === 0) return Promise.resolve([]);
    return d.storage.withLocalFile(sourceKey, (file) =>
      d.files.withTempDir('edit-speech-', async (dir) => {
        const speech: SpeechSegment[] = [];
        for (const [i, r] of ranges.entries()) {
          const wav = path.join(dir, `range-${i}.wav`);
          if (!(await d.audio.extractWav(file, wav, r))) return [];
          for (const s of await d.vad.detect(wav)) speech.push({ start: r.start + s.start, end: Math.min(r.end, r.start + s.end) });
        }
        return speech;
      }),
    );
  };
}
