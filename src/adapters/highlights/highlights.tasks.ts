import { shortlistHighlights } from '../../domain/highlights/highlight-engine.js';
import type { HighlightInput, RankedHighlight } from '../../ports/highlights.js';

/**
 * The embedded highlight engine's scoring as a worker-thread task (src/adapters/workers/compute.worker.ts):
 * the transcript, loudness and cuts go in, the best `count` non-overlapping candidates come out.
 */
export function highlightShortlist(task: { input: HighlightInput; count: number }): RankedHighlight[] {
  return shortlistHighlights(task.input, task.count);
}
