import { describe, expect, it } from 'vitest';
import { estimateSeconds, remainingSeconds, STAGE_SHARE } from '../../src/domain/submissions/submission.rules.js';

describe('the seconds left of a running submission', () => {
  it('is the whole estimate at the start, and falls with the clock inside a stage', () => {
    expect(remainingSeconds('downloading', 100, 0)).toBe(estimateSeconds(100));
    const a = remainingSeconds('transcribing', 100, 5)!;
    const b = remainingSeconds('transcribing', 100, 15)!;
    expect(b).toBeLessThan(a);
    expect(a - b).toBe(10);
  });

  it('stays within what the current stage and those after it take', () => {
    const total = estimateSeconds(600);
    // Ahead of the clock: a stage never shows more than it and the later ones take.
    expect(remainingSeconds('finalizing', 600, 0)).toBe(Math.round(total * STAGE_SHARE.finalizing));
    // Behind the clock: never less than the stages still to come.
    expect(remainingSeconds('transcribing', 600, 10_000)).toBe(Math.round(total * (1 - STAGE_SHARE.downloading - STAGE_SHARE.transcribing)));
    expect(remainingSeconds('finalizing', 600, 10_000)).toBe(1);
  });

  it('is not given for a state that is not running', () => {
    for (const s of ['queued', 'completed', 'failed'] as const) expect(remainingSeconds(s, 100, 10)).toBeUndefined();
  });

  it('shares the whole of the work among the running stages', () => {
    expect(Object.values(STAGE_SHARE).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });
});
