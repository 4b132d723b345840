import type { DiarizeRunOptions, Diarizer, SpeakerTurn } from '../../ports/diarizer.js';
import type { SpeechSegment } from '../../ports/vad.js';
import { readWavInfo } from '../asr/wav.js';
import { frameFeatures, readWavRange } from '../audio/features.js';
import { diarizeFeatures, type SegmentFeatures } from './diarize-features.js';

/**
 * The embedded diarizer: reads each speech segment of the WAV, computes its MFCC and pitch features
 * (src/adapters/audio/features.ts) and clusters them into speakers (diarize-features.ts). No model,
 * no process: plain TypeScript on the samples.
 */
export class EmbeddedDiarizer implements Diarizer {
  async diarize(wavPath: string, speech: SpeechSegment[], run: DiarizeRunOptions = {}): Promise<SpeakerTurn[]> {
    const info = await readWavInfo(wavPath);
    const blocks: SegmentFeatures[] = [];
    for (const s of speech) {
      if (run.signal?.aborted) throw run.signal.reason ?? new Error('aborted');
      const start = Math.max(0, s.start);
      const end = Math.min(info.duration, s.end);
      if (end - start < 0.05) continue;
      const samples = await readWavRange(wavPath, info, start, end);
      blocks.push({ start, end, features: frameFeatures(samples, info.sampleRate) });
    }
    return diarizeFeatures(blocks, { speakers: run.speakers });
  }
}
