import { describe, expect, it } from 'vitest';
import { MOTIONS, cameraRect, faceMoveEnds, faceRect, holds, keepBox, type Rect } from '../../src/adapters/images/motion.js';

/** Face-aware camera windows (motion.ts, pure): the face kept whole (pans: in the safe area) along every move. */

const inside = (r: Rect, w: number, h: number) => r.x >= -1e-6 && r.y >= -1e-6 && r.x + r.w <= w + 1e-6 && r.y + r.h <= h + 1e-6;

describe('face-aware camera moves', () => {
  it('every window of every move, size, aspect and face position holds the face; the camera’s stays inside the image', () => {
    let moves = 0;
    for (const [w, h] of [
      [1920, 1080],
      [1080, 1920],
      [1000, 1000],
    ]) {
      for (const aspect of [16 / 9, 9 / 16, 1, 4 / 5]) {
        for (const [fx, fy, fs] of [
          [0.1, 0.1, 0.15],
          [0.7, 0.2, 0.2],
          [0.45, 0.4, 0.1],
          [0.05, 0.6, 0.25],
        ]) {
          const side = Math.min(w, h) * fs;
          const face = { x: w * fx, y: h * fy, w: side, h: side };
          const k = keepBox(face, w, h);
          for (const motion of MOTIONS) {
            const ends = faceMoveEnds(motion, w, h, aspect, face);
            // Only where the face can be held at all (it fits the cover window).
            if (!ends) continue;
            const { inset } = ends;
            moves++;
            for (const amount of [1, 1.8]) {
              for (let i = 0; i <= 20; i++) {
                const r = faceRect(motion, i / 20, w, h, aspect, face, amount);
                const label = `${motion} ${w}x${h} ${aspect.toFixed(2)} face ${fx},${fy} amount ${amount} t ${i / 20}`;
                expect(holds(r, k, inset), label).toBe(true);
                expect(r.w / r.h, label).toBeCloseTo(aspect, 6);
                if (amount === 1) expect(inside(r, w, h), label).toBe(true);
              }
            }
          }
        }
      }
    }
    expect(moves).toBeGreaterThan(150);
  });

  it('push-in ends centred on the face’s upper third when the image has room; zoom-in ends on its centre', () => {
    const face = { x: 900, y: 500, w: 120, h: 120 };
    const end = faceRect('push_in', 1, 1920, 1080, 16 / 9, face);
    expect(end.x + end.w / 2).toBeCloseTo(960);
    expect(end.y + end.h / 2).toBeCloseTo(540);
    expect(end.w).toBeCloseTo(1920 / 1.4);
    const zoom = faceRect('zoom_in', 1, 1920, 1080, 16 / 9, face);
    expect(zoom.y + zoom.h / 2).toBeCloseTo(560);
    // A face filling most of the frame: no zoom that would cut it.
    const big = { x: 500, y: 100, w: 900, h: 800 };
    expect(faceRect('push_in', 1, 1920, 1080, 16 / 9, big).w).toBeCloseTo(1920);
  });

  it('pans still travel when the face allows, and the camera without a face is today’s', () => {
    const face = { x: 900, y: 400, w: 150, h: 150 };
    const a = faceRect('pan_right', 0, 1920, 1080, 16 / 9, face);
    const b = faceRect('pan_right', 1, 1920, 1080, 16 / 9, face);
    expect(b.x).toBeGreaterThan(a.x + 50);
    expect(cameraRect('pan_right', 1, 1920, 1080, 16 / 9)).toEqual(cameraRect('pan_right', 1, 1920, 1080, 16 / 9, 1));
  });
});
