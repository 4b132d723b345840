import type { SpeakerTurn } from '../../ports/diarizer.js';
import { FEATURE_HOP_SECONDS, type FrameFeatures } from '../audio/features.js';
import { divisiveClusters, kmeans, standardise } from './diarize-clustering.js';

/**
 * The embedded diarizer's method, on features already computed (src/adapters/audio/features.ts; the
 * WAV is read by embedded.diarizer.ts): who speaks when, without a model download. Pure.
 *
 *  1. Features per 10 ms frame inside the speech segments: MFCC c1..c19 (mean-normalised over the
 *     file) and log F0 where voiced. Quiet frames are left out.
 *  2. One embedding per window of `windowSeconds` (hop half of it): mean and standard deviation of
 *     the MFCCs, median log F0 and the voiced fraction.
 *  3. Divisive clustering: a speaker's windows are split in two by k-means when the split has a
 *     silhouette of at least `minSilhouette`, enough windows on each side and a real difference in
 *     frame-level features; repeated up to `maxSpeakers`. Without such a split: one speaker.
 *  4. Re-segmentation: a diagonal Gaussian per speaker over frame features, frame log-likelihoods
 *     summed over a sliding second, best speaker per frame; runs shorter than `minTurnSeconds` are
 *     given to their neighbours (isolated flips smoothed away).
 *  5. Speakers are labelled A, B, ... in order of first appearance.
 */

export interface DiarizeOptions {
  /** Default 6. */
  maxSpeakers?: number;
  /** Embedding window. Default 2 s. */
  windowSeconds?: number;
  /** Least silhouette for more than one speaker. Default 0.3. */
  minSilhouette?: number;
  /** Shorter turns are merged into their neighbours. Default 0.6 s. */
  minTurnSeconds?: number;
  /** The number of speakers when known: the windows go to exactly that many clusters (k-means), no estimate. */
  speakers?: number;
}

/** One speech segment with the features of its frames (frame i centred at start + (i + 1.25) * 10 ms). */
export interface SegmentFeatures {
  start: number;
  end: number;
  features: FrameFeatures;
}

// ---------------------------------------------------------------- frames

const CEPS = 19; // c1..c19
const DIM = CEPS + 1; // + log F0

interface Frames {
  n: number;
  time: Float64Array;
  /** Segment index of each frame. */
  seg: Int32Array;
  /** DIM values per frame: c1..c19, log F0 (NaN when unvoiced). */
  x: Float64Array;
}

function collectFrames(blocks: SegmentFeatures[]): Frames {
  let total = 0;
  for (const b of blocks) total += b.features.count;
  const c0 = new Float64Array(total);
  let k = 0;
  for (const b of blocks) for (let i = 0; i < b.features.count; i++) c0[k++] = b.features.mfcc[i * b.features.nCeps];
  // Keep frames within ~35 dB of the loud ones (c0 = sqrt(nMels) * mean log mel energy, nMels 40).
  const loud = quantile(Array.from(c0), 0.95);
  const floor = loud - Math.sqrt(40) * Math.log(10 ** 3.5);
  const time: number[] = [];
  const seg: number[] = [];
  const x: number[] = [];
  k = 0;
  blocks.forEach((b, si) => {
    const f = b.features;
    for (let i = 0; i < f.count; i++, k++) {
      if (c0[k] < floor) continue;
      time.push(b.start + (i + 1.25) * FEATURE_HOP_SECONDS);
      seg.push(si);
      for (let c = 1; c <= CEPS; c++) x.push(f.mfcc[i * f.nCeps + c]);
      x.push(f.f0[i] > 0 ? Math.log(f.f0[i]) : NaN);
    }
  });
  const fr: Frames = { n: time.length, time: Float64Array.from(time), seg: Int32Array.from(seg), x: Float64Array.from(x) };
  // Cepstral mean normalisation over the file.
  for (let d = 0; d < CEPS; d++) {
    let m = 0;
    for (let i = 0; i < fr.n; i++) m += fr.x[i * DIM + d];
    m /= fr.n || 1;
    for (let i = 0; i < fr.n; i++) fr.x[i * DIM + d] -= m;
  }
  return fr;
}

function quantile(values: number[], q: number): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))];
}

// ---------------------------------------------------------------- embeddings

interface Window {
  from: number; // first frame index (in Frames)
  to: number; // exclusive
}

function makeWindows(fr: Frames, blocks: SegmentFeatures[], windowSeconds: number): Window[] {
  const out: Window[] = [];
  const hop = windowSeconds / 2;
  let i = 0;
  for (let si = 0; si < blocks.length; si++) {
    const first = i;
    while (i < fr.n && fr.seg[i] === si) i++;
    if (i - first < 30) continue; // under 0.3 s of usable frames
    const t0 = fr.time[first];
    const t1 = fr.time[i - 1];
    const count = Math.max(1, Math.ceil((t1 - t0 - windowSeconds) / hop) + 1);
    const step = count > 1 ? (t1 - t0 - windowSeconds) / (count - 1) : 0;
    for (let w = 0; w < count; w++) {
      const a = t0 + w * step;
      const b = count > 1 ? a + windowSeconds : t1 + 0.001;
      let from = first;
      while (from < i && fr.time[from] < a) from++;
      let to = from;
      while (to < i && fr.time[to] < b) to++;
      if (to - from >= 30) out.push({ from, to });
    }
  }
  return out;
}

