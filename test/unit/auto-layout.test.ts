import { describe, expect, it } from 'vitest';
import { buildAss } from '../../src/adapters/media/captions.ass.js';
import { autoPieces, buildFilterComplex, reframeFilters } from '../../src/adapters/media/filter-graph.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { makeEdit, validateEdit, type Edit } from '../../src/domain/edits/edit.js';
import { checkTemplateConfig } from '../../src/domain/templates/templates.rules.js';
import { classifyShot, clipShots, screenLike, screenStats, type ShotSample } from '../../src/domain/reframe/shots.js';

/** The `auto` layout: per shot, a screen → screen, two faces → split, one face → speaker, nothing → center. */

const face = (cx: number, h = 0.2) => ({ x: cx - h / 2, y: 0.3, width: h * 0.56, height: h, score: 0.9 });
const talk = (t: number, n: number): ShotSample => ({ t, boxes: n === 2 ? [face(0.25), face(0.75)] : n === 1 ? [face(0.5)] : [], flat: 0.2, motion: 0.08 });
const slide = (t: number, withFace = true): ShotSample => ({ t, boxes: withFace ? [face(0.88, 0.15)] : [], flat: 0.7, motion: 0.004 });

describe('screenStats', () => {
  const frame = (fill: (x: number, y: number) => number, w = 64, h = 36) => {
    const data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.fill(fill(x, y), (y * w + x) * 3, (y * w + x) * 3 + 3);
    return { width: w, height: h, data };
  };
  it('finds a slide flat (one background level) and a noisy picture not', () => {
    expect(screenStats(frame((x, y) => (y % 12 < 2 && x > 8 ? 30 : 250))).flat).toBeGreaterThan(0.6);
    expect(screenStats(frame((x, y) => (x * 37 + y * 91) % 256)).flat).toBeLessThan(0.3);
  });
  it('measures motion against the previous sample only', () => {
    const a = screenStats(frame(() => 100));
    expect(a.motion).toBeUndefined();
    expect(
      screenStats(
        frame(() => 100),
        a.grid,
      ).motion,
    ).toBe(0);
    expect(
      screenStats(
        frame(() => 151),
        a.grid,
      ).motion,
    ).toBeCloseTo(51 / 255, 2);
  });
});

describe('classifyShot', () => {
  it('picks screen, split, speaker or center by what most samples show', () => {
    expect(classifyShot([0, 1, 2].map((t) => slide(t)))).toBe('screen');
    expect(classifyShot([0, 1, 2].map((t) => slide(t, false)))).toBe('screen');
    expect(classifyShot([0, 1, 2].map((t) => talk(t, 2)))).toBe('split');
    expect(classifyShot([talk(0, 2), talk(1, 1), talk(2, 1)])).toBe('speaker');
    expect(classifyShot([0, 1, 2].map((t) => talk(t, 0)))).toBe('center');
    expect(classifyShot([])).toBe('center');
  });
  it('does not take a flat picture with a big face (a talking head before a plain wall) for a screen', () => {
    const wall: ShotSample = { t: 0, boxes: [face(0.5, 0.45)], flat: 0.6, motion: 0.01 };
    expect(screenLike(wall)).toBe(false);
    expect(classifyShot([wall])).toBe('speaker');
    // A small face in the middle of a flat, still picture (a person far before a plain wall) is not a webcam.
    const far: ShotSample = { t: 0, boxes: [face(0.5, 0.2)], flat: 0.6, motion: 0.01 };
    expect(screenLike(far)).toBe(false);
    expect(screenLike({ ...far, boxes: [face(0.85, 0.2)] })).toBe(true);
    // Older analyses have no frame statistics: never a screen.
    expect(screenLike({ t: 0, boxes: [] })).toBe(false);
  });
});

