import type { Keyframe } from './crop-keyframes.js';

export { cropAt, cropAxisExpression, cropFilter, sliceKeyframes, type Keyframe } from './crop-keyframes.js';

/**
 * The reframing camera (pure). From face boxes sampled over time it computes where a crop of the
 * target aspect sits in the source, frame by frame, as a short list of keyframes:
 *
 * 1. The timeline is split at scene cuts; each shot starts fresh and the crop may jump there, and
 *    only there.
 * 2. Faces are linked across samples into tracks (nearest centre). Each track's weight is a moving
 *    average of size x score, so the main subject is the largest, most persistent face. The camera
 *    changes subject only when another track outweighs the current one by `switchRatio` for
 *    `switchSeconds` in a row, or when the current one has been gone for `lostSeconds`.
 * 3. With no face the crop holds still for `holdSeconds`, then drifts to the centre.
 * 4. The wanted position is looked ahead by `lead` (the analysis is offline), passed through a
 *    dead zone (small moves are ignored) and a critically damped spring, clamped to the frame,
 *    and simplified to keyframes that stay within `tolerancePx` of the simulated motion.
 * 5. Active speaker: samples that say who holds the floor (`speaker`, `speakerSince`: see
 *    active-speaker.ts) choose the subject instead of the weights. A change of floor is an ease of
 *    `switchEase` seconds that starts at the change (never looked ahead of it), then the spring goes on.
 */

export type AspectName = '9:16' | '1:1' | '16:9';

export interface FaceSample {
  t: number;
  /** Boxes normalised to the frame (0..1), as the FaceDetector port returns them. */
  boxes: ReadonlyArray<{ x: number; y: number; width: number; height: number; score: number }>;
  /** Who holds the floor (an index into `boxes`), when the active speaker is known (active-speaker.ts). */
  speaker?: number;
  /** On the first sample of a new floor holder: the time of the change (it may fall just before or after `t`). */
  speakerSince?: number;
}

export interface CropPathOptions {
  aspect?: AspectName | { width: number; height: number };
  /** Scene cut times in seconds. */
  sceneCuts?: readonly number[];
  /** End of the timeline; default: last sample + the sample spacing. */
  duration?: number;
  /** Fraction of the crop size the subject may move before the camera follows. Default 0.08. */
  deadZone?: number;
  /** Spring smoothing time, seconds. Default 0.5. */
  smoothTime?: number;
  /** Highest camera speed, in crop widths (or heights) per second. Default 1.5. */
  maxSpeed?: number;
  /** Look-ahead, seconds. Default 0.5. */
  lead?: number;
  /** Time without the subject before drifting to the centre. Default 2.5 s. */
  holdSeconds?: number;
  /** Time without the subject before another visible face may take over at once. Default 1.5 s. */
  lostSeconds?: number;
  switchRatio?: number;
  switchSeconds?: number;
  /** Where the face centre sits from the top of the crop when the crop moves vertically, 0..1. Default 0.4. */
  verticalAnchor?: number;
  /** Size of the crop as a share of the largest crop of the aspect (0.2..1): below 1 the crop is tighter and moves on both axes. Default 1. */
  cropScale?: number;
  /** Length of the ease to a new active speaker, seconds. Default 0.5. */
  switchEase?: number;
  /** Simulation step, seconds. Default 0.1. */
  step?: number;
  tolerancePx?: number;
}

interface Track {
  cx: number;
  cy: number;
  weight: number;
  lastSeen: number;
}

/** Floors to an even integer (crop sizes and positions stay even for 4:2:0 video). */
function floorEven(v: number): number {
  return Math.max(0, Math.floor(v / 2) * 2);
}

function aspectRatio(a: CropPathOptions['aspect']): number {
  if (a === undefined || a === '9:16') return 9 / 16;
  if (a === '1:1') return 1;
  if (a === '16:9') return 16 / 9;
  if (!(a.width > 0 && a.height > 0)) throw new RangeError('aspect must be positive');
  return a.width / a.height;
}

/** The largest even-sized crop of the aspect that fits the source. */
export function cropSize(sourceWidth: number, sourceHeight: number, aspect: CropPathOptions['aspect'] = '9:16'): { w: number; h: number } {
  if (!(sourceWidth >= 2 && sourceHeight >= 2)) throw new RangeError('source size must be at least 2x2');
  const r = aspectRatio(aspect);
  if (sourceWidth / sourceHeight > r) return { w: Math.max(2, floorEven(sourceHeight * r)), h: floorEven(sourceHeight) };
  return { w: floorEven(sourceWidth), h: Math.max(2, floorEven(sourceWidth / r)) };
}