function embeddings(fr: Frames, windows: Window[]): number[][] {
  const raw = windows.map(({ from, to }) => {
    const n = to - from;
    const mean = new Array<number>(CEPS).fill(0);
    const sq = new Array<number>(CEPS).fill(0);
    const f0: number[] = [];
    for (let i = from; i < to; i++) {
      for (let d = 0; d < CEPS; d++) {
        const v = fr.x[i * DIM + d];
        mean[d] += v;
        sq[d] += v * v;
      }
      const p = fr.x[i * DIM + CEPS];
      if (!Number.isNaN(p)) f0.push(p);
    }
    const std = mean.map((m, d) => Math.sqrt(Math.max(0, sq[d] / n - (m / n) ** 2)));
    return [...mean.map((m) => m / n), ...std, f0.length >= 5 ? quantile(f0, 0.5) : NaN, f0.length / n];
  });
  return raw;
}

// ---------------------------------------------------------------- re-segmentation

export function diarizeFeatures(blocks: SegmentFeatures[], opts: DiarizeOptions = {}): SpeakerTurn[] {
  const spans = blocks.filter((b) => b.end > b.start);
  if (!spans.length) return [];
  const fr = collectFrames(spans);
  const windows = makeWindows(fr, spans, opts.windowSeconds ?? 2);
  const points = embeddings(fr, windows);
  // Pitch weighs as much as 8 cepstral dimensions: it separates voices well.
  const weight = (d: number) => (d < CEPS ? 1 : d < 2 * CEPS ? 0.5 : d === 2 * CEPS ? Math.sqrt(8) : 1);
  const known = opts.speakers !== undefined ? Math.min(Math.max(1, Math.floor(opts.speakers)), points.length) : undefined;
  const labels =
    known !== undefined
      ? known > 1
        ? kmeans(standardise(points, weight), known).labels
        : points.map(() => 0)
      : divisiveClusters(points, {
          maxK: opts.maxSpeakers ?? 6,
          minSilhouette: opts.minSilhouette ?? 0.3,
          weight,
          separate: (labels, a, b) => clustersSeparate(fr, windows, labels, a, b),
        });
  const k = labels.length ? Math.max(...labels) + 1 : 1;
  const frameLabel = k > 1 ? resegment(fr, windows, labels, k) : new Int32Array(fr.n);
  return turnsFrom(fr, spans, frameLabel, opts.minTurnSeconds ?? 0.6);
}

/**
 * Whether clusters a and b differ enough frame by frame, not only window by window: the RMS over
 * c1..c19 of |mean difference| / pooled frame standard deviation reaches `minCepstral`, or that
 * effect size for log F0 reaches `minPitch`. One voice split by content stays under both (measured
 * on espeak-ng voices: <= 0.17 and <= 0.36; two voices: >= 0.26 or >= 1.8).
 */
function clustersSeparate(fr: Frames, windows: Window[], labels: number[], a: number, b: number, minCepstral = 0.22, minPitch = 0.8): boolean {
  const sum = [new Float64Array(DIM), new Float64Array(DIM)];
  const sq = [new Float64Array(DIM), new Float64Array(DIM)];
  const cnt = [new Float64Array(DIM), new Float64Array(DIM)];
  windows.forEach((w, wi) => {
    const c = labels[wi] === a ? 0 : labels[wi] === b ? 1 : -1;
    if (c < 0) return;
    for (let i = w.from; i < w.to; i++) {
      for (let d = 0; d < DIM; d++) {
        const v = fr.x[i * DIM + d];
        if (Number.isNaN(v)) continue;
        sum[c][d] += v;
        sq[c][d] += v * v;
        cnt[c][d]++;
      }
    }
  });
  const effect = (a: number, b: number, d: number) => {
    if (cnt[a][d] < 2 || cnt[b][d] < 2) return 0;
    const ma = sum[a][d] / cnt[a][d];
    const mb = sum[b][d] / cnt[b][d];
    const pooled = (sq[a][d] / cnt[a][d] - ma * ma + sq[b][d] / cnt[b][d] - mb * mb) / 2;
    return Math.abs(ma - mb) / Math.sqrt(Math.max(pooled, 1e-9));
  };
  let acc = 0;
  for (let d = 0; d < CEPS; d++) acc += effect(0, 1, d) ** 2;
  return Math.sqrt(acc / CEPS) >= minCepstral || effect(0, 1, CEPS) >= minPitch;
}

