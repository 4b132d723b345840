import { describe, expect, it } from 'vitest';
import { DEFAULT_CROP, alignedCrop, gradeByVibe, matchTone, planCrop, uncoveredShare } from '../../src/adapters/personas/face-photo.portrait.js';
import { softLimit, transferColour, type Patch } from '../../src/adapters/personas/face-warp.js';
import { borderStreaks, clippedShare, meshBox, type Rgb } from '../helpers/portrait-checks.js';

/** Deterministic textured picture: smooth blobs plus fine noise (a stand-in for a photo). */
function textured(width: number, height: number, seed = 1): Rgb {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        const v = 128 + 50 * Math.sin(x / (7 + c) + y / 11) * Math.cos(y / (9 + c) - x / 13) + (rnd() - 0.5) * 40;
        data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  return { width, height, data };
}

/** `img` with its top `rows` rows replaced by row `rows` repeated, each copy shifted `slant` px per row. */
function smearTop(img: Rgb, rows: number, slant: number): Rgb {
  const data = img.data.slice();
  const w = img.width;
  for (let y = 0; y < rows; y++) {
    const shift = (rows - y) * slant;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1, Math.max(0, x + shift));
      for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = img.data[(rows * w + sx) * 3 + c];
    }
  }
  return { ...img, data };
}

describe('border-streak detector', () => {
  it('finds an edge row smeared outward, straight or slanted, and nothing in a textured picture or a flat fill', () => {
    const img = textured(256, 256);
    expect(borderStreaks(img)).toEqual([]);
    const flat = { width: 128, height: 128, data: new Uint8Array(128 * 128 * 3).fill(90) };
    expect(borderStreaks(flat)).toEqual([]);
    const straight = borderStreaks(smearTop(img, 48, 0));
    expect(straight.length).toBeGreaterThan(0);
    expect(straight.every((s) => s.edge === 'top' && s.run >= 48)).toBe(true);
    expect(borderStreaks(smearTop(img, 48, 1)).some((s) => s.edge === 'top' && s.run >= 48)).toBe(true);
    // Shorter than 32 px: not a streak.
    expect(borderStreaks(smearTop(img, 20, 0))).toEqual([]);
  });

  it('clipped share: pixels with any channel at 0 or 255 in a box; the box around a mesh', () => {
    const img = { width: 4, height: 1, data: new Uint8Array([0, 10, 10, 10, 10, 10, 10, 255, 10, 10, 10, 10]) };
    expect(clippedShare(img, { x: 0, y: 0, width: 4, height: 1 })).toBe(0.5);
    expect(clippedShare(img, { x: 2, y: 0, width: 2, height: 1 })).toBe(0.5);
    expect(
      meshBox([
        [1, 2],
        [5, 3],
        [2, 8],
      ]),
    ).toEqual({ x: 1, y: 2, width: 4, height: 6 });
  });
});

describe('own-face portrait framing and tone', () => {
  const eyes = (cx: number, cy: number, d: number) => ({ left: [cx - d / 2, cy] as [number, number], right: [cx + d / 2, cy] as [number, number] });

  it('keeps the usual framing when the photo covers it, moves or tightens it to be covered, else leaves the least outside', () => {
    expect(planCrop(2000, 2000, eyes(1000, 900, 100))).toEqual(DEFAULT_CROP);
    // Eyes 100 px apart: the usual crop is 385 px with the eyes 162 px from its top; the photo has 150 above them.
    const near = planCrop(600, 1000, eyes(300, 150, 100));
    expect(uncoveredShare(600, 1000, eyes(300, 150, 100), DEFAULT_CROP)).toBeGreaterThan(0);
    expect(uncoveredShare(600, 1000, eyes(300, 150, 100), near)).toBe(0);
    expect(near.span).toBeLessThanOrEqual(0.3);
    // A face filling its frame: no framing is covered; the chosen one leaves less outside than the usual.
    const full = planCrop(512, 512, eyes(256, 230, 180));
    expect(uncoveredShare(512, 512, eyes(256, 230, 180), full)).toBeGreaterThan(0);
    expect(uncoveredShare(512, 512, eyes(256, 230, 180), full)).toBeLessThan(uncoveredShare(512, 512, eyes(256, 230, 180), DEFAULT_CROP));
  });

  it('fills where the crop runs past the photo with a blurred mirror, never a streak of edge pixels', () => {
    const photo = textured(200, 200, 7);
    const e = eyes(100, 90, 60);
    expect(uncoveredShare(200, 200, e, DEFAULT_CROP)).toBeGreaterThan(0.1);
    const crop = alignedCrop(photo, e, 200);
    expect(borderStreaks({ width: 200, height: 200, data: crop })).toEqual([]);
    // Inside the photo, away from its edge, the crop is the photo (a level eye line, 1:1 here: 60 / 0.26 ≈ 231 px → 200).
    const covered = alignedCrop(photo, eyes(100, 90, 60), 231);
    expect(covered.length).toBe(231 * 231 * 3);
  });

  it('softLimit: identity in the middle, 1..254 once rounded, monotonic', () => {
    expect(softLimit(128)).toBe(128);
    expect(softLimit(40)).toBe(40);
    let prev = -Infinity;
    for (let x = -200; x <= 500; x += 0.5) {
      const y = softLimit(x);
      expect(Math.round(y)).toBeGreaterThanOrEqual(1);
      expect(Math.round(y)).toBeLessThanOrEqual(254);
      expect(y).toBeGreaterThanOrEqual(prev);
      prev = y;
    }
  });

  it('the vibe grade and the tone match add no clipped level; the grade still shows', () => {
    const ramp = new Uint8Array(254 * 3);
    for (let v = 1; v <= 254; v++) ramp.fill(v, (v - 1) * 3, v * 3);
    for (const vibe of ['friendly', 'calm', 'serious', 'playful', 'surprised']) {
      const px = ramp.slice();
      gradeByVibe(px, vibe);
      expect(
        px.some((v) => v === 0 || v === 255),
        vibe,
      ).toBe(false);
    }
    const warm = new Uint8Array([100, 100, 100]);
    gradeByVibe(warm, 'friendly', 0.5);
    expect(warm[0]).toBeGreaterThan(warm[2]);
    // Enhanced output with blown highlights over a crop without any: the match clips nothing.
    const side = 16;
    const size = 48;
    const crop = new Uint8Array(side * side * 3).fill(240);
    const enhanced = new Uint8Array(size * size * 3);
    for (let i = 0; i < enhanced.length; i++) enhanced[i] = i % 7 === 0 ? 255 : 250;
    const out = matchTone(enhanced, size, crop, side);
    expect(out.some((v) => v === 0 || v === 255)).toBe(false);
    expect(Math.abs(out.reduce((a, v) => a + v, 0) / out.length - 240)).toBeLessThan(4);
  });

  it('the head swap’s colour transfer brings levels pushed past the ends back without clipping', () => {
    const n = 64;
    const patch: Patch = { box: { x0: 0, y0: 0, x1: 8, y1: 8 }, rgb: new Float32Array(n * 3), mask: new Float32Array(n).fill(1) };
    for (let i = 0; i < n * 3; i++) patch.rgb[i] = 60 + (i % 24) * 8;
    const dst = { width: 8, height: 8, data: new Uint8Array(n * 3) };
    for (let i = 0; i < n * 3; i++) dst.data[i] = 200 + (i % 12) * 4;
    transferColour(patch, dst);
    expect([...patch.rgb].every((v) => Math.round(v) >= 1 && Math.round(v) <= 254)).toBe(true);
  });
});