interface Wanted {
  points: Array<{ t: number; cx: number; cy: number }>;
  /** Times of the changes of active speaker, ascending. */
  switches: number[];
}

/**
 * Picks the main subject sample by sample inside one shot; returns the wanted centre per sample, with
 * a step (two points) at each change of active speaker.
 */
function wantedCentres(
  samples: readonly FaceSample[],
  o: Required<Pick<CropPathOptions, 'holdSeconds' | 'lostSeconds' | 'switchRatio' | 'switchSeconds'>>,
): Wanted {
  const tracks: Track[] = [];
  let main: Track | null = null;
  let challenger: Track | null = null;
  let challengerSince = 0;
  let prevT: number | null = null;
  const out: Array<{ t: number; cx: number; cy: number }> = [];
  const switches: number[] = [];
  for (const s of samples) {
    const dt = prevT === null ? 1 : Math.max(1e-3, s.t - prevT);
    prevT = s.t;
    const alpha = 1 - Math.exp(-dt / 3);
    const dets = s.boxes
      .filter((b) => b.width > 0 && b.height > 0 && b.score > 0)
      .map((b) => ({ cx: b.x + b.width / 2, cy: b.y + b.height / 2, w: b.width * b.height * b.score, size: Math.sqrt(b.width * b.height) }));
    // Greedy nearest-centre matching of detections to tracks.
    const pairs: Array<{ ti: number; di: number; d: number }> = [];
    tracks.forEach((tr, ti) =>
      dets.forEach((de, di) => {
        const d = Math.hypot(tr.cx - de.cx, tr.cy - de.cy);
        if (d < Math.max(0.15, 2 * de.size)) pairs.push({ ti, di, d });
      }),
    );
    pairs.sort((a, b) => a.d - b.d);
    const usedT = new Set<number>();
    const usedD = new Set<number>();
    const seen = new Map<Track, number>();
    for (const p of pairs) {
      if (usedT.has(p.ti) || usedD.has(p.di)) continue;
      usedT.add(p.ti);
      usedD.add(p.di);
      seen.set(tracks[p.ti], p.di);
    }
    dets.forEach((de, di) => {
      if (usedD.has(di)) return;
      const tr: Track = { cx: de.cx, cy: de.cy, weight: 0, lastSeen: s.t };
      tracks.push(tr);
      seen.set(tr, di);
    });
    for (const tr of tracks) {
      const di = seen.get(tr);
      if (di !== undefined) {
        tr.cx = dets[di].cx;
        tr.cy = dets[di].cy;
        tr.lastSeen = s.t;
      }
      tr.weight += alpha * ((di !== undefined ? dets[di].w : 0) - tr.weight);
    }
    for (let i = tracks.length - 1; i >= 0; i--) if (s.t - tracks[i].lastSeen > 6 && tracks[i] !== main) tracks.splice(i, 1);

    const visible = tracks.filter((tr) => tr.lastSeen === s.t);
    const best = visible.reduce<Track | null>((a, b) => (!a || b.weight > a.weight ? b : a), null);
    // The active speaker, when known, is the subject; a change of subject then is a step at the change.
    const di = s.speaker !== undefined ? keptIndex(s, s.speaker) : -1;
    const speaker = di >= 0 ? [...seen].find(([, d]) => d === di)?.[0] : undefined;
    let switchAt: number | undefined;
    if (speaker) {
      if (main && main !== speaker && out.length > 0) switchAt = Math.max(out[out.length - 1].t + 1e-3, s.speakerSince ?? s.t);
      main = speaker;
      challenger = null;
    } else if (!main) {
      main = best;
    } else if (best && best !== main) {
      if (s.t - main.lastSeen >= o.lostSeconds) {
        main = best;
        challenger = null;
      } else if (best.weight > main.weight * o.switchRatio) {
        if (challenger !== best) {
          challenger = best;
          challengerSince = s.t;
        }
        if (s.t - challengerSince >= o.switchSeconds) {
          main = best;
          challenger = null;
        }
      } else challenger = null;
    } else challenger = null;
    if (main && s.t - main.lastSeen > 6) main = null;

    // Hold on the subject's last position for a while, then drift to the centre.
    const wanted = main && s.t - main.lastSeen <= o.holdSeconds ? { cx: main.cx, cy: main.cy } : { cx: 0.5, cy: 0.5 };
    if (switchAt !== undefined) {
      const held = out[out.length - 1];
      if (switchAt > s.t) out.push({ t: s.t, cx: held.cx, cy: held.cy });
      out.push({ t: switchAt, cx: held.cx, cy: held.cy }, { t: switchAt + 1e-3, ...wanted });
      switches.push(switchAt);
    }
    if (!(switchAt !== undefined && switchAt >= s.t)) out.push({ t: s.t, ...wanted });
  }
  return { points: out, switches };
}

