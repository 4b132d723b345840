import { describe, expect, it } from 'vitest';
import { buildFilterComplex, punchInExpression } from '../../src/adapters/media/filter-graph.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { deriveEdit } from '../../src/domain/edits/edit-changes.js';
import { rebuildEdit } from '../../src/domain/clips/clip-edits.service.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { checkTemplateConfig } from '../../src/domain/templates/templates.rules.js';
import { editHash, makeEdit, validateEdit, type Edit } from '../../src/domain/edits/edit.js';
import { PUNCH_IN_ZOOM, punchIns, punchInZoom } from '../../src/domain/reframe/punch-in.js';

/** The `subtle` punch-in: short eased zooms on emphasised (louder) words, one every 4 s at most, clear of layout changes. */

/** 30 s at -20 LUFS with louder seconds at 5, 7 and 15. */
const loudness = Array.from({ length: 30 }, (_, s) => (s === 5 || s === 7 || s === 15 ? -12 : -20));
const words = Array.from({ length: 58 }, (_, i) => ({ start: i * 0.5 + 0.05, end: i * 0.5 + 0.4 }));

describe('punchIns', () => {
  it('zooms on the first word of each louder second, at most one every 4 s', () => {
    expect(punchIns(words, loudness, { start: 0, end: 30 })).toEqual([
      { start: 4.8, end: 6 },
      { start: 14.8, end: 16 },
    ]);
  });
  it('keeps clear of a layout change and of the stretch’s ends; nothing without loudness', () => {
    expect(punchIns(words, loudness, { start: 0, end: 30 }, [16.5])).toEqual([{ start: 4.8, end: 6 }]);
    // The word at 5.05..5.4 is kept from 5.2 on: its punch-in starts there.
    expect(punchIns(words, loudness, { start: 5.2, end: 30 })).toEqual([
      { start: 5.2, end: 6 },
      { start: 14.8, end: 16 },
    ]);
    // Each punch-in stays inside its kept stretch.
    expect(
      punchIns(words, loudness, [
        { start: 0, end: 5.5 },
        { start: 10, end: 30 },
      ]),
    ).toEqual([
      { start: 4.8, end: 5.5 },
      { start: 14.8, end: 16 },
    ]);
    expect(punchIns(words, new Array<number>(30).fill(-70), { start: 0, end: 30 })).toEqual([]);
    expect(punchIns(words, new Array<number>(30).fill(-20), { start: 0, end: 30 })).toEqual([]);
  });
  it('also zooms on a pitch peak at ordinary loudness, never on a raised but quiet second', () => {
    const even = new Array<number>(30).fill(-20);
    const pitch = Array.from({ length: 30 }, (_, s) => (s === 10 ? 190 : s === 20 ? 200 : s < 28 ? 120 : 0));
    expect(punchIns(words, even, { start: 0, end: 30 })).toEqual([]);
    expect(punchIns(words, even, { start: 0, end: 30 }, [], pitch)).toEqual([
      { start: 9.8, end: 11 },
      { start: 19.8, end: 21 },
    ]);
    // Two semitones up is no peak; a raised second 5 LU quieter than the rest is a murmur.
    expect(
      punchIns(
        words,
        even,
        { start: 0, end: 30 },
        [],
        pitch.map((v, s) => (s === 10 ? 134 : v)),
      ),
    ).toEqual([{ start: 19.8, end: 21 }]);
    expect(
      punchIns(
        words,
        even.map((v, s) => (s === 20 ? -25 : v)),
        { start: 0, end: 30 },
        [],
        pitch,
      ),
    ).toEqual([{ start: 9.8, end: 11 }]);
  });

  it('eases the zoom in and out (smoothstep) to PUNCH_IN_ZOOM', () => {
    const p = [{ start: 2, end: 3 }];
    expect(punchInZoom(p, 1.9)).toBe(1);
    expect(punchInZoom(p, 2)).toBe(1);
    expect(punchInZoom(p, 2.125)).toBeCloseTo(1 + (PUNCH_IN_ZOOM - 1) / 2, 5);
    expect(punchInZoom(p, 2.5)).toBeCloseTo(PUNCH_IN_ZOOM, 5);
    expect(punchInZoom(p, 3)).toBe(1);
  });
});

const tpl = getBuiltinTemplate('bold-pop')!;
const base = makeEdit({
  source: { key: 'k', duration: 30, width: 1920, height: 1080 },
  in: 0,
  out: 30,
  layout: { aspect: '9:16', reframe: 'center' },
  captions: { words: words.map((w, i) => ({ ...w, text: `w${i}` })), style: tpl.captions },
  watermark: false,
  resolution: '1080p',
});
const lineage = words.map((w, i) => ({ index: i, start: w.start, end: w.end, text: `w${i}`, speaker: null }));
const derive = (change: object, b: Edit = base) =>
  deriveEdit({ base: b, words: lineage, change, template: { ...tpl }, applyTemplate: false, maxSeconds: 180, sourceLoudness: loudness }).spec;

