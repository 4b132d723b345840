import type { FaceSample } from './crop-path.js';

/**
 * The active speaker (pure): with several faces in a shot, who holds the floor at each face sample.
 *
 * The analysis measures, per face box of each 1-s sample, how much the mouth region changes from
 * frame to frame (`mouth`, mean absolute brightness change of 0..1, over the frames of the sample's
 * second: `mouthChange`). Voice activity comes from the audio (the analysis' speech stretches, or the
 * transcript's words), with the diarizer's speaker labels when there are any.
 *
 * 1. Faces are linked across samples into tracks (nearest centre), per shot (scene cuts reset them).
 * 2. A track's mouth activity is measured against its own baseline: its mean while nobody is heard
 *    (without 3 silent samples, the lowest lower quartile of the shot's tracks, a still mouth's level).
 *    A still mouth with a moving texture has a high baseline; a mouth that moves with the voice has a
 *    high excess while someone is heard.
 * 3. With speaker labels, each label is matched to the track whose mouth moves most during that label's
 *    speech (correlation with who is heard); the floor follows the labels. Without labels, the floor
 *    at a voiced sample goes to the clearly most active mouth (at least `minExcess` above the others and
 *    `dominance` times the runner-up). Nobody heard, or no clear mouth: the floor stays where it was.
 * 4. Hysteresis: a turn shorter than `minHoldSeconds` (1.2 s) never takes the floor (it goes back to
 *    the speaker before it), so the floor never changes twice within 1.2 s.
 * 5. Each change of floor is placed at the voice onset nearest the sample boundary (the start of the
 *    new speaker's words), so the camera can ease there at once instead of a second late.
 */

/** Where the mouth is in a face detector's box (BlazeFace, scale 1), as shares of the box: calibrated on the face mesh's lip points. */
export const MOUTH_REGION = { left: 0.2, right: 0.8, top: 0.56, bottom: 0.92 } as const;

/** A new speaker holds the floor at least this long before the camera goes to them. */
export const MIN_HOLD_SECONDS = 1.2;

/** A face box with its mouth activity (0..1), absent on analyses made before it was measured. */
export type MouthBox = FaceSample['boxes'][number] & { mouth?: number };

export interface MouthSample {
  t: number;
  boxes: readonly MouthBox[];
}

/** A stretch where a voice is heard, in the samples' timeline; `speaker` is the diarizer's label when known. */
export interface VoiceSpan {
  start: number;
  end: number;
  speaker?: string;
}

/** A sample with who holds the floor: `speaker` indexes its `boxes`; `speakerSince` marks a change of floor (its time). */
export type SpeakerSample<S extends MouthSample = MouthSample> = S & { speaker?: number; speakerSince?: number };

export interface ActiveSpeakerOptions {
  sceneCuts?: readonly number[];
  /** End of the timeline; default: last sample + the sample spacing. */
  duration?: number;
  minHoldSeconds?: number;
  /** The stretch a sample's `mouth` covers, relative to its time. Default [-0.2, 0.8): the analysis' frames of the sample's second. */
  window?: { from: number; to: number };
  /** The floor's mouth moves at least this much more than any other (0..1 of the brightness range). Default 0.004 (1 grey level). */
  minExcess?: number;
  /** …and at least this many times the runner-up's excess. Default 1.5. */
  dominance?: number;
  /** Share of a sample's window with voice for it to count as voiced. Default 0.3. */
  minVoiced?: number;
  /** How far from a sample boundary a change of floor may move to a voice onset, seconds. Default 0.8. */
  onsetReach?: number;
}

/**
 * The mean absolute brightness change (0..1) in the mouth region of `box` (normalised to the frame)
 * between two brightness planes of `width` x `height` (one byte a pixel); undefined when the region
 * holds fewer than 4 pixels.
 */
