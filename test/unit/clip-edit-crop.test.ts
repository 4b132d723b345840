import { describe, expect, it } from 'vitest';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { rebuildEdit } from '../../src/domain/clips/clip-edits.service.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { makeEdit } from '../../src/domain/edits/edit.js';
import { deriveEdit } from '../../src/domain/edits/edit-changes.js';
import { reframeFilters } from '../../src/adapters/media/filter-graph.js';

/**
 * A clip edit's crop path is on the source timeline (as the Edit type and the renderer read it), so
 * the speaker crop of a clip that does not start at 0 moves, and follows cuts.
 */

const tpl = getBuiltinTemplate('bold-pop')!;
const template = { captions: tpl.captions, layout: tpl.layout };
const source = { key: 'k', duration: 200, width: 1920, height: 1080 };
const path = [
  { t: 0, x: 0, y: 0, w: 606, h: 1080 },
  { t: 200, x: 1000, y: 0, w: 606, h: 1080 },
];

describe('the crop path of a clip edit', () => {
  it('is kept in source time, sliced to the clip', () => {
    const e = buildClipEdit({ source, start: 100, end: 110, words: [], cropPath9x16: path, template, watermark: false });
    expect(e.layout.cropPath).toEqual([
      { t: 100, x: 500, y: 0, w: 606, h: 1080 },
      { t: 110, x: 550, y: 0, w: 606, h: 1080 },
    ]);
    expect(reframeFilters(e)).toContain("x='if(lt(t,0),500,if(lt(t,10),500+5*(t-0),550))'");
  });

  it('apply_template keeps a source-time path, and moves an older clip-time one back to source time', () => {
    const e = buildClipEdit({ source, start: 100, end: 110, words: [], cropPath9x16: path, template, watermark: false });
    expect(rebuildEdit(e, template).layout.cropPath).toEqual(e.layout.cropPath);
    const legacy = makeEdit({
      ...e,
      layout: {
        ...e.layout,
        cropPath: [
          { t: 0, x: 500, y: 0, w: 606, h: 1080 },
          { t: 10, x: 550, y: 0, w: 606, h: 1080 },
        ],
      },
    });
    expect(rebuildEdit(legacy, template).layout.cropPath).toEqual(e.layout.cropPath);
  });
});

describe('apply_template on an edited clip', () => {
  const words = [
    { start: 100.2, end: 100.6, text: 'one' },
    { start: 103.1, end: 103.5, text: 'two' },
    { start: 107.2, end: 107.9, text: 'three' },
  ];
  it('keeps its cuts, caption words, title and punch-in; takes the template’s style and layout', () => {
    const base = buildClipEdit({ source, start: 100, end: 110, words, cropPath9x16: path, template, watermark: false });
    const edited = makeEdit({
      ...base,
      segments: [
        { start: 100, end: 101 },
        { start: 107, end: 110 },
      ],
      layout: { ...base.layout, zoom: 1.5 },
      captions: { words: [words[0], { ...words[2], text: 'Three!' }], style: base.captions!.style },
      title: { text: 'A title', style: tpl.title },
    });
    const other = getBuiltinTemplate('clean')!;
    const next = rebuildEdit(edited, { captions: other.captions, layout: other.layout }, path);
    expect(next.segments).toEqual(edited.segments);
    expect(next.captions?.words.map((w) => w.text)).toEqual(['one', 'Three!']);
    expect(next.captions?.style).toEqual(other.captions);
    expect(next.title?.text).toBe('A title');
    expect(next.layout.zoom).toBe(1.5);
    expect(next.in).toBe(100);
    expect(next.out).toBe(110);
  });
});

describe('the crop path of a derived edit', () => {
  const clip = buildClipEdit({ source, start: 100, end: 110, words: [], cropPath9x16: path, template, watermark: false });
  const change = (c: Parameters<typeof deriveEdit>[0]['change'], over: Partial<Parameters<typeof deriveEdit>[0]> = {}) =>
    deriveEdit({ base: clip, words: [], change: c, template: { ...tpl, layout: tpl.layout }, applyTemplate: false, maxSeconds: 180, ...over }).spec;

  it('follows the source’s path over stretches past the clip', () => {
    const next = change({ segments: [{ start: 95, end: 115 }], snap: false }, { sourceCropPath: path });
    expect(next.layout.cropPath?.[0]).toEqual({ t: 95, x: 476, y: 0, w: 606, h: 1080 });
    expect(next.layout.cropPath?.at(-1)).toEqual({ t: 115, x: 576, y: 0, w: 606, h: 1080 });
  });

  it('keeps the base’s path without the source’s, and moves an older clip-time one back to source time', () => {
    expect(change({ trim: { start: 101, end: 109 }, snap: false }).layout.cropPath).toEqual(clip.layout.cropPath);
    const legacy = makeEdit({ ...clip, layout: { ...clip.layout, cropPath: clip.layout.cropPath!.map((k) => ({ ...k, t: k.t - 100 })) } });
    expect(change({ trim: { start: 101, end: 109 }, snap: false }, { base: legacy }).layout.cropPath).toEqual(clip.layout.cropPath);
  });

  it('gets the source’s path when the base was centred and the change asks for the speaker', () => {
    const centred = makeEdit({ ...clip, layout: { aspect: '9:16', reframe: 'center' } });
    expect(change({ reframe: 'speaker' }, { base: centred, sourceCropPath: path }).layout.cropPath).toEqual(clip.layout.cropPath);
  });
});