describe('zoom subtle in a derived edit', () => {
  it('keeps the punch-ins in the layout, and later versions keep them until none or a number', () => {
    const e = derive({ zoom: 'subtle' });
    expect(e.layout.punchIn).toBe('subtle');
    expect(e.layout.punchIns).toEqual([
      { start: 4.8, end: 6 },
      { start: 14.8, end: 16 },
    ]);
    expect(validateEdit(e)).toEqual([]);
    const trimmed = derive({ trim: { start: 10, end: 30 } }, e);
    expect(trimmed.layout.punchIns).toEqual([{ start: 14.8, end: 16 }]);
    expect(derive({ zoom: 'none' }, e).layout).toEqual({ aspect: '9:16', reframe: 'center' });
    expect(derive({ zoom: 1.5 }, e).layout).toEqual({ aspect: '9:16', reframe: 'center', zoom: 1.5 });
    // An edit that never asked keeps its hash.
    expect(editHash(derive({}))).toBe(editHash(derive({ zoom: 'none' })));
  });

  it('validates punch-ins: only with punchIn subtle, ascending, inside the edit', () => {
    const e = derive({ zoom: 'subtle' });
    expect(validateEdit({ ...e, layout: { ...e.layout, punchIn: undefined } })).toEqual([{ field: 'layout.punchIns', rule: 'only with punchIn subtle' }]);
    expect(validateEdit({ ...e, layout: { ...e.layout, punchIns: [{ start: 29, end: 31 }] } })).toEqual([
      { field: 'layout.punchIns[0]', rule: 'inside in..out' },
    ]);
    expect(validateEdit({ ...e, layout: { ...e.layout, punchIn: 'wild' } })).toContainEqual({ field: 'layout.punchIn', rule: 'subtle' });
  });
});

describe('the punch-in’s filters', () => {
  const paths = { input: 'i', inputFormat: 'mov', output: 'o', assFile: '/tmp/r/c.ass', fontsDir: 'f', watermarkFontFile: null };
  it('zoompan the framed picture one frame per frame, by an eased expression of the time, before the captions', () => {
    const e = derive({ zoom: 'subtle' });
    const g = buildFilterComplex(e, paths, { hasAudio: true, fps: 25 });
    expect(g).toContain("[framed]fps=25,zoompan=z='1+0.12*(between(it,4.8,6)*");
    expect(g).toContain(":x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1080x1920:fps=25,setsar=1,ass=");
    // The expression is punchInZoom's curve.
    const z = punchInExpression(e, null)!;
    const evalAt = (it: number) =>
      Function(
        'it',
        'between',
        'clip',
        'min',
        `return ${z}`,
      )(
        it,
        (x: number, a: number, b: number) => (x >= a && x <= b ? 1 : 0),
        (x: number, a: number, b: number) => Math.min(b, Math.max(a, x)),
        Math.min,
      ) as number;
    for (const t of [4, 4.8, 4.9, 5.05, 5.5, 5.9, 6, 15, 15.2]) expect(evalAt(t)).toBeCloseTo(punchInZoom(e.layout.punchIns!, t), 6);
    expect(buildFilterComplex(base, paths, { hasAudio: true })).not.toContain('zoompan');
  });
  it('follow the output timeline of a cut edit', () => {
    const cut = derive({
      zoom: 'subtle',
      segments: [
        { start: 0, end: 5.5 },
        { start: 10, end: 30 },
      ],
      snap: false,
    });
    expect(cut.layout.punchIns).toEqual([
      { start: 4.8, end: 5.5 },
      { start: 14.8, end: 16 },
    ]);
    // 14.8 s of the source plays at 10.3 s of the output (4.5 s cut before it).
    expect(punchInExpression(cut, cut.segments!)).toContain('between(it,10.3,11.5)');
    expect(punchInExpression(base, null)).toBeNull();
  });
});