export function mouthChange(
  luma: Uint8Array,
  prev: Uint8Array,
  width: number,
  height: number,
  box: { x: number; y: number; width: number; height: number },
): number | undefined {
  const x0 = Math.max(0, Math.round((box.x + box.width * MOUTH_REGION.left) * width));
  const x1 = Math.min(width, Math.round((box.x + box.width * MOUTH_REGION.right) * width));
  const y0 = Math.max(0, Math.round((box.y + box.height * MOUTH_REGION.top) * height));
  const y1 = Math.min(height, Math.round((box.y + box.height * MOUTH_REGION.bottom) * height));
  if ((x1 - x0) * (y1 - y0) < 4 || luma.length !== prev.length) return undefined;
  let sum = 0;
  for (let y = y0; y < y1; y++) {
    const row = y * width;
    for (let x = x0; x < x1; x++) sum += Math.abs(luma[row + x] - prev[row + x]);
  }
  return sum / ((x1 - x0) * (y1 - y0)) / 255;
}

/** The brightness plane (BT.601 luma, one byte a pixel) of a packed RGB frame. */
export function lumaPlane(frame: { width: number; height: number; data: Uint8Array }): Uint8Array {
  const n = frame.width * frame.height;
  const out = new Uint8Array(n);
  const d = frame.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = (d[j] * 299 + d[j + 1] * 587 + d[j + 2] * 114 + 500) / 1000;
  return out;
}

function valid(b: MouthBox): boolean {
  return b.width > 0 && b.height > 0 && b.score > 0;
}

