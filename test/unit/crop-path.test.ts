import { describe, expect, it } from 'vitest';
import {
  computeCropPath,
  cropAt,
  cropAxisExpression,
  cropFilter,
  cropSize,
  sliceKeyframes,
  type FaceSample,
  type Keyframe,
} from '../../src/domain/reframe/crop-path.js';

const SRC = { width: 1920, height: 1080 };
const W = 606; // floor-even of 1080 * 9 / 16
const MAX_X = SRC.width - W;

/** A square face of `px` pixels centred at (cx, cy), normalised like the detector's boxes. */
function face(cx: number, cy = 0.4, px = 200, score = 0.9) {
  const w = px / SRC.width;
  const h = px / SRC.height;
  return { x: cx - w / 2, y: cy - h / 2, width: w, height: h, score };
}

function samples(seconds: number, boxesAt: (t: number) => FaceSample['boxes']): FaceSample[] {
  return Array.from({ length: seconds + 1 }, (_, t) => ({ t, boxes: boxesAt(t) }));
}

function centre(kfs: Keyframe[], t: number): number {
  return cropAt(kfs, t).x + W / 2;
}

function expectWellFormed(kfs: Keyframe[], src = SRC, size = { w: W, h: SRC.height }) {
  expect(kfs.length).toBeGreaterThan(1);
  for (let i = 0; i < kfs.length; i++) {
    const k = kfs[i];
    expect(k.w).toBe(size.w);
    expect(k.h).toBe(size.h);
    for (const v of [k.x, k.y, k.w, k.h]) {
      expect(Number.isInteger(v)).toBe(true);
      expect(v % 2).toBe(0);
    }
    expect(k.x).toBeGreaterThanOrEqual(0);
    expect(k.y).toBeGreaterThanOrEqual(0);
    expect(k.x + k.w).toBeLessThanOrEqual(src.width);
    expect(k.y + k.h).toBeLessThanOrEqual(src.height);
    if (i > 0) expect(k.t).toBeGreaterThanOrEqual(kfs[i - 1].t);
  }
}

