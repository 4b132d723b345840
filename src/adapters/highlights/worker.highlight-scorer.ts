import type { HighlightClip, HighlightInput, HighlightScoreContext, HighlightScorer, RankedHighlight } from '../../ports/highlights.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { highlightShortlist } from './highlights.tasks.js';

/**
 * The embedded highlight engine's scoring (sentences, candidate windows, signals, titles, overlap
 * removal) in the threads of a WorkerPool, so the `analyzing` stage leaves the event loop free; the
 * thread answers exactly what the engine computes in place. An optional scorer (the LLM) still
 * re-rates the shortlist, on the event loop (it only waits on HTTP).
 */
export class WorkerHighlightScorer implements HighlightScorer {
  readonly name: string;
  readonly maxCandidates: number;
  readonly rescore?: (candidates: HighlightClip[], ctx: HighlightScoreContext) => Promise<HighlightClip[]>;

  constructor(
    private readonly pool: WorkerPool,
    inner?: HighlightScorer,
  ) {
    this.name = inner?.name ?? 'embedded';
    this.maxCandidates = inner?.maxCandidates ?? 0;
    const rescore = inner?.rescore?.bind(inner);
    if (rescore) this.rescore = rescore;
  }

  shortlist(input: HighlightInput, count: number): Promise<RankedHighlight[]> {
    return this.pool.run<typeof highlightShortlist>('highlightShortlist', { input, count });
  }
}
