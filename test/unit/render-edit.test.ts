import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { canonicalJson, editHash, makeEdit, outputSize, validateEdit, type Edit } from '../../src/domain/edits/edit.js';
import {
  BUILTIN_TEMPLATES,
  CAPTION_FONT_FAMILIES,
  getBuiltinTemplate,
  validateCaptionStyle,
  validateTitleStyle,
} from '../../src/domain/edits/caption-styles.js';

const style = getBuiltinTemplate('bold-pop')!.captions;
const titleStyle = getBuiltinTemplate('clean')!.title;

function base(): Edit {
  return {
    source: { key: 'videos/ws1/abc.mp4', duration: 120, width: 1920, height: 1080 },
    in: 10,
    out: 40.5,
    layout: {
      aspect: '9:16',
      reframe: 'speaker',
      cropPath: [
        { t: 0, x: 600, y: 0, w: 606, h: 1080 },
        { t: 60, x: 900, y: 0, w: 606, h: 1080 },
      ],
    },
    captions: {
      words: [
        { start: 10.2, end: 10.5, text: 'hello' },
        { start: 10.6, end: 11, text: 'world' },
      ],
      style,
    },
    title: { text: 'A hook', style: titleStyle },
    watermark: false,
    resolution: '1080p',
  };
}

/** Rebuilds an object with its keys in reverse order, at every level. */
function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reverseKeys(x)]),
    );
  return v;
}

describe('outputSize', () => {
  it.each([
    ['9:16', '1080p', 1080, 1920],
    ['1:1', '1080p', 1080, 1080],
    ['16:9', '1080p', 1920, 1080],
    ['9:16', '720p', 720, 1280],
    ['1:1', '720p', 720, 720],
    ['16:9', '720p', 1280, 720],
  ] as const)('%s %s -> %dx%d', (aspect, res, w, h) => {
    expect(outputSize(aspect, res)).toEqual({ width: w, height: h });
  });
});

describe('editHash', () => {
  it('is a SHA-256 hex string, the same for the same edit whatever the key order', () => {
    const a = base();
    const h = editHash(a);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(editHash(reverseKeys(a) as Edit)).toBe(h);
    expect(editHash(makeEdit(reverseKeys(a)))).toBe(h);
  });

  it('ignores float noise below a millisecond and a title that is undefined', () => {
    const a = base();
    expect(editHash({ ...a, in: 10.0000001 })).toBe(editHash(a));
    const { title: _t, ...noTitle } = a;
    expect(editHash({ ...noTitle, title: undefined })).toBe(editHash(noTitle as Edit));
  });

  it('changes when any field changes', () => {
    const a = base();
    const h = editHash(a);
    const variants: Edit[] = [
      { ...a, source: { ...a.source, key: 'videos/ws1/other.mp4' } },
      { ...a, source: { ...a.source, width: 1280 } },
      { ...a, in: 10.01 },
      { ...a, out: 40 },
      { ...a, layout: { ...a.layout, aspect: '1:1' } },
      { ...a, layout: { ...a.layout, reframe: 'center' } },
      { ...a, layout: { ...a.layout, cropPath: [{ t: 0, x: 602, y: 0, w: 606, h: 1080 }] } },
      { ...a, captions: null },
      { ...a, captions: { ...a.captions!, words: [{ start: 10.2, end: 10.5, text: 'Hello' }] } },
      { ...a, captions: { ...a.captions!, style: { ...style, highlightColor: '#FF0000' } } },
      { ...a, captions: { ...a.captions!, style: { ...style, uppercase: false } } },
      { ...a, title: { text: 'Another hook', style: titleStyle } },
      { ...a, title: undefined },
      { ...a, watermark: true },
      { ...a, resolution: '720p' },
    ];
    const hashes = variants.map(editHash);
    for (const x of hashes) expect(x).not.toBe(h);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('canonical JSON sorts keys and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: [3, 1], c: { z: 0.12345, y: -0 } })).toBe('{"a":[3,1],"b":1,"c":{"y":0,"z":0.123}}');
  });
});

describe('validateEdit / makeEdit', () => {
  it('accepts a complete edit and freezes a copy', () => {
    const input = base();
    expect(validateEdit(input)).toEqual([]);
    const e = makeEdit(input);
    expect(e).not.toBe(input);
    expect(Object.isFrozen(e)).toBe(true);
    expect(Object.isFrozen(e.captions!.words[0])).toBe(true);
    expect(() => {
      (e as { in: number }).in = 3;
    }).toThrow(TypeError);
  });

  it('names every failed field', () => {
    const bad = {
      ...base(),
      in: 50,
      out: 40,
      layout: { aspect: '4:3', reframe: 'zoom' },
      resolution: '4k',
      watermark: 'yes',
      extra: 1,
    };
    const fields = validateEdit(bad).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['out', 'layout.aspect', 'layout.reframe', 'resolution', 'watermark', 'extra']));
    try {
      makeEdit(bad);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('VALIDATION_ERROR');
    }
  });

  it('checks the source, the out point, words and the crop path', () => {
    const a = base();
    const fields = (x: unknown) => validateEdit(x).map((e) => e.field);
    expect(fields({ ...a, out: 121 })).toContain('out');
    expect(fields({ ...a, source: { ...a.source, key: '' } })).toContain('source.key');
    expect(fields({ ...a, captions: { ...a.captions, words: [{ start: 2, end: 1, text: 'x' }] } })).toContain('captions.words[0]');
    expect(fields({ ...a, layout: { ...a.layout, cropPath: [{ t: 0, x: 1500, y: 0, w: 606, h: 1080 }] } })).toContain('layout.cropPath[0]');
    expect(fields({ ...a, layout: { ...a.layout, cropPath: [{ t: 0, x: 0, y: 0, w: 1080, h: 1080 }] } })).toContain('layout.cropPath');
    expect(
      fields({
        ...a,
        layout: {
          ...a.layout,
          cropPath: [
            { t: 5, x: 0, y: 0, w: 606, h: 1080 },
            { t: 1, x: 0, y: 0, w: 606, h: 1080 },
          ],
        },
      }),
    ).toContain('layout.cropPath[1].t');
    expect(fields({ ...a, captions: { ...a.captions, style: { ...style, fontFamily: 'Comic Sans MS' } } })).toContain('captions.style.fontFamily');
    expect(fields({ ...a, title: { text: ' ', style: titleStyle } })).toContain('title.text');
    expect(fields({ ...a, captions: undefined })).toContain('captions');
  });

  it('layout.zoom: 1 to 3; a zoom of 1 is dropped, so the edit and its hash equal the edit without one', () => {
    const a = base();
    const fields = (x: unknown) => validateEdit(x).map((e) => e.field);
    for (const zoom of [0.5, 3.01, Number.NaN, '2']) expect(fields({ ...a, layout: { ...a.layout, zoom } }), String(zoom)).toContain('layout.zoom');
    const one = makeEdit({ ...a, layout: { ...a.layout, zoom: 1 } });
    expect(one.layout).not.toHaveProperty('zoom');
    expect(editHash(one)).toBe(editHash(makeEdit(a)));
    const two = makeEdit({ ...a, layout: { ...a.layout, zoom: 2 } });
    expect(two.layout.zoom).toBe(2);
    expect(editHash(two)).not.toBe(editHash(makeEdit(a)));
    expect(makeEdit({ ...a, layout: { ...a.layout, zoom: 3 } }).layout.zoom).toBe(3);
  });
});