/** Frame labels from per-speaker diagonal Gaussians, log-likelihoods summed over +-0.5 s. */
function resegment(fr: Frames, windows: Window[], labels: number[], k: number): Int32Array {
  const mean = Array.from({ length: k }, () => new Float64Array(DIM));
  const vari = Array.from({ length: k }, () => new Float64Array(DIM));
  const cnt = Array.from({ length: k }, () => new Float64Array(DIM));
  const owner = new Int32Array(fr.n).fill(-1);
  windows.forEach((w, wi) => {
    for (let i = w.from; i < w.to; i++) owner[i] = labels[wi];
  });
  for (let i = 0; i < fr.n; i++) {
    const c = owner[i];
    if (c < 0) continue;
    for (let d = 0; d < DIM; d++) {
      const v = fr.x[i * DIM + d];
      if (Number.isNaN(v)) continue;
      mean[c][d] += v;
      vari[c][d] += v * v;
      cnt[c][d]++;
    }
  }
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < DIM; d++) {
      const n = cnt[c][d] || 1;
      mean[c][d] /= n;
      vari[c][d] = Math.max(vari[c][d] / n - mean[c][d] ** 2, d === CEPS ? 0.002 : 0.05);
    }
  }
  const ll = new Float64Array(fr.n * k);
  for (let i = 0; i < fr.n; i++) {
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let d = 0; d < DIM; d++) {
        const v = fr.x[i * DIM + d];
        if (Number.isNaN(v)) continue;
        s -= 0.5 * (Math.log(vari[c][d]) + (v - mean[c][d]) ** 2 / vari[c][d]);
      }
      ll[i * k + c] = s;
    }
  }
  const out = new Int32Array(fr.n);
  const half = 50; // frames: +-0.5 s
  for (let i = 0; i < fr.n; i++) {
    const sums = new Float64Array(k);
    for (let j = Math.max(0, i - half); j <= Math.min(fr.n - 1, i + half); j++) {
      if (fr.seg[j] !== fr.seg[i] || Math.abs(fr.time[j] - fr.time[i]) > 0.5) continue;
      for (let c = 0; c < k; c++) sums[c] += ll[j * k + c];
    }
    let best = 0;
    for (let c = 1; c < k; c++) if (sums[c] > sums[best]) best = c;
    out[i] = best;
  }
  return out;
}

/** Runs of equal frame labels inside each segment -> turns; short runs join their neighbours. */
function turnsFrom(fr: Frames, spans: SegmentFeatures[], frameLabel: Int32Array, minTurn: number): SpeakerTurn[] {
  type Run = { start: number; end: number; label: number; seg: number };
  const runs: Run[] = [];
  for (let i = 0; i < fr.n; i++) {
    const last = runs[runs.length - 1];
    const t = fr.time[i];
    if (last && last.seg === fr.seg[i] && last.label === frameLabel[i]) last.end = t + FEATURE_HOP_SECONDS / 2;
    else runs.push({ start: t - FEATURE_HOP_SECONDS / 2, end: t + FEATURE_HOP_SECONDS / 2, label: frameLabel[i], seg: fr.seg[i] });
  }
  // Absorb short runs into the longer neighbour in the same segment (repeat until none is left).
  for (;;) {
    let shortest = -1;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r];
      const sameSegNeighbour = runs[r - 1]?.seg === run.seg || runs[r + 1]?.seg === run.seg;
      if (run.end - run.start < minTurn && sameSegNeighbour && (shortest < 0 || run.end - run.start < runs[shortest].end - runs[shortest].start)) shortest = r;
    }
    if (shortest < 0) break;
    const run = runs[shortest];
    const prev = runs[shortest - 1]?.seg === run.seg ? runs[shortest - 1] : undefined;
    const next = runs[shortest + 1]?.seg === run.seg ? runs[shortest + 1] : undefined;
    const into = prev && next ? (prev.end - prev.start >= next.end - next.start ? prev : next) : (prev ?? next)!;
    into.start = Math.min(into.start, run.start);
    into.end = Math.max(into.end, run.end);
    runs.splice(shortest, 1);
    // Neighbours with the same label now touching become one.
    for (let r = runs.length - 1; r > 0; r--) {
      if (runs[r].seg === runs[r - 1].seg && runs[r].label === runs[r - 1].label) {
        runs[r - 1].end = runs[r].end;
        runs.splice(r, 1);
      }
    }
  }
  // Stretch runs to the segment bounds (the quiet frames left out at the edges).
  for (let r = 0; r < runs.length; r++) {
    const s = spans[runs[r].seg];
    if (r === 0 || runs[r - 1].seg !== runs[r].seg) runs[r].start = s.start;
    if (r === runs.length - 1 || runs[r + 1].seg !== runs[r].seg) runs[r].end = s.end;
    else runs[r].end = runs[r + 1].start = (runs[r].end + runs[r + 1].start) / 2;
  }
  // Speakers A, B, ... by first appearance.
  const names = new Map<number, string>();
  const turns: SpeakerTurn[] = [];
  for (const run of runs) {
    if (!names.has(run.label)) names.set(run.label, speakerName(names.size));
    const speaker = names.get(run.label)!;
    const last = turns[turns.length - 1];
    if (last && last.speaker === speaker && run.start - last.end < 1e-6) last.end = round3(run.end);
    else turns.push({ start: round3(run.start), end: round3(run.end), speaker });
  }
  return turns;
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;

/** A, B, ..., Z, AA, AB, ... */
export function speakerName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
