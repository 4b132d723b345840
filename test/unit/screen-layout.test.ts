import { describe, expect, it } from 'vitest';
import { buildAss } from '../../src/adapters/media/captions.ass.js';
import { SCREEN_FACE_SHARPEN_FROM, reframeFilters } from '../../src/adapters/media/filter-graph.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { makeEdit, validateEdit, type Edit } from '../../src/domain/edits/edit.js';
import { cropAt } from '../../src/domain/reframe/crop-keyframes.js';
import type { FaceSample } from '../../src/domain/reframe/crop-path.js';
import { computeScreenFacePath, screenFaceAspect, screenParts } from '../../src/domain/reframe/screen-path.js';

/** The `screen` layout: the screen at the output's width on top, the speaker's face cropped below; no face: the `fit` look. */

const source = { width: 1920, height: 1080 };
const corner = { x: 0.82, y: 0.7, width: 0.1, height: 0.18, score: 0.9 };
const withFace = (n: number): FaceSample[] => Array.from({ length: n }, (_, t) => ({ t, boxes: [corner] }));

describe('screenParts and screenFaceAspect', () => {
  it('scale a 16:9 screen to the 9:16 frame’s width and leave the rest to the face', () => {
    expect(screenParts(source, { width: 1080, height: 1920 })).toEqual({ screen: 608, face: 1312 });
    expect(screenParts(source, { width: 360, height: 640 })).toEqual({ screen: 202, face: 438 });
    expect(screenFaceAspect(source, 9 / 16)).toBeCloseTo(1080 / 1312.5, 3);
    // A source as tall as the output leaves no room.
    expect(screenFaceAspect({ width: 1080, height: 1920 }, 9 / 16)).toBe(0);
  });
});

describe('computeScreenFacePath', () => {
  it('crops about two faces high around the corner face, with the aspect of the space below the screen, in source time', () => {
    const p = computeScreenFacePath(withFace(30), source, { start: 5, end: 25 })!;
    expect(p[0].t).toBe(5);
    expect(p[p.length - 1].t).toBe(25);
    expect(p[0].w / p[0].h).toBeCloseTo(screenFaceAspect(source, 9 / 16), 1);
    expect(p[0].h).toBeGreaterThan(1.8 * 0.18 * 1080);
    expect(p[0].h).toBeLessThan(2.2 * 0.18 * 1080);
    const c = cropAt(p, 15);
    // The whole face inside the crop.
    expect(c.x).toBeLessThanOrEqual(0.82 * 1920);
    expect(c.x + c.w).toBeGreaterThanOrEqual(0.92 * 1920);
    expect(c.y).toBeLessThanOrEqual(0.7 * 1080);
    expect(c.y + c.h).toBeGreaterThanOrEqual(0.88 * 1080);
  });

  it('is null without a face in at least half the samples', () => {
    const none: FaceSample[] = Array.from({ length: 30 }, (_, t) => ({ t, boxes: t % 3 === 0 ? [corner] : [] }));
    expect(computeScreenFacePath(none, source, { start: 0, end: 30 })).toBeNull();
    expect(computeScreenFacePath(withFace(30), { width: 1080, height: 1920 }, { start: 0, end: 30 })).toBeNull();
  });
});

const tpl = getBuiltinTemplate('bold-pop')!;
function screenClip(samples?: FaceSample[]): Edit {
  return buildClipEdit({
    source: { key: 'k', duration: 60, ...source },
    start: 10,
    end: 30,
    words: [],
    faces: samples ? { samples, sceneCuts: [] } : undefined,
    template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'screen' } },
    watermark: false,
  });
}

describe('a clip edit with reframe screen', () => {
  it('carries the face’s path when a face is seen, valid, and renders the screen on top and the face below', () => {
    const e = screenClip(withFace(60));
    expect(e.layout.reframe).toBe('screen');
    expect(e.layout.screenPath?.length).toBeGreaterThan(0);
    expect(validateEdit(e)).toEqual([]);
    const f = reframeFilters(e);
    const k = e.layout.screenPath![0];
    expect(f).toMatch(/^\[0:v\]split=2\[sc0\]\[sc1\];\[sc0\]scale=1080:608,setsar=1\[sct\];/);
    expect(f).toContain(`[sc1]crop=w=${k.w}:h=${k.h}:`);
    // The webcam's small face is enlarged more than 1.5 times: Lanczos and a light sharpening.
    expect(1080 / k.w).toBeGreaterThanOrEqual(SCREEN_FACE_SHARPEN_FROM);
    expect(f).toContain(',scale=1080:1312:flags=lanczos,setsar=1,unsharp=5:5:0.8:5:5:0[scb];[sct][scb]vstack=inputs=2[framed]');
    // A face crop about as wide as the output is only scaled.
    const wide = { ...e, layout: { ...e.layout, screenPath: e.layout.screenPath!.map((p) => ({ ...p, x: 0, w: 800 })) } };
    expect(reframeFilters(wide)).toContain(',scale=1080:1312,setsar=1[scb]');
  });

  it('hangs the captions from the screen’s bottom edge, over the joint', () => {
    const e = makeEdit({ ...screenClip(withFace(60)), captions: { words: [{ start: 12, end: 12.5, text: 'hi' }], style: tpl.captions } });
    // Top-aligned (8), MarginV at the screen's height (608 of 1920) plus 1.5 % of the frame.
    expect(buildAss(e)).toMatch(/Style: Caption,(?:[^,]*,){17}8,\d+,\d+,637,/);
    const fit = makeEdit({ ...e, layout: { aspect: '9:16', reframe: 'fit' } });
    expect(buildAss(fit)).toMatch(/Style: Caption,(?:[^,]*,){17}2,/);
  });

  it('without a face (or without the samples) renders as fit: the whole screen on a blurred fill', () => {
    for (const e of [screenClip([]), screenClip()]) {
      expect(e.layout.screenPath).toBeUndefined();
      const fit = makeEdit({ ...e, layout: { aspect: '9:16', reframe: 'fit' } });
      expect(reframeFilters(e)).toBe(reframeFilters(fit));
    }
  });

  it('validates the face path: only with screen, of the aspect below the screen', () => {
    const e = screenClip(withFace(60));
    expect(validateEdit({ ...e, layout: { ...e.layout, reframe: 'speaker' } })).toEqual([{ field: 'layout.screenPath', rule: 'only with reframe screen' }]);
    const square = e.layout.screenPath!.map((k) => ({ ...k, h: k.w }));
    expect(validateEdit({ ...e, layout: { ...e.layout, screenPath: square } })).toEqual([
      { field: 'layout.screenPath', rule: 'crop of the aspect of the space below the screen' },
    ]);
  });
});