describe('templates', () => {
  it('ships at least three valid built-in templates with unique ids and layout defaults', () => {
    expect(BUILTIN_TEMPLATES.length).toBeGreaterThanOrEqual(3);
    expect(new Set(BUILTIN_TEMPLATES.map((t) => t.id)).size).toBe(BUILTIN_TEMPLATES.length);
    expect(BUILTIN_TEMPLATES.map((t) => t.id)).toEqual(expect.arrayContaining(['bold-pop', 'clean', 'karaoke']));
    for (const t of BUILTIN_TEMPLATES) {
      expect(t.name).not.toBe('');
      expect(validateCaptionStyle(t.captions)).toEqual([]);
      expect(validateTitleStyle(t.title)).toEqual([]);
      expect(t.layout.aspect).toBe('9:16');
      expect(CAPTION_FONT_FAMILIES).toContain(t.captions.fontFamily);
    }
    const pop = getBuiltinTemplate('bold-pop')!.captions;
    expect(pop.uppercase).toBe(true);
    expect(pop.highlightColor).toBe('#FFE600');
    expect(Object.isFrozen(BUILTIN_TEMPLATES[0].captions)).toBe(true);
  });

  it('validation returns the failed fields of a custom style', () => {
    const errs = validateCaptionStyle(
      {
        ...style,
        fontSize: 5,
        primaryColor: 'red',
        highlightColor: '#12345G',
        position: 'left',
        wordsPerLine: 2.5,
        maxLines: 9,
        uppercase: 'no',
        box: { color: '#000000', opacity: 2 },
        colour: '#FFFFFF',
      },
      { prefix: 'style.' },
    );
    expect(errs.map((e) => e.field).sort()).toEqual(
      [
        'style.box.opacity',
        'style.colour',
        'style.fontSize',
        'style.highlightColor',
        'style.maxLines',
        'style.position',
        'style.primaryColor',
        'style.uppercase',
        'style.wordsPerLine',
      ].sort(),
    );
    expect(validateCaptionStyle(null)).toEqual([{ field: 'style', rule: 'object' }]);
    expect(validateCaptionStyle({ ...style, fontFamily: 'My Font' }, { fonts: ['My Font'] })).toEqual([]);
  });

  it('title validation allows a title for the whole clip (seconds: null)', () => {
    expect(validateTitleStyle({ ...titleStyle, seconds: null })).toEqual([]);
    expect(validateTitleStyle({ ...titleStyle, seconds: 0 }).map((e) => e.field)).toEqual(['seconds']);
  });
});
