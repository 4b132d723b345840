import { describe, expect, it } from 'vitest';
import { TRAITS, TRAIT_KEYS, checkNote, defaultChips, resolveChips } from '../../src/domain/personas/persona-catalog.js';
import { readNote } from '../../src/domain/personas/persona-notes.js';
import { PRESETS } from '../../src/domain/personas/persona-presets.js';
import { DEFAULT_PERSONA_PRICES, mergePrices, parsePrices } from '../../src/domain/personas/persona-prices.js';
import { nearestAspect } from '../../src/domain/personas/personas.processor.js';
import { checkFeedback, perSecond } from '../../src/domain/personas/persona.rules.js';
import { affineBetween, blendPatch, featherInside, pasteCutout, smoothPoints, transferColour, warpMesh } from '../../src/adapters/personas/face-warp.js';
import { fillGaps, poseOf, smoothTrack } from '../../src/adapters/personas/head-swap.engine.js';
import { FacePhotoPortraitEngine, alignedCrop, cropSide, eyesOf, gradeByVibe } from '../../src/adapters/personas/face-photo.portrait.js';
import { dicebearOptions, overlaySvg, portraitSvg } from '../../src/adapters/personas/illustration.portrait.js';

describe('persona catalog', () => {
  it('has the 14 trait keys of the spec, each default among its options, and complete presets', () => {
    expect(TRAIT_KEYS).toEqual([
      'vibe',
      'gender',
      'age',
      'origin',
      'skin',
      'eyes',
      'hair_style',
      'hair_color',
      'facial_hair',
      'face',
      'body',
      'outfit',
      'accessory',
      'mark',
    ]);
    for (const k of TRAIT_KEYS) expect(TRAITS[k].options.map((o) => o.id)).toContain(TRAITS[k].default);
    for (const p of PRESETS) expect(resolveChips(p.chips)).toEqual(p.chips);
  });

  it('fills defaults and names every unknown key and option', () => {
    expect(resolveChips({ vibe: 'calm' })).toEqual({ ...defaultChips(), vibe: 'calm' });
    expect(resolveChips({}, { ...defaultChips(), hair_color: 'red' }).hair_color).toBe('red');
    expect(() => resolveChips({ vibe: 'x', y: 'z', toString: 'a' })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        extra: {
          errors: [
            { field: 'chips.vibe', rule: 'unknown_option' },
            { field: 'chips.y', rule: 'unknown_trait' },
            { field: 'chips.toString', rule: 'unknown_trait' },
          ],
        },
      }),
    );
  });

  it('reads trait words out of a note, longest names first, removals included, within the traits given', () => {
    const base = defaultChips();
    expect(readNote(base, 'Dark brown hair please').chips.hair_color).toBe('dark_brown');
    expect(readNote(base, 'red hair, glasses and a mole').chips).toMatchObject({ hair_color: 'red', accessory: 'glasses', mark: 'mole' });
    expect(readNote({ ...base, accessory: 'glasses' }, 'remove the glasses').chips.accessory).toBe('none');
    expect(readNote({ ...base, facial_hair: 'goatee' }, 'shave off the beard').chips.facial_hair).toBe('none');
    expect(readNote(base, 'something mysterious').changed).toEqual([]);
    expect(readNote(base, 'blonde and calm', ['vibe'])).toEqual({ chips: { ...base, vibe: 'calm' }, changed: ['vibe'], named: ['vibe'] });
  });

  it('checks notes and feedback', () => {
    expect(checkNote('  one line ')).toBe('one line');
    for (const bad of ['', '   ', 'a\nb', 'x'.repeat(201), 'tab\there']) expect(() => checkNote(bad)).toThrow();
    expect(checkFeedback({ vote: 'up' })).toEqual({ vote: 'up', reason: null });
    expect(() => checkFeedback({ vote: 'down' })).toThrow();
    expect(() => checkFeedback({ vote: 'down', reason: '  ' })).toThrow();
    expect(checkFeedback({ vote: 'down', reason: ' dark ' })).toEqual({ vote: 'down', reason: 'dark' });
    expect(() => checkFeedback({ vote: 'maybe' })).toThrow();
  });

  it('prices: stored values read back with defaults, changes checked, per-second prices discounted', () => {
    expect(parsePrices(undefined)).toEqual(DEFAULT_PERSONA_PRICES);
    expect(parsePrices('{"image":4,"swap_high_per_second":-1}')).toEqual({ ...DEFAULT_PERSONA_PRICES, image: 4 });
    expect(parsePrices('not json')).toEqual(DEFAULT_PERSONA_PRICES);
    expect(mergePrices(DEFAULT_PERSONA_PRICES, { image: 7 })).toEqual({ ...DEFAULT_PERSONA_PRICES, image: 7 });
    expect(() => mergePrices(DEFAULT_PERSONA_PRICES, { image: 1.5 })).toThrow();
    expect(() => mergePrices(DEFAULT_PERSONA_PRICES, { colour: 1 } as never)).toThrow();
    expect(perSecond(5, 50)).toBe(2.5);
    expect(perSecond(1, 100)).toBe(0);
  });

  it('picks the output aspect nearest the source', () => {
    expect(nearestAspect(360, 640)).toBe('9:16');
    expect(nearestAspect(1920, 1080)).toBe('16:9');
    expect(nearestAspect(500, 480)).toBe('1:1');
  });
});

