import { describe, expect, it } from 'vitest';
import { buildAss } from '../../src/adapters/media/captions.ass.js';
import { buildFilterComplex, reframeFilters } from '../../src/adapters/media/filter-graph.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { editHash, makeEdit, validateEdit, type Edit } from '../../src/domain/edits/edit.js';
import { cropAt } from '../../src/domain/reframe/crop-keyframes.js';
import type { FaceSample } from '../../src/domain/reframe/crop-path.js';
import { computeSplitPaths, showsTwoFaces, splitTracks } from '../../src/domain/reframe/split-path.js';

/**
 * The `split` layout: two faces, each in its own half of the 9:16 frame (stacked), each half followed
 * by the speaker camera run on that face alone; captions over the joint; `speaker` with fewer faces.
 */

const source = { width: 1920, height: 1080 };
const face = (cx: number, cy = 0.4, size = 0.15, score = 0.9) => ({ x: cx - size / 2, y: cy - size / 2, width: size, height: size, score });
/** 1 sample a second over 0..n, two faces at `l` and `r` (centres, 0..1). */
const twoFaces = (n: number, l = 0.25, r = 0.75): FaceSample[] => Array.from({ length: n }, (_, t) => ({ t, boxes: [face(r, 0.4, 0.15, 0.95), face(l)] }));

describe('splitTracks', () => {
  it('puts the left face in the first track and the right one in the second, whatever their scores', () => {
    const [left, right] = splitTracks(twoFaces(3));
    expect(left.map((s) => s.boxes[0].x + s.boxes[0].width / 2)).toEqual([0.25, 0.25, 0.25]);
    expect(right.map((s) => s.boxes[0].x + s.boxes[0].width / 2)).toEqual([0.75, 0.75, 0.75]);
  });

  it('gives a lone face to the track last seen nearer to it, and leaves the other empty', () => {
    const samples: FaceSample[] = [...twoFaces(2, 0.3, 0.6), { t: 2, boxes: [face(0.58)] }, { t: 3, boxes: [face(0.33)] }, { t: 4, boxes: [] }];
    const [left, right] = splitTracks(samples);
    expect(left.map((s) => s.boxes.length)).toEqual([1, 1, 0, 1, 0]);
    expect(right.map((s) => s.boxes.length)).toEqual([1, 1, 1, 0, 0]);
  });

  it('keeps only the two best-scored faces of a sample', () => {
    const [left, right] = splitTracks([{ t: 0, boxes: [face(0.2, 0.4, 0.15, 0.3), face(0.5), face(0.8)] }]);
    expect(left[0].boxes[0].x).toBeCloseTo(0.5 - 0.075);
    expect(right[0].boxes[0].x).toBeCloseTo(0.8 - 0.075);
  });
});

describe('showsTwoFaces', () => {
  it('needs two faces in at least half the samples', () => {
    const one = (t: number): FaceSample => ({ t, boxes: [face(0.5)] });
    expect(showsTwoFaces([...twoFaces(5), one(5), one(6), one(7), one(8)])).toBe(true);
    expect(showsTwoFaces([...twoFaces(4), one(5), one(6), one(7), one(8), one(9)])).toBe(false);
    expect(showsTwoFaces([])).toBe(false);
  });
});