describe('clipShots', () => {
  const samples = [...[0, 1, 2, 3, 4].map((t) => talk(t, 1)), ...[5, 6, 7, 8, 9].map((t) => talk(t, 2)), ...[10, 11, 12, 13, 14].map((t) => slide(t))];
  it('splits the range at the scene cuts inside it and classifies each shot, in source seconds', () => {
    expect(clipShots(samples, [5, 10, 20], { start: 2, end: 14 })).toEqual([
      { start: 2, end: 5, layout: 'speaker' },
      { start: 5, end: 10, layout: 'split' },
      { start: 10, end: 14, layout: 'screen' },
    ]);
  });
  it('merges neighbours of one layout and gives a shot under a second its neighbour’s', () => {
    // 5..5.4 shows two faces but is under a second: it stays with the shot before.
    expect(clipShots(samples, [2, 5, 5.4, 10], { start: 0, end: 10 })).toEqual([
      { start: 0, end: 5.4, layout: 'speaker' },
      { start: 5.4, end: 10, layout: 'split' },
    ]);
    expect(clipShots(samples, [], { start: 0, end: 15 })).toEqual([{ start: 0, end: 15, layout: 'speaker' }]);
  });
});

const source = { key: 'k', duration: 60, width: 1920, height: 1080 };
const tpl = getBuiltinTemplate('bold-pop')!;
const speakerPath = [
  { t: 0, x: 600, y: 0, w: 606, h: 1080 },
  { t: 60, x: 600, y: 0, w: 606, h: 1080 },
];
const allSamples = [
  ...Array.from({ length: 20 }, (_, t) => talk(t, 1)),
  ...Array.from({ length: 20 }, (_, t) => talk(t + 20, 2)),
  ...Array.from({ length: 20 }, (_, t) => slide(t + 40)),
];
function autoClip(start: number, end: number, faces = true): Edit {
  return buildClipEdit({
    source,
    start,
    end,
    words: [],
    cropPath9x16: speakerPath,
    faces: faces ? { samples: allSamples, sceneCuts: [20, 40] } : undefined,
    template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'auto' } },
    watermark: false,
  });
}

describe('a clip edit with reframe auto', () => {
  it('says auto and carries its shots with each layout’s paths', () => {
    const e = autoClip(10, 50);
    expect(e.layout.reframe).toBe('auto');
    expect(e.layout.shots?.map((s) => [s.start, s.end, s.reframe])).toEqual([
      [10, 20, 'speaker'],
      [20, 40, 'split'],
      [40, 50, 'screen'],
    ]);
    expect(e.layout.shots![1].splitPaths).toHaveLength(2);
    expect(e.layout.shots![2].screenPath?.length).toBeGreaterThan(0);
    expect(e.layout.cropPath?.[0].t).toBe(10);
    expect(validateEdit(e)).toEqual([]);
  });

  it('without face samples (an older submission) has no shots and renders as speaker', () => {
    const e = autoClip(10, 50, false);
    expect(e.layout.shots).toBeUndefined();
    expect(reframeFilters(e)).toBe(reframeFilters(makeEdit({ ...e, layout: { ...e.layout, reframe: 'speaker' } })));
  });

  it('validates shots: only with auto, end to end from in to out', () => {
    const e = autoClip(10, 50);
    const shots = e.layout.shots!;
    expect(validateEdit({ ...e, layout: { ...e.layout, reframe: 'speaker' } })).toEqual([{ field: 'layout.shots', rule: 'only with reframe auto' }]);
    expect(validateEdit({ ...e, layout: { ...e.layout, shots: [shots[0], shots[2]] } })).toEqual([
      { field: 'layout.shots[1].start', rule: 'equal to the end of the shot before' },
    ]);
    expect(validateEdit({ ...e, layout: { ...e.layout, shots: shots.slice(0, 2) } })).toEqual([{ field: 'layout.shots[1].end', rule: 'equal to out' }]);
    expect(validateEdit({ ...e, layout: { ...e.layout, shots: [{ ...shots[0], reframe: 'fit' }, ...shots.slice(1)] } })).toEqual([
      { field: 'layout.shots[0].reframe', rule: 'one of speaker, split, screen, center' },
    ]);
  });
});