/** Evaluates the generated ffmpeg expression with JavaScript (it only uses if, lt, numbers and t). */
function evalExpression(expr: string, t: number): number {
  const js = expr.replace(/\bif\(/g, 'iff(');
  return new Function('t', 'iff', 'lt', `return ${js};`)(
    t,
    (c: number, a: number, b: number) => (c ? a : b),
    (a: number, b: number) => (a < b ? 1 : 0),
  );
}

describe('cropSize', () => {
  it('fits the largest even crop of the aspect', () => {
    expect(cropSize(1920, 1080)).toEqual({ w: 606, h: 1080 });
    expect(cropSize(1920, 1080, '1:1')).toEqual({ w: 1080, h: 1080 });
    expect(cropSize(1920, 1080, '16:9')).toEqual({ w: 1920, h: 1080 });
    expect(cropSize(1080, 1920, '16:9')).toEqual({ w: 1080, h: 606 });
    expect(cropSize(641, 361, '9:16')).toEqual({ w: 202, h: 360 });
    expect(() => cropSize(0, 10)).toThrow(RangeError);
  });
});

describe('computeCropPath', () => {
  it('follows a face moving right smoothly, within bounds', () => {
    const cx = (t: number) => 0.2 + (0.6 * t) / 20;
    const kfs = computeCropPath(
      samples(20, (t) => [face(cx(t))]),
      SRC,
      { duration: 21 },
    );
    expectWellFormed(kfs);
    for (let i = 1; i < kfs.length; i++) {
      expect(kfs[i].x).toBeGreaterThanOrEqual(kfs[i - 1].x);
      const speed = (kfs[i].x - kfs[i - 1].x) / (kfs[i].t - kfs[i - 1].t);
      expect(speed).toBeLessThan(200); // the face moves 58 px/s
    }
    for (let t = 1; t <= 19; t += 0.5) expect(Math.abs(centre(kfs, t) - cx(t) * SRC.width)).toBeLessThan(0.25 * W);
    expect(kfs.length).toBeLessThan(60);
  });

  it('does not jitter between two faces that alternate', () => {
    const left = face(0.25);
    const right = face(0.75);
    const kfs = computeCropPath(
      samples(30, (t) => (t % 2 === 0 ? [left] : [right])),
      SRC,
    );
    expectWellFormed(kfs);
    const xs = new Set(kfs.map((k) => k.x));
    expect(xs.size).toBe(1);
    expect(Math.abs(centre(kfs, 15) - 0.25 * SRC.width)).toBeLessThan(4);
  });

  it('keeps the subject when a similar face is sometimes a little bigger', () => {
    const kfs = computeCropPath(
      samples(30, (t) => [face(0.25, 0.4, t % 2 ? 190 : 210), face(0.75, 0.4, t % 2 ? 215 : 185)]),
      SRC,
    );
    expect(new Set(kfs.map((k) => k.x)).size).toBe(1);
  });

  it('switches to a clearly bigger face that stays', () => {
    const kfs = computeCropPath(
      samples(20, (t) => (t < 5 ? [face(0.25, 0.4, 150)] : [face(0.25, 0.4, 150), face(0.75, 0.4, 320)])),
      SRC,
    );
    expect(Math.abs(centre(kfs, 3) - 0.25 * SRC.width)).toBeLessThan(10);
    expect(Math.abs(centre(kfs, 19) - 0.75 * SRC.width)).toBeLessThan(10);
  });

  it('centres when there is no face', () => {
    const kfs = computeCropPath(
      samples(10, () => []),
      SRC,
    );
    expectWellFormed(kfs);
    for (const k of kfs) expect(Math.abs(k.x - MAX_X / 2)).toBeLessThanOrEqual(1);
    expect(kfs).toHaveLength(2);
  });

  it('holds on a face that disappears, then drifts to the centre', () => {
    const kfs = computeCropPath(
      samples(20, (t) => (t <= 5 ? [face(0.15)] : [])),
      SRC,
    );
    const leftX = cropAt(kfs, 4).x;
    expect(leftX).toBe(0); // 0.15 * 1920 - 303 < 0: clamped
    expect(cropAt(kfs, 6.5).x).toBe(leftX);
    expect(Math.abs(cropAt(kfs, 14).x - MAX_X / 2)).toBeLessThanOrEqual(2);
  });

  it('jumps exactly at a scene cut and nowhere else', () => {
    const data = samples(20, (t) => (t < 10 ? [face(0.2)] : [face(0.8)]));
    const kfs = computeCropPath(data, SRC, { sceneCuts: [10] });
    expectWellFormed(kfs);
    const atCut = kfs.filter((k) => k.t === 10);
    expect(atCut).toHaveLength(2);
    expect(atCut[0].x).toBe(cropAt(kfs, 9.9).x);
    expect(Math.abs(atCut[1].x + W / 2 - 0.8 * SRC.width)).toBeLessThan(4);
    expect(Math.abs(centre(kfs, 9.99) - 0.2 * SRC.width)).toBeLessThan(4);
    // Elsewhere the camera never moves faster than its cap.
    for (let i = 1; i < kfs.length; i++) {
      if (kfs[i].t === kfs[i - 1].t) continue;
      expect(Math.abs(kfs[i].x - kfs[i - 1].x) / (kfs[i].t - kfs[i - 1].t)).toBeLessThanOrEqual(1.5 * W + 1);
    }
    // Without the cut the same change is a smooth pan.
    const pan = computeCropPath(data, SRC);
    for (let i = 1; i < pan.length; i++) expect(pan[i].t).toBeGreaterThan(pan[i - 1].t);
  });

  it('moves vertically when the source is narrower than the target', () => {
    const src = { width: 1080, height: 1920 };
    const cy = (t: number) => 0.3 + (0.4 * t) / 10;
    const box = (t: number) => ({ x: 0.45, y: cy(t) - 0.05, width: 0.1, height: 0.1, score: 0.9 });
    const kfs = computeCropPath(
      samples(10, (t) => [box(t)]),
      src,
      { aspect: '16:9', duration: 11 },
    );
    expectWellFormed(kfs, src, { w: 1080, h: 606 });
    for (const k of kfs) expect(k.x).toBe(0);
    expect(kfs[kfs.length - 1].y).toBeGreaterThan(kfs[0].y + 400);
  });

  it('stays put when the aspect is the source aspect', () => {
    const kfs = computeCropPath(
      samples(5, (t) => [face(0.1 + t * 0.1)]),
      SRC,
      { aspect: '16:9' },
    );
    for (const k of kfs) expect(k).toMatchObject({ x: 0, y: 0, w: 1920, h: 1080 });
  });
});

describe('crop expressions', () => {
  const kfs: Keyframe[] = [
    { t: 0, x: 100, y: 0, w: 606, h: 1080 },
    { t: 2, x: 300, y: 0, w: 606, h: 1080 },
    { t: 5, x: 300, y: 0, w: 606, h: 1080 },
    { t: 5, x: 900, y: 0, w: 606, h: 1080 },
    { t: 7.5, x: 650, y: 0, w: 606, h: 1080 },
  ];

  it('evaluates like cropAt everywhere, jumps included', () => {
    const expr = cropAxisExpression(kfs, 'x');
    for (let t = -1; t <= 9; t += 0.05) expect(evalExpression(expr, t)).toBeCloseTo(cropAt(kfs, t).x, 3);
    expect(evalExpression(expr, 5)).toBe(900);
    expect(evalExpression(expr, 4.999)).toBeCloseTo(300, 6);
    expect(cropAxisExpression(kfs, 'y')).toBe('0');
  });

  it('keeps a balanced tree for long paths', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ t: i * 0.25, x: 2 * Math.round(300 + 250 * Math.sin(i / 7)), y: 0, w: 606, h: 1080 }));
    const expr = cropAxisExpression(many, 'x');
    let depth = 0;
    let max = 0;
    for (const ch of expr) {
      if (ch === '(') max = Math.max(max, ++depth);
      if (ch === ')') depth--;
    }
    expect(max).toBeLessThan(30);
    for (let t = 0; t < 100; t += 0.37) expect(evalExpression(expr, t)).toBeCloseTo(cropAt(many, t).x, 3);
  });

  it('slices a clip out of the path and shifts it to 0', () => {
    const clip = sliceKeyframes(kfs, 1, 6);
    expect(clip[0]).toEqual({ t: 0, x: 200, y: 0, w: 606, h: 1080 });
    expect(clip.filter((k) => k.t === 4)).toHaveLength(2);
    expect(clip[clip.length - 1]).toEqual({ t: 5, x: 800, y: 0, w: 606, h: 1080 });
    for (let t = 0; t <= 5; t += 0.1) expect(cropAt(clip, t).x).toBeCloseTo(cropAt(kfs, t + 1).x, 0);
  });

  it('writes a quoted crop filter', () => {
    const f = cropFilter(sliceKeyframes(kfs, 0, 3));
    expect(f).toMatch(/^crop=w=606:h=1080:x='if\(lt\(t,[\d.]+\),.*':y='0'$/);
    expect(cropFilter([{ t: 0, x: 10, y: 4, w: 20, h: 30 }])).toBe("crop=w=20:h=30:x='10':y='4'");
  });
});