describe('illustration drawing', () => {
  it('maps every trait to a part of the drawing (style options or the overlay)', () => {
    const base = defaultChips();
    const svgOf = (c: Partial<typeof base>) => portraitSvg({ ...base, ...c }, 'seed');
    // Every option of every trait changes the SVG against the trait's other options.
    for (const k of TRAIT_KEYS) {
      const drawings = new Set(TRAITS[k].options.map((o) => svgOf({ [k]: o.id })));
      expect(drawings.size, k).toBe(TRAITS[k].options.length);
    }
    expect(dicebearOptions({ ...base, facial_hair: 'none' }, 's')).toMatchObject({ facialHairProbability: 0 });
    expect(dicebearOptions({ ...base, facial_hair: 'goatee' }, 's')).toMatchObject({ facialHair: ['goatee'], facialHairProbability: 100 });
    expect(overlaySvg({ ...base, accessory: 'sunglasses', gender: 'androgynous', age: 'adult', mark: 'none' })).toBe('');
  });
});

describe('face warp', () => {
  const img = (w: number, h: number, f: (x: number, y: number) => [number, number, number]) => {
    const data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(f(x, y), (y * w + x) * 3);
    return { width: w, height: h, data };
  };

  it('solves the affine map of two triangles', () => {
    const m = affineBetween(
      [
        [0, 0],
        [10, 0],
        [0, 10],
      ],
      [
        [5, 5],
        [25, 5],
        [5, 25],
      ],
    )!;
    expect(m.map((v) => Math.round(v * 1000) / 1000)).toEqual([2, 0, 5, 0, 2, 5]);
    expect(
      affineBetween(
        [
          [0, 0],
          [1, 1],
          [2, 2],
        ],
        [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
      ),
    ).toBeNull();
  });

  it('warps a mesh: the destination triangles take the source texture; colour transfer and a feathered blend leave the rest', () => {
    const src = img(20, 20, (x) => (x < 10 ? [200, 0, 0] : [0, 0, 200]));
    const pts: Array<[number, number]> = [
      [0, 0],
      [19, 0],
      [0, 19],
      [19, 19],
    ];
    const dst: Array<[number, number]> = pts.map(([x, y]) => [x + 10, y + 10]);
    const patch = warpMesh(src, pts, dst, [0, 1, 2, 1, 3, 2], 40, 40);
    expect(patch.box).toEqual({ x0: 9, y0: 9, x1: 31, y1: 31 });
    const bw = patch.box.x1 - patch.box.x0;
    const at = (x: number, y: number) => (y - patch.box.y0) * bw + (x - patch.box.x0);
    expect(patch.mask[at(12, 15)]).toBe(1);
    expect(patch.rgb[at(12, 15) * 3]).toBeCloseTo(200, 0);
    expect(patch.rgb[at(26, 15) * 3 + 2]).toBeCloseTo(200, 0);
    const target = img(40, 40, () => [100, 100, 100]);
    transferColour(patch, target);
    const alpha = featherInside(patch.mask, bw, patch.box.y1 - patch.box.y0, 4);
    expect(alpha[at(20, 20)]).toBeGreaterThan(0.9);
    expect(alpha[at(10, 20)]).toBeLessThan(0.5);
    expect(alpha[at(9, 20)]).toBe(0);
    blendPatch(target, patch, alpha);
    expect([...target.data.subarray(0, 3)]).toEqual([100, 100, 100]);
    const centre = (20 * 40 + 20) * 3;
    expect(target.data[centre]).not.toBe(100);
  });

  it('pastes a rotated, scaled cut-out at its anchor', () => {
    const data = new Uint8Array(10 * 10 * 4).fill(255);
    const dst = img(60, 60, () => [0, 0, 0]);
    pasteCutout(dst, { width: 10, height: 10, data, anchor: [5, 5], unit: 10 }, [30, 30], 20, Math.PI / 4);
    expect(dst.data[(30 * 60 + 30) * 3]).toBe(255);
    expect(dst.data[(30 * 60 + 44) * 3]).toBe(0);
    expect(dst.data[(30 * 60 + 38) * 3]).toBeGreaterThan(200);
  });

  it('smooths points and fills tracking gaps', () => {
    expect(smoothPoints(null, [[1, 1]], 0.5)).toEqual([[1, 1]]);
    expect(smoothPoints([[0, 0]], [[2, 4]], 0.5)).toEqual([[1, 2]]);
    const filled = fillGaps([[0], null, null, [3], null, null, null, null, null], 2);
    expect(filled.slice(0, 6)).toEqual([[0], [1], [2], [3], [3], [3]]);
    expect(filled[6]).toBeNull();
    expect(fillGaps([[0], null, null, null, [4]], 2).slice(1, 4)).toEqual([null, null, null]);
    const sm = smoothTrack([[0], [10], null, [0]], 0.5);
    expect(sm[2]).toBeNull();
    expect(sm[0]![0]).toBeGreaterThan(0);
    expect(sm[1]![0]).toBeLessThan(10);
  });

  it('reads the pose of a mesh (centre, cheek-to-cheek width, eye-line roll)', () => {
    const pts = new Array(468 * 2).fill(0);
    const set = (i: number, x: number, y: number) => ((pts[2 * i] = x), (pts[2 * i + 1] = y));
    set(33, 10, 10);
    set(263, 20, 20);
    set(234, 0, 0);
    set(454, 30, 40);
    const pose = poseOf(pts);
    expect(pose.scale).toBe(50);
    expect(pose.roll).toBeCloseTo(Math.PI / 4);
  });
});

describe('face photo portrait', () => {
  it('finds the eyes, crops level on them and grades by vibe', () => {
    const mesh = new Array(468).fill([0, 0]) as Array<[number, number]>;
    mesh[33] = [40, 50];
    mesh[133] = [60, 50];
    mesh[263] = [120, 70];
    mesh[362] = [100, 70];
    const eyes = eyesOf({ box: { x: 0, y: 0, width: 1, height: 1 }, score: 1, mesh });
    expect(eyes).toEqual({ left: [50, 50], right: [110, 70] });
    expect(eyesOf({ box: { x: 100, y: 100, width: 100, height: 100 }, score: 1, mesh: [] })).toEqual({ left: [130, 138], right: [170, 138] });
    expect(cropSide({ left: [0, 0], right: [10, 0] })).toBe(96);
    expect(cropSide({ left: [0, 0], right: [500, 0] })).toBe(256);
    // A gradient photo: the crop of a level eye line keeps the horizontal gradient horizontal.
    const w = 200;
    const data = new Uint8Array(w * w * 3);
    for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) data[(y * w + x) * 3] = x;
    const crop = alignedCrop({ width: w, height: w, data }, { left: [60, 100], right: [140, 100] }, 100);
    expect(crop[(50 * 100 + 10) * 3]).toBeLessThan(crop[(50 * 100 + 90) * 3]);
    expect(crop[(10 * 100 + 50) * 3]).toBe(crop[(90 * 100 + 50) * 3]);
    const px = new Uint8Array([100, 100, 100]);
    gradeByVibe(px, 'friendly');
    expect(px[0]).toBeGreaterThan(px[2]);
    const same = new Uint8Array([100, 100, 100]);
    gradeByVibe(same, 'unknown');
    expect([...same]).toEqual([100, 100, 100]);
  });

  it('crops a photo decoded smaller than its size on the eyes scaled to the copy', async () => {
    // The stored face is in the photo's pixels (eyes 320 px apart in a 6000 px photo); the photo is
    // decoded at a tenth (scale 0.1): the crop follows the copy's eyes, 32 px apart → a 123 px square
    // (on the photo's own eyes it would be the 256 px ceiling, cut from the wrong place).
    const sides: number[] = [];
    const engine = new FacePhotoPortraitEngine({
      decode: async () => ({ width: 600, height: 400, data: new Uint8Array(600 * 400 * 3), scale: 0.1 }),
      upscale: async (rgb, w, h) => {
        sides.push(w, h);
        return new Uint8Array(w * 4 * h * 4 * 3);
      },
      resize: async (_img, width, height) => ({ width, height, data: new Uint8Array(width * height * 3) }),
      encodePng: async () => new Uint8Array([1]),
    });
    const face = { box: { x: 2800, y: 1800, width: 800, height: 800 }, score: 1, mesh: [] };
    const eyes = eyesOf(face);
    expect(eyes.right[0] - eyes.left[0]).toBeCloseTo(320);
    await engine.render({ chips: {}, faces: [{ id: 'face_1', bytes: new Uint8Array(1), face }], seed: 's' } as never);
    expect(sides).toEqual([cropSide({ left: [0, 0], right: [32, 0] }), cropSide({ left: [0, 0], right: [32, 0] })]);
    expect(sides[0]).toBe(123);
  });
});