/** The index among a sample's kept detections (boxes with area and score) of its box `i`, or -1. */
function keptIndex(s: FaceSample, i: number): number {
  const b = s.boxes[i];
  if (!b || !(b.width > 0 && b.height > 0 && b.score > 0)) return -1;
  return s.boxes.slice(0, i).filter((x) => x.width > 0 && x.height > 0 && x.score > 0).length;
}

/** Linear interpolation of the wanted centres, held at both ends. */
function wantedAt(w: ReadonlyArray<{ t: number; cx: number; cy: number }>, t: number): { cx: number; cy: number } {
  if (w.length === 0) return { cx: 0.5, cy: 0.5 };
  if (t <= w[0].t) return w[0];
  for (let i = 1; i < w.length; i++) {
    if (t <= w[i].t) {
      const a = w[i - 1];
      const b = w[i];
      const f = (t - a.t) / (b.t - a.t);
      return { cx: a.cx + (b.cx - a.cx) * f, cy: a.cy + (b.cy - a.cy) * f };
    }
  }
  return w[w.length - 1];
}

/** One axis of a critically damped spring (Game Programming Gems 4, "SmoothDamp"). */
function springStep(cur: number, vel: number, goal: number, smoothTime: number, maxSpeed: number, dt: number): [number, number] {
  const omega = 2 / smoothTime;
  const x = omega * dt;
  const exp = 1 / (1 + x + 0.48 * x * x + 0.235 * x * x * x);
  const maxChange = maxSpeed * smoothTime;
  const change = Math.max(-maxChange, Math.min(maxChange, cur - goal));
  const target = cur - change;
  const temp = (vel + omega * change) * dt;
  let nv = (vel - omega * temp) * exp;
  let out = target + (change + temp) * exp;
  if (goal - cur > 0 === out > goal) {
    out = goal;
    nv = 0;
  }
  return [out, nv];
}

/** Drops keyframes that linear interpolation reproduces within `tol` pixels (iterative Douglas-Peucker). */
function simplify(kfs: Keyframe[], tol: number): Keyframe[] {
  if (kfs.length <= 2) return kfs;
  const keep = new Uint8Array(kfs.length);
  keep[0] = 1;
  keep[kfs.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, kfs.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    let worst = -1;
    let worstErr = tol;
    for (let i = a + 1; i < b; i++) {
      const f = (kfs[i].t - kfs[a].t) / (kfs[b].t - kfs[a].t);
      const err = Math.max(Math.abs(kfs[a].x + (kfs[b].x - kfs[a].x) * f - kfs[i].x), Math.abs(kfs[a].y + (kfs[b].y - kfs[a].y) * f - kfs[i].y));
      if (err > worstErr) {
        worstErr = err;
        worst = i;
      }
    }
    if (worst > 0) {
      keep[worst] = 1;
      stack.push([a, worst], [worst, b]);
    }
  }
  return kfs.filter((_, i) => keep[i]);
}

/**
 * The crop path for the whole timeline: keyframes in source pixels (even integers), with a pair of
 * keyframes at the same time at each scene cut.
 */
