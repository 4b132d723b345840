import type { VideoAnalysisPasses } from '../../domain/analysis/video-analysis.js';
import type { MediaProbe } from '../../ports/media.js';
import { sampleFrames } from './frame-sampler.js';
import { measureLoudness } from './loudness.js';
import { measurePitch } from './pitch.js';
import { detectSceneCuts } from './scene-detect.js';

/** The `video_analysis` stage's passes on ffmpeg and the media probe (the face detector is the pipeline's own dep). */
export function ffmpegAnalysisPasses(media: MediaProbe): VideoAnalysisPasses {
  return { probe: (p, o) => media.probe(p, o), detectSceneCuts, measureLoudness, measurePitch, sampleFrames };
}