describe('computeSplitPaths', () => {
  it('frames the left face in the top half and the right face in the bottom half, in source time', () => {
    const paths = computeSplitPaths(twoFaces(40), source, { start: 10, end: 30 })!;
    expect(paths).not.toBeNull();
    const [top, bottom] = paths;
    for (const p of [top, bottom]) {
      expect(p[0].t).toBe(10);
      expect(p[p.length - 1].t).toBe(30);
      // Twice the 9:16 aspect (a half of the frame: 9:8), tighter than the whole height.
      expect(p[0].w / p[0].h).toBeCloseTo(9 / 8, 1);
      expect(p[0].h).toBeLessThan(1080);
      expect(p.every((k) => k.w === p[0].w && k.h === p[0].h)).toBe(true);
    }
    for (const t of [10, 20, 29.9]) {
      const a = cropAt(top, t);
      const b = cropAt(bottom, t);
      // Each face's centre is inside its half's crop, near the crop's middle; the other face is outside it.
      expect(Math.abs(a.x + a.w / 2 - 0.25 * 1920)).toBeLessThan(0.1 * a.w);
      expect(Math.abs(b.x + b.w / 2 - 0.75 * 1920)).toBeLessThan(0.1 * b.w);
      expect(a.x + a.w).toBeLessThan(0.75 * 1920 - 0.075 * 1920);
      expect(b.x).toBeGreaterThan(0.25 * 1920 + 0.075 * 1920);
      // The face sits in the upper part of its half, whole.
      expect(a.y).toBeLessThanOrEqual((0.4 - 0.075) * 1080);
      expect(a.y + a.h).toBeGreaterThanOrEqual((0.4 + 0.075) * 1080);
    }
  });

  it('follows each face with the speaker camera’s smoothing: no jump when a face moves', () => {
    const samples: FaceSample[] = Array.from({ length: 20 }, (_, t) => ({ t, boxes: [face(0.2), face(t < 10 ? 0.55 : 0.7)] }));
    const [, bottom] = computeSplitPaths(samples, source, { start: 0, end: 20 })!;
    let prev = cropAt(bottom, 0).x;
    for (let t = 0.1; t <= 20; t += 0.1) {
      const x = cropAt(bottom, t).x;
      // Never faster than the camera's top speed (1.5 crop widths a second).
      expect(Math.abs(x - prev)).toBeLessThanOrEqual(1.5 * bottom[0].w * 0.1 + 2);
      prev = x;
    }
    // It got there: within the camera's dead zone of the face's new place.
    expect(cropAt(bottom, 0).x + bottom[0].w / 2).toBeLessThan(0.6 * 1920);
    expect(Math.abs(cropAt(bottom, 19.9).x + bottom[0].w / 2 - 0.7 * 1920)).toBeLessThan(0.1 * bottom[0].w);
  });

  it('gives each face its own half when the two sit close together: crops about 3 faces high', () => {
    // Faces 0.15 of the height high (0.07 of the width wide, about square in pixels), 0.2 of the width apart.
    const narrow = (cx: number) => ({ x: cx - 0.035, y: 0.325, width: 0.07, height: 0.15, score: 0.9 });
    const close: FaceSample[] = Array.from({ length: 20 }, (_, t) => ({ t, boxes: [narrow(0.4), narrow(0.6)] }));
    const [top, bottom] = computeSplitPaths(close, source, { start: 0, end: 20 })!;
    expect(top[0].h).toBeCloseTo(3.2 * 0.15 * 1080, -1);
    const a = cropAt(top, 10);
    const b = cropAt(bottom, 10);
    // The other face's box is outside each crop.
    expect(a.x + a.w).toBeLessThanOrEqual((0.6 - 0.035) * 1920);
    expect(b.x).toBeGreaterThanOrEqual((0.4 + 0.035) * 1920);
    // A big face gets the loosest crop, a tiny one the tightest allowed.
    expect(
      computeSplitPaths(
        twoFaces(20, 0.25, 0.75).map((s) => ({ ...s, boxes: s.boxes.map((x) => ({ ...x, height: 0.4 })) })),
        source,
        { start: 0, end: 20 },
      )![0][0].h,
    ).toBe(864);
    expect(
      computeSplitPaths(
        twoFaces(20, 0.25, 0.75).map((s) => ({ ...s, boxes: s.boxes.map((x) => ({ ...x, height: 0.05 })) })),
        source,
        { start: 0, end: 20 },
      )![0][0].h,
    ).toBeCloseTo(0.45 * 1080, -1);
  });

  it('is null when the range does not show two faces, so the edit keeps the speaker crop', () => {
    const one: FaceSample[] = Array.from({ length: 20 }, (_, t) => ({ t, boxes: [face(0.5)] }));
    expect(computeSplitPaths(one, source, { start: 0, end: 20 })).toBeNull();
    // Two faces only outside the range.
    expect(computeSplitPaths([...twoFaces(10), ...one.map((s) => ({ ...s, t: s.t + 10 }))], source, { start: 12, end: 28 })).toBeNull();
  });

  it('lets each half jump only at a scene cut inside the range', () => {
    const samples: FaceSample[] = Array.from({ length: 20 }, (_, t) => ({ t, boxes: t < 10 ? [face(0.1), face(0.5)] : [face(0.5), face(0.9)] }));
    const [top] = computeSplitPaths(samples, source, { start: 0, end: 20 }, { sceneCuts: [10] })!;
    const jumps = top.filter((k, i) => i > 0 && k.t === top[i - 1].t);
    expect(jumps.map((k) => k.t)).toEqual([10]);
  });
});

const builtin = getBuiltinTemplate('bold-pop')!;
/** The built-in with the single-face layout (the built-ins now default to `auto`). */
const tpl = { ...builtin, layout: { ...builtin.layout, reframe: 'speaker' as const } };
const speakerPath = [
  { t: 0, x: 600, y: 0, w: 606, h: 1080 },
  { t: 60, x: 600, y: 0, w: 606, h: 1080 },
];
const words = [{ start: 12, end: 12.5, text: 'hello' }];

function splitClip(samples: FaceSample[], start = 10, end = 30): Edit {
  return buildClipEdit({
    source: { key: 'k', duration: 60, ...source },
    start,
    end,
    words,
    cropPath9x16: speakerPath,
    faces: { samples, sceneCuts: [] },
    template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'split' } },
    watermark: false,
  });
}