export function computeCropPath(samples: readonly FaceSample[], source: { width: number; height: number }, options: CropPathOptions = {}): Keyframe[] {
  const o = {
    deadZone: 0.08,
    smoothTime: 0.5,
    maxSpeed: 1.5,
    lead: 0.5,
    holdSeconds: 2.5,
    lostSeconds: 1.5,
    switchRatio: 1.4,
    switchSeconds: 2,
    verticalAnchor: 0.4,
    switchEase: 0.5,
    step: 0.1,
    tolerancePx: 2,
    ...options,
  };
  const largest = cropSize(source.width, source.height, o.aspect);
  const scale = Math.min(1, Math.max(0.2, o.cropScale ?? 1));
  const w = scale === 1 ? largest.w : Math.max(2, floorEven(largest.w * scale));
  const h = scale === 1 ? largest.h : Math.max(2, floorEven(largest.h * scale));
  const maxX = floorEven(source.width - w);
  const maxY = floorEven(source.height - h);
  const sorted = [...samples].filter((s) => Number.isFinite(s.t) && s.t >= 0).sort((a, b) => a.t - b.t);
  const spacing = sorted.length > 1 ? (sorted[sorted.length - 1].t - sorted[0].t) / (sorted.length - 1) : 1;
  const end = o.duration ?? (sorted.length ? sorted[sorted.length - 1].t + spacing : 0);
  const cuts = [...new Set((o.sceneCuts ?? []).map((c) => Math.round(c * 1000) / 1000))].filter((c) => c > 0 && c < end).sort((a, b) => a - b);
  const bounds = [0, ...cuts, Math.max(end, 0)];

  const toPos = (c: { cx: number; cy: number }) => ({
    x: Math.min(maxX, Math.max(0, c.cx * source.width - w / 2)),
    y: Math.min(maxY, Math.max(0, c.cy * source.height - h * o.verticalAnchor)),
  });
  const out: Keyframe[] = [];
  for (let k = 0; k < bounds.length - 1; k++) {
    const a = bounds[k];
    const b = bounds[k + 1];
    const shot = sorted.filter((s) => s.t >= a && (s.t < b || (k === bounds.length - 2 && s.t <= b)));
    const { points: wanted, switches } = wantedCentres(shot, o);
    // The wanted position is never looked ahead past the next change of speaker (the ease starts there).
    const lookAhead = (t: number) => {
      const next = switches.find((x) => x > t + 1e-6);
      return Math.min(t + o.lead, b, next ?? Infinity);
    };
    let pos = toPos(wantedAt(wanted, lookAhead(a)));
    const goal = { ...pos };
    let vel = { x: 0, y: 0 };
    let ease: { start: number; from: { x: number; y: number }; to: { x: number; y: number } } | null = null;
    let pending = 0;
    const frames: Keyframe[] = [];
    const steps = Math.max(1, Math.ceil((b - a) / o.step - 1e-9));
    // The grid, with the start and end of each ease added.
    const times = new Set<number>();
    const at6 = (v: number) => Math.round(v * 1e6) / 1e6;
    for (let i = 0; i <= steps; i++) times.add(at6(i === steps ? b : a + i * o.step));
    for (const x of switches) if (x > a && x < b) [x, x + o.switchEase].filter((v) => v < b).forEach((v) => times.add(at6(v)));
    const grid = [...times].sort((p, q) => p - q);
    grid.forEach((t, i) => {
      if (i > 0) {
        const dt = t - grid[i - 1];
        if (pending < switches.length && switches[pending] <= t + 1e-9) {
          const at = switches[pending++];
          ease = { start: at, from: { ...pos }, to: toPos(wantedAt(wanted, Math.min(at + 2e-3, b))) };
        }
        if (ease && t < ease.start + o.switchEase - 1e-9) {
          const f = Math.min(1, Math.max(0, (t - ease.start) / o.switchEase));
          const k = f * f * (3 - 2 * f);
          pos = { x: ease.from.x + (ease.to.x - ease.from.x) * k, y: ease.from.y + (ease.to.y - ease.from.y) * k };
          Object.assign(goal, ease.to);
          vel = { x: 0, y: 0 };
        } else {
          if (ease) {
            pos = { ...ease.to };
            ease = null;
          }
          const want = toPos(wantedAt(wanted, lookAhead(t)));
          if (Math.abs(want.x - goal.x) > o.deadZone * w) goal.x = want.x;
          if (Math.abs(want.y - goal.y) > o.deadZone * h) goal.y = want.y;
          const [nx, vx] = springStep(pos.x, vel.x, goal.x, o.smoothTime, o.maxSpeed * w, dt);
          const [ny, vy] = springStep(pos.y, vel.y, goal.y, o.smoothTime, o.maxSpeed * h, dt);
          pos = { x: Math.min(maxX, Math.max(0, nx)), y: Math.min(maxY, Math.max(0, ny)) };
          vel = { x: vx, y: vy };
        }
      }
      frames.push({ t: Math.round(t * 1000) / 1000, x: floorEven(pos.x + 1), y: floorEven(pos.y + 1), w, h });
    });
    out.push(...simplify(frames, o.tolerancePx));
  }
  return out;
}
