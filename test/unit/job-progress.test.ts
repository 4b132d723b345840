import { afterEach, describe, expect, it, vi } from 'vitest';
import { STAGE_SHARE, estimateSeconds, runningProgress } from '../../src/domain/submissions/submission.rules.js';
import { stageReporter } from '../../src/domain/submissions/pipeline.js';
import { STAGE_SECONDS_PER_MEDIA_SECOND, transcriptionProgress } from '../../src/domain/transcriptions/transcriptions.rules.js';

/** `progress`, `stage` and `estimated_time` of running submissions and transcriptions, and the stage reporter's throttle. */

describe('runningProgress (submissions)', () => {
  const stretch = 600; // a 10-minute stretch: estimate 360 s
  const total = estimateSeconds(stretch);

  it('counts the stages done by their share and the current one as far as it reports', () => {
    const before = STAGE_SHARE.downloading + STAGE_SHARE.transcribing;
    const half = runningProgress('video_analysis', stretch, { sinceStart: 100, sinceStage: 5, stageFraction: 0.5 })!;
    expect(half.progress).toBeCloseTo(before + STAGE_SHARE.video_analysis / 2, 1);
    expect(half.estimated_time).toBe(Math.round(total * (STAGE_SHARE.analyzing + STAGE_SHARE.finalizing + STAGE_SHARE.video_analysis / 2)));
    const done = runningProgress('video_analysis', stretch, { sinceStart: 100, sinceStage: 5, stageFraction: 1 })!;
    expect(done.progress).toBeGreaterThan(half.progress);
    expect(done.estimated_time).toBeLessThan(half.estimated_time);
  });

  it('moves by the clock when the stage reports nothing, never past 90 % of it, never to 1', () => {
    const at = (sinceStage: number) => runningProgress('transcribing', stretch, { sinceStart: sinceStage + 10, sinceStage, stageFraction: null })!.progress;
    expect(at(0)).toBeCloseTo(STAGE_SHARE.downloading, 2);
    expect(at(30)).toBeGreaterThan(at(0));
    expect(at(100_000)).toBeCloseTo(STAGE_SHARE.downloading + 0.9 * STAGE_SHARE.transcribing, 1);
    const last = runningProgress('finalizing', stretch, { sinceStart: 1e6, sinceStage: 0, stageFraction: 1 })!;
    expect(last.progress).toBe(0.99);
    expect(last.estimated_time).toBe(1);
  });

  it('never goes back when a reporting stage’s first report comes after the clock would have run ahead', () => {
    // Finalizing reports its own fraction; before its first report the clock is not used for it.
    const quiet = runningProgress('finalizing', stretch, { sinceStart: 1e4, sinceStage: 1e4, stageFraction: null })!.progress;
    const firstReport = runningProgress('finalizing', stretch, { sinceStart: 1e4, sinceStage: 1e4, stageFraction: 0.1 })!.progress;
    expect(firstReport).toBeGreaterThanOrEqual(quiet);
    expect(quiet).toBeCloseTo(1 - STAGE_SHARE.finalizing, 2);
    const analysing = runningProgress('video_analysis', stretch, { sinceStart: 1e4, sinceStage: 1e4, stageFraction: null })!.progress;
    expect(runningProgress('video_analysis', stretch, { sinceStart: 1e4, sinceStage: 1e4, stageFraction: 0.05 })!.progress).toBeGreaterThanOrEqual(analysing);
  });

  it('is undefined for states that do not run', () => {
    for (const s of ['queued', 'completed', 'failed'] as const)
      expect(runningProgress(s, stretch, { sinceStart: 1, sinceStage: 1, stageFraction: null })).toBeUndefined();
  });
});

describe('transcriptionProgress', () => {
  it('starts at 0 with the whole estimate before the job runs', () => {
    const total = ['extracting_audio', 'detecting_speech', 'recognising'].reduce(
      (s, k) => s + Math.max(0.5, STAGE_SECONDS_PER_MEDIA_SECOND[k as keyof typeof STAGE_SECONDS_PER_MEDIA_SECOND] * 600),
      0,
    );
    expect(transcriptionProgress(null, 0, 600, false)).toEqual({ progress: 0, estimated_time: Math.round(total) });
  });
  it('grows with the steps and the clock, and counts speaker labelling only when asked', () => {
    const a = transcriptionProgress('detecting_speech', 0, 600, false);
    const b = transcriptionProgress('recognising', 10, 600, false);
    const c = transcriptionProgress('recognising', 10_000, 600, false);
    expect(a.progress).toBeLessThan(b.progress);
    expect(b.progress).toBeLessThan(c.progress);
    expect(c.progress).toBeLessThan(1);
    expect(b.estimated_time).toBeGreaterThan(c.estimated_time);
    expect(transcriptionProgress('recognising', 10, 600, true).progress).toBeLessThan(b.progress);
    expect(transcriptionProgress('labelling_speakers', 0, 600, true).progress).toBeGreaterThan(0.6);
    expect(transcriptionProgress('unknown-step', 0, 600, false).progress).toBe(0);
  });
});

describe('stageReporter', () => {
  afterEach(() => vi.useRealTimers());
  it('writes at most once every 2 s and only after a move of a percent, in order, dropping failures', async () => {
    vi.useFakeTimers();
    const written: number[] = [];
    let fail = true;
    const report = stageReporter(async (f) => {
      if (fail) {
        fail = false;
        throw new Error('database away');
      }
      written.push(f);
    });
    report(0.1); // written (fails, dropped)
    report(0.2); // too soon
    vi.advanceTimersByTime(2100);
    report(0.205); // moved by under a percent from 0.2? 0.1 was the last written: written
    vi.advanceTimersByTime(2100);
    report(0.21); // under a percent since 0.205
    vi.advanceTimersByTime(2100);
    report(0.5);
    await vi.runAllTimersAsync();
    await Promise.resolve();
    expect(written).toEqual([0.205, 0.5]);
  });
});
