/**
 * Crop keyframes and what renders do with them (pure). A crop path is a list of keyframes sorted by
 * time; between two keyframes the crop moves linearly. Two keyframes with the same `t` are a jump
 * (a scene cut): before `t` the first applies, from `t` on the second.
 */

export interface Keyframe {
  /** Seconds from the start of the source (or of the clip, after sliceKeyframes). */
  t: number;
  /** Top-left corner and size of the crop in source pixels, even integers. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Index of the last keyframe with `t <= time`, or -1 (binary search). */
function lastAtOrBefore(kfs: readonly Keyframe[], time: number): number {
  let lo = 0;
  let hi = kfs.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (kfs[mid].t <= time) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** The crop rectangle at `time` (interpolated, not rounded). Before the first keyframe: the first. */
export function cropAt(kfs: readonly Keyframe[], time: number): { x: number; y: number; w: number; h: number } {
  if (kfs.length === 0) throw new RangeError('empty crop path');
  const i = lastAtOrBefore(kfs, time);
  if (i < 0) return { x: kfs[0].x, y: kfs[0].y, w: kfs[0].w, h: kfs[0].h };
  const a = kfs[i];
  const b = kfs[i + 1];
  if (!b || b.t <= a.t) return { x: a.x, y: a.y, w: a.w, h: a.h };
  const f = (time - a.t) / (b.t - a.t);
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, w: a.w, h: a.h };
}

/**
 * The part of a path between `start` and `end` (source seconds), shifted so that `start` is 0, with
 * keyframes at both ends. Jumps inside the range are kept.
 */
export function sliceKeyframes(kfs: readonly Keyframe[], start: number, end: number): Keyframe[] {
  if (!(end > start)) throw new RangeError('end must be after start');
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const at = (t: number): Keyframe => {
    const c = cropAt(kfs, t);
    return { t: r3(t - start), x: evenRound(c.x), y: evenRound(c.y), w: c.w, h: c.h };
  };
  const out: Keyframe[] = [at(start)];
  for (const k of kfs) if (k.t > start && k.t < end) out.push({ ...k, t: r3(k.t - start) });
  out.push(at(end));
  return out;
}

function evenRound(v: number): number {
  return Math.round(v / 2) * 2;
}

function num(v: number, digits: number): string {
  const s = v.toFixed(digits);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

interface Piece {
  t0: number;
  t1: number;
  expr: string;
}

function pieces(kfs: readonly Keyframe[], axis: 'x' | 'y'): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < kfs.length - 1; i++) {
    const a = kfs[i];
    const b = kfs[i + 1];
    if (b.t <= a.t) continue; // a jump: no time between the two
    const slope = (b[axis] - a[axis]) / (b.t - a.t);
    const s = num(Math.abs(slope), 4);
    const expr = s === '0' ? num(a[axis], 0) : `${num(a[axis], 0)}${slope < 0 ? '-' : '+'}${s}*(t-${num(a.t, 3)})`;
    out.push({ t0: a.t, t1: b.t, expr });
  }
  return out;
}

/** Balanced `if(lt(t,T),left,right)` tree: depth and per-frame cost grow with log2 of the pieces. */
function tree(ps: Piece[], lo: number, hi: number): string {
  if (lo === hi) return ps[lo].expr;
  const mid = (lo + hi + 1) >> 1;
  return `if(lt(t,${num(ps[mid].t0, 3)}),${tree(ps, lo, mid - 1)},${tree(ps, mid, hi)})`;
}

/**
 * An ffmpeg expression of `t` for one axis: piecewise linear between keyframes, the first value
 * before the first keyframe and the last after the last one.
 */
export function cropAxisExpression(kfs: readonly Keyframe[], axis: 'x' | 'y'): string {
  if (kfs.length === 0) throw new RangeError('empty crop path');
  const first = kfs[0];
  const last = kfs[kfs.length - 1];
  if (kfs.every((k) => k[axis] === first[axis])) return num(first[axis], 0);
  const ps = pieces(kfs, axis);
  if (ps.length === 0) return num(last[axis], 0);
  const all = [{ t0: -Infinity, t1: ps[0].t0, expr: num(first[axis], 0) }, ...ps, { t0: last.t, t1: Infinity, expr: num(last[axis], 0) }];
  return tree(all, 0, all.length - 1);
}

/**
 * The `crop` filter for a path that starts at the clip's t=0 (see sliceKeyframes). Works on the
 * 2018 static ffmpeg shipped through npm: crop evaluates x and y for every frame with `t`.
 * The expressions are quoted, so the filter can be joined into a longer filter graph as is.
 */
export function cropFilter(kfs: readonly Keyframe[]): string {
  if (kfs.length === 0) throw new RangeError('empty crop path');
  const { w, h } = kfs[0];
  return `crop=w=${w}:h=${h}:x='${cropAxisExpression(kfs, 'x')}':y='${cropAxisExpression(kfs, 'y')}'`;
}
