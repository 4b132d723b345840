import { describe, expect, it } from 'vitest';
import { IMAGE_SNIFF_BYTES, sniffImage } from '../../src/adapters/images/image-format.js';
import { cameraRect, coverRect, ease, MOTIONS, outputSize, sampleInto } from '../../src/adapters/images/motion.js';
import { layersOf, tiles } from '../../src/adapters/images/upscaler.js';

describe('sniffImage', () => {
  it('recognises PNG, JPEG and WebP from their first bytes only', () => {
    expect(sniffImage(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBe('png');
    expect(sniffImage(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('jpeg');
    expect(sniffImage(Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8 ')]))).toBe('webp');
    expect(IMAGE_SNIFF_BYTES).toBeGreaterThanOrEqual(12);
  });

  it('refuses anything else: GIF, SVG, a RIFF WAV, a truncated signature, text', () => {
    for (const bytes of [
      Buffer.from('GIF89a'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WAVEfmt ')]),
      Buffer.from('89504e47', 'hex'),
      Buffer.from('hello'),
      Buffer.alloc(0),
    ]) {
      expect(sniffImage(bytes)).toBeNull();
    }
  });
});

describe('camera moves', () => {
  it('eases in and out', () => {
    expect(ease(0)).toBe(0);
    expect(ease(1)).toBe(1);
    expect(ease(0.5)).toBeCloseTo(0.5);
    expect(ease(0.05)).toBeLessThan(0.05);
    expect(ease(-1)).toBe(0);
  });

  it('keeps every camera window inside the image with the output’s aspect, for every move, size and aspect', () => {
    for (const [w, h] of [
      [1000, 600],
      [600, 1000],
      [800, 800],
      [4000, 300],
    ]) {
      for (const aspect of [16 / 9, 9 / 16, 1, 4 / 5]) {
        for (const motion of MOTIONS) {
          for (const amount of [0.5, 1, 1.8]) {
            for (let i = 0; i <= 20; i++) {
              const r = cameraRect(motion, i / 20, w, h, aspect, amount);
              expect(r.w / r.h).toBeCloseTo(aspect, 6);
              // The camera's window (amount ≤ 1) fills the frame from inside the image; a nearer layer's may leave it.
              if (amount > 1) continue;
              expect(r.x).toBeGreaterThanOrEqual(-1e-9);
              expect(r.y).toBeGreaterThanOrEqual(-1e-9);
              expect(r.x + r.w).toBeLessThanOrEqual(w + 1e-9);
              expect(r.y + r.h).toBeLessThanOrEqual(h + 1e-9);
            }
          }
        }
      }
    }
  });

  it('parallax: the nearer layer (amount 1.8) moves further than the camera for every move, size and aspect, and both meet half-way through a pan', () => {
    for (const [w, h] of [
      [1000, 600],
      [600, 1000],
      [800, 800],
      [4000, 300],
      [1024, 768],
    ]) {
      for (const aspect of [16 / 9, 9 / 16, 1, 4 / 5]) {
        for (const motion of ['pan_left', 'pan_right'] as const) {
          const bg = [cameraRect(motion, 0, w, h, aspect), cameraRect(motion, 0.5, w, h, aspect), cameraRect(motion, 1, w, h, aspect)];
          const fg = [cameraRect(motion, 0, w, h, aspect, 1.8), cameraRect(motion, 0.5, w, h, aspect, 1.8), cameraRect(motion, 1, w, h, aspect, 1.8)];
          const travel = (r: typeof bg) => Math.abs(r[2].x - r[0].x);
          expect(travel(bg), `${motion} ${w}×${h} ${aspect}`).toBeGreaterThan(0);
          expect(travel(fg) / travel(bg), `${motion} ${w}×${h} ${aspect}`).toBeCloseTo(1.8, 6);
          expect(fg[1].x).toBeCloseTo(bg[1].x, 6);
          expect(fg[0].w).toBeCloseTo(bg[0].w, 6);
        }
        for (const motion of ['zoom_in', 'push_in'] as const) {
          expect(cameraRect(motion, 1, w, h, aspect, 1.8).w).toBeLessThan(cameraRect(motion, 1, w, h, aspect).w);
        }
        expect(cameraRect('zoom_out', 0, w, h, aspect, 1.8).w).toBeLessThan(cameraRect('zoom_out', 0, w, h, aspect).w);
      }
    }
  });

  it('composites a layer only where its image is: outside it the frame below shows, edge pixels are not stretched', () => {
    // A 4×2 opaque red layer seen through a window twice its width, starting 2 px left of it.
    const layer = {
      width: 4,
      height: 2,
      channels: 4 as const,
      data: Buffer.from(new Uint8Array(4 * 2 * 4).map((_, i) => (i % 4 === 0 || i % 4 === 3 ? 255 : 0))),
    };
    const out = new Uint8Array(8 * 2 * 3).fill(50);
    sampleInto(layer, { x: -2, y: 0, w: 8, h: 2 }, out, 8, 2, true);
    const red = (x: number) => out[x * 3];
    expect([red(0), red(1)]).toEqual([50, 50]);
    expect([red(2), red(3), red(4), red(5)]).toEqual([255, 255, 255, 255]);
    expect([red(6), red(7)]).toEqual([50, 50]);
  });

  it('moves: zoom in narrows the window, pans travel sideways, the foreground amount goes further', () => {
    const start = cameraRect('zoom_in', 0, 1000, 600, 16 / 9);
    const end = cameraRect('zoom_in', 1, 1000, 600, 16 / 9);
    expect(end.w).toBeLessThan(start.w * 0.8);
    expect(start).toEqual(coverRect(1000, 600, 16 / 9));
    const right0 = cameraRect('pan_right', 0, 1000, 600, 16 / 9);
    const right1 = cameraRect('pan_right', 1, 1000, 600, 16 / 9);
    expect(right1.x).toBeGreaterThan(right0.x + 50);
    expect(cameraRect('pan_left', 1, 1000, 600, 16 / 9).x).toBeLessThan(cameraRect('pan_left', 0, 1000, 600, 16 / 9).x);
    const fg = cameraRect('zoom_in', 1, 1000, 600, 16 / 9, 1.8);
    expect(fg.w).toBeLessThan(end.w);
  });

  it('sizes outputs by their short side, even', () => {
    expect(outputSize('16:9', 720)).toEqual({ width: 1280, height: 720 });
    expect(outputSize('9:16', 360)).toEqual({ width: 360, height: 640 });
    expect(outputSize('1:1', 1080)).toEqual({ width: 1080, height: 1080 });
    expect(outputSize('4:5', 360)).toEqual({ width: 360, height: 450 });
  });
});

describe('upscaler tiling and graph', () => {
  it('covers the image with cores once and margins within the image', () => {
    const ts = tiles(250, 100, 96, 12);
    const covered = new Uint8Array(250 * 100);
    for (const t of ts) {
      expect(t.x0).toBeGreaterThanOrEqual(0);
      expect(t.x1).toBeLessThanOrEqual(250);
      expect(t.cx0 - t.x0).toBeLessThanOrEqual(12);
      for (let y = t.cy0; y < t.cy1; y++) for (let x = t.cx0; x < t.cx1; x++) covered[y * 250 + x]++;
    }
    expect(covered.every((c) => c === 1)).toBe(true);
    expect(ts).toHaveLength(6);
  });

  it('reads a Keras functional graph: layers, inputs, output', () => {
    const g = layersOf({
      modelTopology: {
        model_config: {
          config: {
            layers: [
              { class_name: 'InputLayer', config: { name: 'in' }, inbound_nodes: [] },
              { class_name: 'Conv2D', config: { name: 'c' }, inbound_nodes: [[['in', 0, 0, {}]]] },
              {
                class_name: 'Add',
                config: { name: 'a' },
                inbound_nodes: [
                  [
                    ['c', 0, 0, {}],
                    ['in', 0, 0, {}],
                  ],
                ],
              },
            ],
            input_layers: [['in', 0, 0]],
            output_layers: [['a', 0, 0]],
          },
        },
      },
    });
    expect(g.layers.map((l) => [l.className, l.inputs])).toEqual([
      ['InputLayer', []],
      ['Conv2D', ['in']],
      ['Add', ['c', 'in']],
    ]);
    expect(g).toMatchObject({ input: 'in', output: 'a' });
    expect(() => layersOf({})).toThrow();
  });
});