describe('the auto layout’s filters', () => {
  const paths = { input: 'i', inputFormat: 'mov', output: 'o', assFile: null, fontsDir: 'f', watermarkFontFile: null };
  it('frames each shot with its layout and joins them with their sound, fading only at cuts', () => {
    const e = autoClip(10, 50);
    const g = buildFilterComplex(e, paths, { hasAudio: true, quality: 'preview' });
    expect(g).toContain('[0:v]split=3[vs0][vs1][vs2];[0:a:0]asplit=3[as0][as1][as2]');
    expect(g).toContain("[vs0]trim=start=0:end=10,setpts=PTS-STARTPTS[pv0];[pv0]crop=w=606:h=1080:x='600':y='0',scale=360:640,setsar=1[vc0]");
    expect(g).toContain('[vs1]trim=start=10:end=30,setpts=PTS-STARTPTS[pv1];[pv1]split=2[p1sp0][p1sp1]');
    expect(g).toContain('[vs2]trim=start=30:end=40,setpts=PTS-STARTPTS[pv2];[pv2]split=2[p2sc0][p2sc1]');
    expect(g).toContain('[as1]atrim=start=10:end=30,asetpts=PTS-STARTPTS[ac1]');
    expect(g).toContain('[vc0][ac0][vc1][ac1][vc2][ac2]concat=n=3:v=1:a=1[framed][cuta];[framed]format=yuv420p[v];[cuta]loudnorm');
  });

  it('splits kept stretches at shot changes: pieces in play order, fades at the stretches’ joints', () => {
    const e = makeEdit({
      ...autoClip(15, 45),
      segments: [
        { start: 15, end: 25 },
        { start: 35, end: 45 },
      ],
    });
    expect(autoPieces(e, e.segments!).map((p) => [p.start, p.end, p.shot.reframe, p.cutBefore, p.cutAfter])).toEqual([
      [15, 20, 'speaker', false, false],
      [20, 25, 'split', false, true],
      [35, 40, 'split', true, false],
      [40, 45, 'screen', false, false],
    ]);
    const g = buildFilterComplex(e, paths, { hasAudio: false });
    expect(g).toContain('[vs2]trim=start=20:end=25,setpts=PTS-STARTPTS[pv2]');
    expect(g).toContain('concat=n=4:v=1:a=0[framed];[framed]format=yuv420p[v];anullsrc');
  });
});

describe('the auto layout’s captions', () => {
  const words = [
    { start: 12, end: 12.5, text: 'one.' },
    { start: 25, end: 25.5, text: 'two.' },
    { start: 45, end: 45.5, text: 'three.' },
  ];
  const dialogue = (ass: string) =>
    ass
      .split('\n')
      .filter((l) => l.startsWith('Dialogue:'))
      .map((l) => l.split(',,0,0,0,,')[1]);
  it('sit over the joint in split and screen shots, where the template says in the others', () => {
    const e = makeEdit({ ...autoClip(10, 50), captions: { words, style: tpl.captions } });
    expect(dialogue(buildAss(e)!)).toEqual([
      expect.not.stringContaining('\\an'),
      expect.stringMatching(/^\{\\an5\}/),
      expect.stringMatching(/^\{\\an8\\pos\(540,637\)\}/),
    ]);
  });
  it('follow the shots on the output timeline of a cut edit', () => {
    const e = makeEdit({
      ...autoClip(10, 50),
      segments: [
        { start: 10, end: 15 },
        { start: 24, end: 50 },
      ],
      captions: { words, style: tpl.captions },
    });
    // "two." plays at 6 s of the output (source 25 s, in the split shot); read naively as source 10 + 6 s it would be in the speaker shot.
    const lines = dialogue(buildAss(e)!);
    expect(lines).toHaveLength(3);
    expect(lines[0]).not.toContain('\\an');
    expect(lines[1]).toMatch(/^\{\\an5\}/);
    expect(lines[2]).toMatch(/^\{\\an8/);
  });
});

describe('template layouts', () => {
  it('may carry auto, split and screen', () => {
    for (const reframe of ['auto', 'split', 'screen']) {
      const r = checkTemplateConfig({ layout: { reframe } });
      expect(r.ok, reframe).toBe(true);
      if (r.ok) expect(r.config.layout.reframe).toBe(reframe);
    }
    expect(checkTemplateConfig({ layout: { reframe: 'mosaic' } }).ok).toBe(false);
  });
});
