import diagnostics from 'node:diagnostics_channel';
import { FFMPEG_RUNS_CHANNEL, type FfmpegRunReport } from '../media/ffmpeg-run.js';
import type { AsrEngine } from '../../ports/asr.js';
import type { Metrics } from '../../ports/metrics.js';

/** Counts every ffmpeg run of this process (src/adapters/media/ffmpeg-run.ts publishes them). Returns the unsubscribe. */
export function reportFfmpegRuns(metrics: Metrics): () => void {
  const onRun = (message: unknown) => {
    const run = message as FfmpegRunReport;
    metrics.toolRun({ tool: 'ffmpeg', seconds: run.seconds, ok: run.ok });
  };
  diagnostics.subscribe(FFMPEG_RUNS_CHANNEL, onRun);
  return () => void diagnostics.unsubscribe(FFMPEG_RUNS_CHANNEL, onRun);
}

/** The engine, with the time of each transcription counted (`cutroom_asr_seconds_total`). */
export function meteredAsr(engine: AsrEngine, metrics: Metrics): AsrEngine {
  return {
    get name() {
      return engine.name;
    },
    supportsLanguage: (lang) => engine.supportsLanguage(lang),
    async transcribe(wavPath, opts) {
      const started = performance.now();
      let ok = false;
      try {
        const result = await engine.transcribe(wavPath, opts);
        ok = true;
        return result;
      } finally {
        metrics.toolRun({ tool: 'asr', seconds: (performance.now() - started) / 1000, ok });
      }
    },
  };
}
