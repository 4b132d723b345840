import type { SpeechSegment } from '../../ports/vad.js';
import { planChunks } from './chunking.js';
import { FRAME_RATE, type UtteranceFrames } from './pocketsphinx.ctm.js';

/**
 * The utterances the embedded recogniser decodes (pure): the voice detector's speech segments,
 * padded, long ones split at their quietest place, in recogniser frames; then shared out between
 * the processes that decode them.
 */

export interface UtterancePlanOptions {
  /** Silence kept before and after each segment (never across a neighbour). Default 0.1 s. */
  padSeconds?: number;
  /** Longer segments are split at their quietest place (see planChunks). Default 30 s. */
  maxSeconds?: number;
  /** Loudness of the file per 10 ms frame (dBFS); without it a long segment is split at its target length. */
  levels?: ArrayLike<number>;
}

/**
 * Utterances in frames of 10 ms (`u0000`, `u0001`, … in time order), inside [0, duration], never
 * overlapping, each at most `maxSeconds` long (plus padding).
 */
export function planUtterances(speech: readonly SpeechSegment[], duration: number, opts: UtterancePlanOptions = {}): UtteranceFrames[] {
  const pad = opts.padSeconds ?? 0.1;
  const max = opts.maxSeconds ?? 30;
  const total = Math.floor(duration * FRAME_RATE);
  const spans: Array<{ first: number; last: number }> = [];
  for (const s of [...speech].sort((a, b) => a.start - b.start)) {
    const a = Math.max(0, Math.floor(s.start * FRAME_RATE));
    const b = Math.min(total, Math.ceil(s.end * FRAME_RATE));
    if (b <= a) continue;
    if ((b - a) / FRAME_RATE <= max) {
      spans.push({ first: a, last: b });
      continue;
    }
    const levels = opts.levels ? Array.from({ length: b - a }, (_, i) => opts.levels![a + i] ?? -100) : new Float32Array(b - a).fill(-20);
    for (const c of planChunks(levels, 1 / FRAME_RATE, { maxChunkSeconds: max, minChunkSeconds: max / 2, targetChunkSeconds: max * 0.75 })) {
      spans.push({ first: a + Math.round(c.start * FRAME_RATE), last: a + Math.round(c.end * FRAME_RATE) });
    }
  }
  const padFrames = Math.round(pad * FRAME_RATE);
  const out: UtteranceFrames[] = [];
  spans.forEach((s, i) => {
    const prevLast = out.length ? out[out.length - 1].last : 0;
    const next = spans[i + 1];
    // Padding takes at most half the gap to a neighbour, so two utterances never share a frame.
    const first = Math.max(prevLast, s.first - padFrames, i > 0 ? Math.ceil((spans[i - 1].last + s.first) / 2) : 0);
    const last = Math.min(total, s.last + padFrames, next ? Math.floor((s.last + next.first) / 2) : total);
    if (last > first) out.push({ id: `u${String(out.length).padStart(4, '0')}`, first, last });
  });
  return out;
}

/**
 * Shares utterances (in time order) between at most `workers` processes: consecutive runs of about
 * equal length, each at least `minSeconds` of audio (a process first spends about a second loading
 * the model, so short work is not split).
 */
export function groupUtterances(utterances: readonly UtteranceFrames[], workers: number, minSeconds = 10): UtteranceFrames[][] {
  if (!utterances.length) return [];
  const length = (u: UtteranceFrames) => u.last - u.first;
  const total = utterances.reduce((n, u) => n + length(u), 0);
  const k = Math.max(1, Math.min(Math.floor(workers), utterances.length, Math.floor(total / (minSeconds * FRAME_RATE))));
  const groups: UtteranceFrames[][] = [[]];
  let done = 0;
  for (const u of utterances) {
    const g = groups[groups.length - 1];
    // Start the next group when this one has its share and enough utterances are left for the others.
    if (g.length && groups.length < k && done >= (total * groups.length) / k) groups.push([]);
    groups[groups.length - 1].push(u);
    done += length(u);
  }
  return groups;
}