describe('a clip edit with reframe split', () => {
  it('carries the two halves’ paths and the speaker path, and says split', () => {
    const e = splitClip(twoFaces(60));
    expect(e.layout.reframe).toBe('split');
    expect(e.layout.splitPaths).toHaveLength(2);
    expect(e.layout.cropPath?.[0]).toEqual({ t: 10, x: 600, y: 0, w: 606, h: 1080 });
    expect(validateEdit(e)).toEqual([]);
  });

  it('without two faces (or without the samples, an older submission) has no halves and renders as speaker', () => {
    const lone = splitClip(Array.from({ length: 60 }, (_, t) => ({ t, boxes: [face(0.5)] })));
    expect(lone.layout.reframe).toBe('split');
    expect(lone.layout.splitPaths).toBeUndefined();
    const old = buildClipEdit({
      source: { key: 'k', duration: 60, ...source },
      start: 10,
      end: 30,
      words,
      cropPath9x16: speakerPath,
      template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'split' } },
      watermark: false,
    });
    expect(old.layout.splitPaths).toBeUndefined();
    const speaker = makeEdit({ ...lone, layout: { ...lone.layout, reframe: 'speaker' } });
    expect(reframeFilters(lone)).toBe(reframeFilters(speaker));
  });

  it('leaves a speaker clip’s edit (and its hash) as it was', () => {
    const e = buildClipEdit({
      source: { key: 'k', duration: 60, ...source },
      start: 10,
      end: 30,
      words,
      cropPath9x16: speakerPath,
      faces: { samples: twoFaces(60), sceneCuts: [] },
      template: { captions: tpl.captions, layout: tpl.layout },
      watermark: false,
    });
    const before = buildClipEdit({
      source: { key: 'k', duration: 60, ...source },
      start: 10,
      end: 30,
      words,
      cropPath9x16: speakerPath,
      template: { captions: tpl.captions, layout: tpl.layout },
      watermark: false,
    });
    expect(e.layout.splitPaths).toBeUndefined();
    expect(editHash(e)).toBe(editHash(before));
  });
});

describe('validateEdit on split paths', () => {
  const e = splitClip(twoFaces(60));
  it('takes them only with reframe split, two of them, each a half of the frame inside the source', () => {
    expect(validateEdit({ ...e, layout: { ...e.layout, reframe: 'speaker' } })).toEqual([{ field: 'layout.splitPaths', rule: 'only with reframe split' }]);
    expect(validateEdit({ ...e, layout: { ...e.layout, splitPaths: [e.layout.splitPaths![0]] } })).toEqual([
      { field: 'layout.splitPaths', rule: 'two crop paths' },
    ]);
    const wrongAspect = [e.layout.splitPaths![0], speakerPath];
    expect(validateEdit({ ...e, layout: { ...e.layout, splitPaths: wrongAspect } })).toEqual([
      { field: 'layout.splitPaths[1]', rule: 'crop of 2 x the aspect 9:16 (a half of the frame)' },
    ]);
    const outside = [e.layout.splitPaths![0], e.layout.splitPaths![1].map((k) => ({ ...k, x: 1900 }))];
    expect(validateEdit({ ...e, layout: { ...e.layout, splitPaths: outside } })[0]).toEqual({
      field: 'layout.splitPaths[1][0]',
      rule: 'inside the source frame',
    });
  });
});

describe('the split layout’s filters', () => {
  const e = splitClip(twoFaces(60));
  it('crops the picture twice, scales each to half the frame, stacks them and draws a thin divider over the joint', () => {
    const f = reframeFilters(e);
    const [top, bottom] = e.layout.splitPaths!;
    expect(f).toMatch(/^\[0:v\]split=2\[sp0\]\[sp1\];/);
    expect(f).toContain(`[sp0]crop=w=${top[0].w}:h=${top[0].h}:`);
    expect(f).toContain(`[sp1]crop=w=${bottom[0].w}:h=${bottom[0].h}:`);
    expect(f).toContain(',scale=1080:960,setsar=1[spt]');
    expect(f).toContain(',scale=1080:960,setsar=1[spb]');
    expect(f).toContain('[spt][spb]vstack=inputs=2,drawbox=x=0:y=957:w=1080:h=6:color=white:t=fill[framed]');
  });

  it('works on the joined stretches of a cut edit, at preview size, with a punch-in per half', () => {
    const cut = makeEdit({
      ...e,
      segments: [
        { start: 10, end: 15 },
        { start: 20, end: 30 },
      ],
      layout: { ...e.layout, zoom: 1.2 },
    });
    const g = buildFilterComplex(
      cut,
      { input: 'i', inputFormat: 'mov', output: 'o', assFile: null, fontsDir: 'f', watermarkFontFile: null },
      { hasAudio: true, quality: 'preview' },
    );
    expect(g).toContain('[cutv]split=2[sp0][sp1]');
    expect(g).toContain('crop=w=iw-4*round(iw*(1-1/1.2)/4):h=ih-4*round(ih*(1-1/1.2)/4),scale=360:320,setsar=1[spt]');
    expect(g).toContain('drawbox=x=0:y=319:w=360:h=2:color=white:t=fill[framed]');
  });

  it('puts the captions over the joint (middle of the frame) only when the frame is split', () => {
    expect(buildAss(e)).toMatch(/Style: Caption,(?:[^,]*,){17}5,/);
    const speaker = makeEdit({ ...e, layout: { aspect: '9:16', reframe: 'speaker', cropPath: e.layout.cropPath } });
    expect(buildAss(speaker)).toMatch(/Style: Caption,(?:[^,]*,){17}2,/);
  });
});