describe('apply_template on an edit with punch-ins', () => {
  it('keeps them, but none near a shot change the new layout brings', () => {
    const e = makeEdit({
      ...derive({ zoom: 'subtle' }),
      layout: {
        aspect: '9:16',
        reframe: 'center',
        punchIn: 'subtle',
        punchIns: [
          { start: 4.8, end: 6 },
          { start: 14.8, end: 16 },
        ],
      },
    });
    const kept = rebuildEdit(e, { captions: tpl.captions, layout: tpl.layout });
    expect(kept.layout).toMatchObject({ punchIn: 'subtle', punchIns: e.layout.punchIns });
    // An auto template over two faces then one: its shot change at 15 s drops the second punch-in.
    const samples = Array.from({ length: 30 }, (_, t) => ({
      t,
      boxes:
        t < 15
          ? [
              { x: 0.2, y: 0.3, width: 0.1, height: 0.2, score: 0.9 },
              { x: 0.7, y: 0.3, width: 0.1, height: 0.2, score: 0.9 },
            ]
          : [{ x: 0.45, y: 0.3, width: 0.1, height: 0.2, score: 0.9 }],
    }));
    const auto = rebuildEdit(e, { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'auto' } }, undefined, { samples, sceneCuts: [15] });
    expect(auto.layout.shots?.map((s) => s.reframe)).toEqual(['split', 'speaker']);
    expect(auto.layout.punchIns).toEqual([{ start: 4.8, end: 6 }]);
  });
});

describe('a template with zoom subtle', () => {
  const subtle = { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'center' as const, zoom: 'subtle' as const } };
  const clipWords = words.map((w, i) => ({ ...w, text: `w${i}` }));
  const source = { key: 'k', duration: 30, width: 1920, height: 1080 };

  it('is a template layout field: `none` by default, `subtle`, nothing else', () => {
    expect(checkTemplateConfig({})).toMatchObject({ ok: true, config: { layout: { zoom: 'none' } } });
    expect(checkTemplateConfig({ layout: { zoom: 'subtle' } })).toMatchObject({ ok: true, config: { layout: { zoom: 'subtle' } } });
    const bad = checkTemplateConfig({ layout: { zoom: 1.2, two_faces: 'both' } });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors.map((e) => e.field)).toEqual(['config.layout.zoom', 'config.layout.two_faces']);
    expect(checkTemplateConfig({ layout: { two_faces: 'split' } })).toMatchObject({ ok: true, config: { layout: { twoFaces: 'split' } } });
    expect(checkTemplateConfig({ layout: { twoFaces: 'split' } }).ok).toBe(false);
  });

  it('punches in on a new clip’s loud words; `none` (or no loudness) adds nothing', () => {
    const e = buildClipEdit({ source, start: 0, end: 30, words: clipWords, template: subtle, watermark: false, loudness });
    expect(e.layout).toMatchObject({
      punchIn: 'subtle',
      punchIns: [
        { start: 4.8, end: 6 },
        { start: 14.8, end: 16 },
      ],
    });
    expect(validateEdit(e)).toEqual([]);
    const none = buildClipEdit({
      source,
      start: 0,
      end: 30,
      words: clipWords,
      template: { ...subtle, layout: { ...subtle.layout, zoom: 'none' } },
      watermark: false,
      loudness,
    });
    expect(none.layout.punchIn).toBeUndefined();
    expect(buildClipEdit({ source, start: 0, end: 30, words: clipWords, template: subtle, watermark: false }).layout).toMatchObject({ punchIn: 'subtle' });
    expect(buildClipEdit({ source, start: 0, end: 30, words: clipWords, template: subtle, watermark: false }).layout.punchIns).toBeUndefined();
  });

  it('applied to an edit without punch-ins adds them over its kept stretches; `none` keeps the edit’s own', () => {
    const cut = derive({
      segments: [
        { start: 0, end: 5.5 },
        { start: 10, end: 30 },
      ],
      snap: false,
    });
    expect(cut.layout.punchIn).toBeUndefined();
    const applied = rebuildEdit(cut, subtle, undefined, undefined, { loudness });
    expect(applied.layout).toMatchObject({
      punchIn: 'subtle',
      punchIns: [
        { start: 4.8, end: 5.5 },
        { start: 14.8, end: 16 },
      ],
    });
    expect(validateEdit(applied)).toEqual([]);
    const own = derive({ zoom: 'subtle' });
    expect(rebuildEdit(own, { ...subtle, layout: { ...subtle.layout, zoom: 'none' } }, undefined, undefined, { loudness }).layout.punchIns).toEqual(
      own.layout.punchIns,
    );
    // POST /edits with the template's id: the same.
    const viaDerive = deriveEdit({
      base,
      words: lineage,
      change: {},
      template: { ...tpl, layout: subtle.layout },
      applyTemplate: true,
      maxSeconds: 180,
      sourceLoudness: loudness,
    }).spec;
    expect(viaDerive.layout).toMatchObject({
      punchIn: 'subtle',
      punchIns: [
        { start: 4.8, end: 6 },
        { start: 14.8, end: 16 },
      ],
    });
    expect(derive({ zoom: 'none' }, viaDerive).layout.punchIn).toBeUndefined();
  });
});
