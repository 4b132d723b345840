import path from 'node:path';
import type { LocalFiles } from '../../ports/local-files.js';
import type { AudioExtractor } from '../../ports/media.js';
import type { Vad } from '../../ports/vad.js';

/**
 * Whether somebody talks in the first `seconds` of a file (the transcription API's check at creation):
 * its WAV in a scratch folder, then the voice detector; a file without a sound track has no speech.
 */
export function speechCheck(d: { files: Pick<LocalFiles, 'withTempDir'>; audio: AudioExtractor; vad: Pick<Vad, 'detect'> }) {
  return (file: string, seconds: number): Promise<boolean> =>
    d.files.withTempDir('vad-', async (dir) => {
      const wav = path.join(dir, 'audio.wav');
      if (!(await d.audio.extractWav(file, wav, { start: 0, end: seconds }))) return false;
      return (await d.vad.detect(wav)).length > 0;
    });
}