/** Links boxes across samples into tracks (greedy nearest centre); per sample, per box, its track (-1: not a face). */
function linkTracks(samples: readonly MouthSample[]): number[][] {
  const tracks: Array<{ cx: number; cy: number; lastSeen: number }> = [];
  return samples.map((s) => {
    const ids = s.boxes.map(() => -1);
    const dets = s.boxes.map((b, i) => ({ i, ok: valid(b), cx: b.x + b.width / 2, cy: b.y + b.height / 2, size: Math.sqrt(Math.max(0, b.width * b.height)) }));
    const pairs: Array<{ ti: number; di: number; d: number }> = [];
    tracks.forEach((tr, ti) => {
      if (s.t - tr.lastSeen > 6) return;
      for (const de of dets) {
        if (!de.ok) continue;
        const d = Math.hypot(tr.cx - de.cx, tr.cy - de.cy);
        if (d < Math.max(0.15, 2 * de.size)) pairs.push({ ti, di: de.i, d });
      }
    });
    pairs.sort((a, b) => a.d - b.d);
    const usedT = new Set<number>();
    for (const p of pairs) {
      if (usedT.has(p.ti) || ids[p.di] !== -1) continue;
      usedT.add(p.ti);
      ids[p.di] = p.ti;
    }
    for (const de of dets) {
      if (!de.ok) continue;
      if (ids[de.i] === -1) {
        tracks.push({ cx: de.cx, cy: de.cy, lastSeen: s.t });
        ids[de.i] = tracks.length - 1;
      } else Object.assign(tracks[ids[de.i]], { cx: de.cx, cy: de.cy, lastSeen: s.t });
    }
    return ids;
  });
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

interface Segment {
  track: number;
  /** Index of its first sample. */
  first: number;
  start: number;
  end: number;
}

/** The floor inside one shot (samples sorted, all inside it). */
function shotFloor(
  samples: readonly MouthSample[],
  voice: readonly VoiceSpan[],
  shot: { start: number; end: number },
  o: Required<Omit<ActiveSpeakerOptions, 'sceneCuts' | 'duration'>>,
): Array<{ box?: number; since?: number }> {
  const out: Array<{ box?: number; since?: number }> = samples.map(() => ({}));
  const ids = linkTracks(samples);
  const nTracks = Math.max(0, ...ids.flat()) + 1;
  // Voice per sample: the share of its window that is heard, and the label heard most.
  const heard = samples.map((s) => {
    const a = s.t + o.window.from;
    const b = s.t + o.window.to;
    let share = 0;
    const byLabel = new Map<string, number>();
    for (const v of voice) {
      const ov = overlap(a, b, v.start, v.end);
      if (ov <= 0) continue;
      share += ov;
      if (v.speaker !== undefined) byLabel.set(v.speaker, (byLabel.get(v.speaker) ?? 0) + ov);
    }
    let label: string | undefined;
    for (const [k, v] of byLabel) if (label === undefined || v > byLabel.get(label)!) label = k;
    return { voiced: share / (b - a) >= o.minVoiced, silent: share / (b - a) < 0.1, label };
  });
  // Baselines: a track's mean while nobody is heard; without enough silence, the shot's lowest lower
  // quartile of any track (a still mouth's level), the same for all.
  const baseline: number[] = [];
  const quartiles: number[] = [];
  for (let k = 0; k < nTracks; k++) {
    const all: number[] = [];
    const quiet: number[] = [];
    samples.forEach((s, i) =>
      s.boxes.forEach((b, j) => {
        if (ids[i][j] !== k || b.mouth === undefined) return;
        all.push(b.mouth);
        if (heard[i].silent) quiet.push(b.mouth);
      }),
    );
    all.sort((a, b) => a - b);
    if (all.length) quartiles.push(all[Math.floor((all.length - 1) / 4)]);
    baseline[k] = quiet.length >= 3 ? quiet.reduce((a, b) => a + b, 0) / quiet.length : NaN;
  }
  const still = quartiles.length ? Math.min(...quartiles) : 0;
  for (let k = 0; k < nTracks; k++) if (Number.isNaN(baseline[k])) baseline[k] = still;
  const excess = (i: number): Map<number, number> => {
    const m = new Map<number, number>();
    samples[i].boxes.forEach((b, j) => {
      if (ids[i][j] >= 0 && b.mouth !== undefined) m.set(ids[i][j], b.mouth - baseline[ids[i][j]]);
    });
    return m;
  };
  // Speaker labels matched to tracks by mouth activity during each label's speech.
  const labelTrack = new Map<string, number>();
  const scores = new Map<string, { sum: number[]; n: number[] }>();
  samples.forEach((_, i) => {
    const { voiced, label } = heard[i];
    if (!voiced || label === undefined) return;
    const sc = scores.get(label) ?? { sum: new Array<number>(nTracks).fill(0), n: new Array<number>(nTracks).fill(0) };
    scores.set(label, sc);
    for (const [k, e] of excess(i)) {
      sc.sum[k] += e;
      sc.n[k]++;
    }
  });
  const cells: Array<{ label: string; track: number; score: number }> = [];
  for (const [label, sc] of scores) for (let k = 0; k < nTracks; k++) if (sc.n[k] > 0) cells.push({ label, track: k, score: sc.sum[k] / sc.n[k] });
  cells.sort((a, b) => b.score - a.score);
  const taken = new Set<number>();
  for (const c of cells) {
    if (c.score < o.minExcess || labelTrack.has(c.label) || taken.has(c.track)) continue;
    labelTrack.set(c.label, c.track);
    taken.add(c.track);
  }
  // The candidate per sample; nobody heard or no clear mouth: none (the floor stays).
  const candidate = samples.map((_, i): number | null => {
    if (!heard[i].voiced) return null;
    const ex = excess(i);
    const byLabel = heard[i].label !== undefined ? labelTrack.get(heard[i].label!) : undefined;
    if (byLabel !== undefined && ex.has(byLabel)) return byLabel;
    const ranked = [...ex.entries()].sort((a, b) => b[1] - a[1]);
    if (ranked.length < 2) return null;
    const [[k, e1], [, e2]] = ranked;
    const second = Math.max(0, e2);
    return e1 - second >= o.minExcess && e1 >= o.dominance * second ? k : null;
  });
  const first = candidate.findIndex((c) => c !== null);
  if (first < 0) return out;
  const floor: number[] = [];
  let cur = candidate[first]!;
  for (let i = 0; i < samples.length; i++) {
    if (i >= first && candidate[i] !== null) cur = candidate[i]!;
    floor.push(cur);
  }
  // Segments of one holder; a change sits at the boundary of the samples' windows.
  const boundary = (i: number) => Math.max(shot.start, samples[i].t + o.window.from);
  let segs: Segment[] = [];
  floor.forEach((k, i) => {
    const last = segs[segs.length - 1];
    if (last && last.track === k) return;
    if (last) last.end = boundary(i);
    segs.push({ track: k, first: i, start: i === 0 ? shot.start : boundary(i), end: shot.end });
  });
  // Hysteresis: the shortest turn under the minimum goes back to the holder before it (after it, at the start).
  for (;;) {
    let worst = -1;
    segs.forEach((s, i) => {
      if (segs.length > 1 && s.end - s.start < o.minHoldSeconds - 1e-9 && (worst < 0 || s.end - s.start < segs[worst].end - segs[worst].start)) worst = i;
    });
    if (worst < 0) break;
    const s = segs[worst];
    if (worst > 0) segs[worst - 1].end = s.end;
    else Object.assign(segs[1], { start: s.start, first: s.first });
    segs.splice(worst, 1);
    const merged: Segment[] = [];
    for (const x of segs) {
      const last = merged[merged.length - 1];
      if (last && last.track === x.track) last.end = x.end;
      else merged.push({ ...x });
    }
    segs = merged;
  }
  // Each change moves to the nearest voice onset (of the new holder's label, when labelled) within reach.
  for (let n = 1; n < segs.length; n++) {
    const b = segs[n].start;
    const lo = Math.max(segs[n - 1].start + o.minHoldSeconds, b - o.onsetReach, samples[segs[n].first - 1].t + 0.05);
    const hi = Math.min(segs[n].end - o.minHoldSeconds, b + o.onsetReach, segs[n].first + 1 < samples.length ? samples[segs[n].first + 1].t - 0.05 : Infinity);
    const owner = [...labelTrack.entries()].find(([, k]) => k === segs[n].track)?.[0];
    let best: number | undefined;
    for (const v of voice) {
      if (v.start < lo || v.start > hi) continue;
      if (owner !== undefined && v.speaker !== undefined && v.speaker !== owner) continue;
      if (best === undefined || Math.abs(v.start - b) < Math.abs(best - b)) best = v.start;
    }
    if (best !== undefined) {
      segs[n].start = best;
      segs[n - 1].end = best;
    }
  }
  segs.forEach((s, n) => {
    const stop = n + 1 < segs.length ? segs[n + 1].first : samples.length;
    for (let i = s.first; i < stop; i++) {
      const j = samples[i].boxes.findIndex((_, jj) => ids[i][jj] === s.track);
      out[i] = { ...(j >= 0 ? { box: j } : {}), ...(i === s.first && n > 0 ? { since: Math.round(s.start * 1000) / 1000 } : {}) };
    }
  });
  return out;
}

/**
 * The samples with who holds the floor (`speaker`, an index into the sample's boxes, when that face is
 * seen; `speakerSince` on the first sample of each new holder: the time of the change). Shots with one
 * face, without mouth measurements or without voice get no `speaker`: the camera then follows its
 * usual subject. Samples are returned sorted by time.
 */
export function withActiveSpeaker<S extends MouthSample>(
  samples: readonly S[],
  voice: readonly VoiceSpan[],
  options: ActiveSpeakerOptions = {},
): Array<SpeakerSample<S>> {
  const o = {
    minHoldSeconds: MIN_HOLD_SECONDS,
    window: { from: -0.2, to: 0.8 },
    minExcess: 0.004,
    dominance: 1.5,
    minVoiced: 0.3,
    onsetReach: 0.8,
    ...options,
  };
  const sorted = [...samples].filter((s) => Number.isFinite(s.t)).sort((a, b) => a.t - b.t);
  const spacing = sorted.length > 1 ? (sorted[sorted.length - 1].t - sorted[0].t) / (sorted.length - 1) : 1;
  const end = o.duration ?? (sorted.length ? sorted[sorted.length - 1].t + spacing : 0);
  const cuts = [...new Set(o.sceneCuts ?? [])].filter((c) => c > 0 && c < end).sort((a, b) => a - b);
  const bounds = [sorted.length ? Math.min(0, sorted[0].t) : 0, ...cuts, Math.max(end, 0)];
  const spans = [...voice].filter((v) => v.end > v.start).sort((a, b) => a.start - b.start);
  const out: Array<SpeakerSample<S>> = sorted.map((s) => {
    const { speaker: _s, speakerSince: _ss, ...rest } = s as SpeakerSample<S>;
    void _s;
    void _ss;
    return rest as SpeakerSample<S>;
  });
  for (let k = 0; k < bounds.length - 1; k++) {
    const a = bounds[k];
    const b = bounds[k + 1];
    const idx = sorted.map((s, i) => ({ s, i })).filter(({ s }) => s.t >= a && (s.t < b || (k === bounds.length - 2 && s.t <= b)));
    if (idx.length < 2 || !idx.some(({ s }) => s.boxes.filter(valid).length >= 2)) continue;
    if (!idx.some(({ s }) => s.boxes.some((x) => x.mouth !== undefined))) continue;
    const floor = shotFloor(
      idx.map(({ s }) => s),
      spans.filter((v) => v.end > a - 1 && v.start < b + 1),
      { start: a, end: b },
      o,
    );
    floor.forEach((f, n) => {
      const target = out[idx[n].i];
      if (f.box !== undefined) target.speaker = f.box;
      if (f.since !== undefined) target.speakerSince = f.since;
    });
  }
  return out;
}

/**
 * Whether the faces of `[start, end]` talk in turns: the floor passes from one face to another at
 * least once inside it (withActiveSpeaker's samples).
 */
export function talksInTurns(samples: ReadonlyArray<SpeakerSample>, range: { start: number; end: number }): boolean {
  return samples.some((s) => s.speakerSince !== undefined && s.speakerSince > range.start && s.speakerSince < range.end);
}

/**
 * Voice stretches from 100 ms loudness blocks (momentary loudness, 400 ms window, at each block's end
 * time): blocks within `belowPeak` LU of the stretch's loud level (its 90th percentile) and above
 * `floor` LUFS are voiced; a stretch starts at its first voiced block's start and ends 0.3 s before
 * its last one's end (the window's lag); gaps between voiced blocks shorter than `minGap` are bridged.
 */
export function voiceSpans(
  blocks: ReadonlyArray<{ t: number; momentary: number }>,
  o: { belowPeak?: number; floor?: number; minGap?: number } = {},
): VoiceSpan[] {
  const belowPeak = o.belowPeak ?? 18;
  const floor = o.floor ?? -55;
  const minGap = o.minGap ?? 0.05;
  if (blocks.length === 0) return [];
  const levels = blocks
    .map((b) => b.momentary)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const loud = levels[Math.floor((levels.length - 1) * 0.9)] ?? floor;
  const threshold = Math.max(floor, loud - belowPeak);
  const out: VoiceSpan[] = [];
  for (const b of blocks) {
    if (!(b.momentary >= threshold)) continue;
    // The voice starts within the block that first crosses the threshold and ends about a window before the last one.
    const start = Math.max(0, b.t - 0.1);
    const last = out[out.length - 1];
    if (last && start - last.end < minGap) last.end = b.t;
    else out.push({ start, end: b.t });
  }
  return out.map((v) => ({ start: Math.round(v.start * 100) / 100, end: Math.round(Math.max(v.start + 0.1, v.end - 0.3) * 100) / 100 }));
}
