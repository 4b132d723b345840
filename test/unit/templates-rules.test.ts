import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STRATEGY_ID,
  DEFAULT_TEMPLATE_ID,
  builtinDefinitions,
  builtinTemplateId,
  camelToSnake,
  checkStrategyConfig,
  checkTemplateConfig,
  snakeToCamel,
  strategyConfigFromRow,
  templateConfigFromRow,
  templateConfigView,
  type TemplateConfig,
} from '../../src/domain/templates/templates.rules.js';
import { BUILTIN_TEMPLATES } from '../../src/domain/edits/caption-styles.js';
import { HIGHLIGHT_STRATEGIES } from '../../src/domain/highlights/highlight-engine.js';

function errorsOf(r: { ok: boolean; errors?: unknown }) {
  expect(r.ok).toBe(false);
  return (r as { errors: Array<{ field: string; rule: string }> }).errors;
}

describe('built-ins', () => {
  it('has every caption template of the render module and the three strategies, with stable ids', () => {
    const defs = builtinDefinitions();
    const tpls = defs.filter((d) => d.kind === 'template');
    expect(tpls.map((d) => d.id)).toEqual(BUILTIN_TEMPLATES.map((t) => builtinTemplateId(t.id)));
    expect(tpls.length).toBeGreaterThanOrEqual(3);
    expect(tpls.map((d) => d.id)).toContain('tpl_bold_pop');
    for (const d of tpls) expect(d.id).toMatch(/^tpl_[a-z0-9_]+$/);
    expect(defs.filter((d) => d.kind === 'strategy')).toEqual([
      { id: 'str_short', kind: 'strategy', name: 'Short', config: { min_seconds: 15, max_seconds: 30, max_clips: HIGHLIGHT_STRATEGIES.short.max_clips } },
      { id: 'str_default', kind: 'strategy', name: 'Default', config: { min_seconds: 20, max_seconds: 60, max_clips: HIGHLIGHT_STRATEGIES.default.max_clips } },
      { id: 'str_long', kind: 'strategy', name: 'Long', config: { min_seconds: 60, max_seconds: 90, max_clips: HIGHLIGHT_STRATEGIES.long.max_clips } },
    ]);
    expect(DEFAULT_STRATEGY_ID).toBe('str_default');
    expect(DEFAULT_TEMPLATE_ID).toBe(tpls[0].id);
  });

  it('built-in configs pass their own validation (in API form)', () => {
    for (const d of builtinDefinitions()) {
      const api = d.kind === 'template' ? templateConfigView(d.config as TemplateConfig) : d.config;
      const r = d.kind === 'template' ? checkTemplateConfig(api) : checkStrategyConfig(api);
      expect(r, d.id).toEqual({ ok: true, config: d.config });
    }
  });

  it('are copies: changing one does not change the render module', () => {
    const d = builtinDefinitions()[0];
    (d.config as TemplateConfig).captions.fontSize = 1;
    expect(BUILTIN_TEMPLATES[0].captions.fontSize).not.toBe(1);
  });
});

describe('key case', () => {
  it('converts camelCase and snake_case both ways', () => {
    expect(camelToSnake('wordsPerLine')).toBe('words_per_line');
    expect(snakeToCamel('words_per_line')).toBe('wordsPerLine');
    expect(camelToSnake('box')).toBe('box');
  });

  it('shows a config in snake_case, nested objects included', () => {
    const view = templateConfigView(templateConfigFromRow({}));
    expect(Object.keys(view.captions)).toEqual(
      expect.arrayContaining(['font_family', 'font_size', 'highlight_color', 'words_per_line', 'max_lines', 'uppercase']),
    );
    expect(Object.keys(view.captions).some((k) => /[A-Z]/.test(k))).toBe(false);
    expect(view.layout).toEqual({ aspect: '9:16', reframe: 'auto', resolution: '1080p', zoom: 'none', two_faces: 'speaker' });
  });
});

describe('checkTemplateConfig', () => {
  it('fills every absent field from the default template', () => {
    const r = checkTemplateConfig({});
    const first = BUILTIN_TEMPLATES[0];
    expect(r).toEqual({ ok: true, config: { captions: first.captions, title: first.title, layout: first.layout } });
  });

  it('takes snake_case fields and returns the render module shape', () => {
    const r = checkTemplateConfig({
      captions: {
        font_family: 'Inter ExtraBold',
        font_size: 90,
        primary_color: '#ffffff',
        highlight_color: '#FF0000',
        words_per_line: 2,
        max_lines: 1,
        uppercase: false,
        position: 'middle',
        box: { color: '#000000', opacity: 0.6 },
      },
      title: { seconds: null, color: '#123456' },
      layout: { aspect: '1:1', reframe: 'fit', resolution: '720p' },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.captions).toMatchObject({
      fontFamily: 'Inter ExtraBold',
      fontSize: 90,
      highlightColor: '#FF0000',
      wordsPerLine: 2,
      maxLines: 1,
      uppercase: false,
      position: 'middle',
      box: { color: '#000000', opacity: 0.6 },
    });
    expect(r.config.captions.outlineWidth).toBe(BUILTIN_TEMPLATES[0].captions.outlineWidth);
    expect(r.config.title).toMatchObject({ seconds: null, color: '#123456' });
    expect(r.config.layout).toEqual({ aspect: '1:1', reframe: 'fit', resolution: '720p', zoom: 'none', twoFaces: 'speaker' });
  });

  it('names every bad field in snake_case with the rule', () => {
    const errs = errorsOf(
      checkTemplateConfig({
        captions: {
          font_family: 'Comic Sans',
          font_size: 500,
          highlight_color: 'red',
          words_per_line: 2.5,
          max_lines: 0,
          uppercase: 'yes',
          position: 'left',
          box: { color: '#000000', opacity: 2, radius: 3 },
        },
        title: { seconds: 0 },
        layout: { aspect: '4:3', reframe: 'zoom', resolution: '4k', fps: 30 },
        watermark: true,
      }),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        { field: 'config.captions.font_family', rule: expect.stringMatching(/^one of /) },
        { field: 'config.captions.font_size', rule: 'range 16..240' },
        { field: 'config.captions.highlight_color', rule: 'color #RRGGBB' },
        { field: 'config.captions.words_per_line', rule: 'integer' },
        { field: 'config.captions.max_lines', rule: 'range 1..4' },
        { field: 'config.captions.uppercase', rule: 'boolean' },
        { field: 'config.captions.position', rule: 'one of bottom, middle, top' },
        { field: 'config.captions.box.opacity', rule: 'range 0..1' },
        { field: 'config.captions.box.radius', rule: 'unknown field' },
        { field: 'config.title.seconds', rule: 'range 0.1..3600' },
        { field: 'config.layout.aspect', rule: 'one of 9:16, 1:1, 16:9' },
        { field: 'config.layout.reframe', rule: 'one of auto, speaker, split, screen, center, fit' },
        { field: 'config.layout.resolution', rule: 'one of 720p, 1080p' },
        { field: 'config.layout.fps', rule: 'unknown field' },
        { field: 'config.watermark', rule: 'unknown field' },
      ]),
    );
    expect(errs).toHaveLength(15);
  });

  it('refuses camelCase keys and unknown snake_case keys as unknown fields', () => {
    const errs = errorsOf(checkTemplateConfig({ captions: { fontFamily: 'Anton', font_colour: '#FFFFFF' } }));
    expect(errs).toEqual([
      { field: 'config.captions.fontFamily', rule: 'unknown field' },
      { field: 'config.captions.font_colour', rule: 'unknown field' },
    ]);
  });

  it('refuses non-objects', () => {
    expect(errorsOf(checkTemplateConfig(null))).toEqual([{ field: 'config', rule: 'object' }]);
    expect(errorsOf(checkTemplateConfig([]))).toEqual([{ field: 'config', rule: 'object' }]);
    expect(errorsOf(checkTemplateConfig({ captions: 'big', title: 3, layout: [] }))).toEqual([
      { field: 'config.captions', rule: 'object' },
      { field: 'config.title', rule: 'object' },
      { field: 'config.layout', rule: 'object' },
    ]);
  });

  it('accepts a null box (outline instead) and a box replacing the default whole', () => {
    const r = checkTemplateConfig({ captions: { box: null } });
    expect(r.ok && r.config.captions.box).toBeNull();
    expect(errorsOf(checkTemplateConfig({ captions: { box: { color: '#000000' } } }))).toEqual([{ field: 'config.captions.box.opacity', rule: 'number' }]);
  });
});

describe('checkStrategyConfig', () => {
  it('accepts the bounds 5 ≤ min < max ≤ 180 and 1 ≤ max_clips ≤ 30', () => {
    expect(checkStrategyConfig({ min_seconds: 5, max_seconds: 180, max_clips: 30 })).toEqual({
      ok: true,
      config: { min_seconds: 5, max_seconds: 180, max_clips: 30 },
    });
    expect(checkStrategyConfig({ min_seconds: 10.5, max_seconds: 10.6, max_clips: 1 }).ok).toBe(true);
  });

  it('fills absent fields from the default strategy', () => {
    expect(checkStrategyConfig({ max_clips: 3 })).toEqual({ ok: true, config: { ...HIGHLIGHT_STRATEGIES.default, max_clips: 3 } });
    expect(checkStrategyConfig({})).toEqual({ ok: true, config: { ...HIGHLIGHT_STRATEGIES.default } });
  });

  it('refuses values out of range, wrong types and unknown fields', () => {
    expect(errorsOf(checkStrategyConfig({ min_seconds: 4, max_seconds: 181, max_clips: 31 }))).toEqual([
      { field: 'config.min_seconds', rule: 'range 5..180' },
      { field: 'config.max_seconds', rule: 'range 5..180' },
      { field: 'config.max_clips', rule: 'range 1..30' },
    ]);
    expect(errorsOf(checkStrategyConfig({ min_seconds: '20', max_seconds: null, max_clips: 2.5, clips: 3 }))).toEqual([
      { field: 'config.clips', rule: 'unknown field' },
      { field: 'config.min_seconds', rule: 'number' },
      { field: 'config.max_seconds', rule: 'number' },
      { field: 'config.max_clips', rule: 'integer' },
    ]);
    expect(errorsOf(checkStrategyConfig({ max_clips: 0 }))).toEqual([{ field: 'config.max_clips', rule: 'range 1..30' }]);
    expect(errorsOf(checkStrategyConfig({ min_seconds: Infinity }))).toEqual([{ field: 'config.min_seconds', rule: 'number' }]);
    expect(errorsOf(checkStrategyConfig('short'))).toEqual([{ field: 'config', rule: 'object' }]);
  });

  it('wants max_seconds above min_seconds, also against a default', () => {
    expect(errorsOf(checkStrategyConfig({ min_seconds: 30, max_seconds: 30 }))).toEqual([{ field: 'config.max_seconds', rule: 'greater than min_seconds' }]);
    expect(errorsOf(checkStrategyConfig({ min_seconds: 90 }))).toEqual([{ field: 'config.max_seconds', rule: 'greater than min_seconds' }]);
  });
});

describe('stored configs', () => {
  it('fills fields missing from an older row and freezes the result', () => {
    const t = templateConfigFromRow({ captions: { fontSize: 50 }, layout: { aspect: '1:1' } });
    expect(t.captions.fontSize).toBe(50);
    expect(t.captions.fontFamily).toBe(BUILTIN_TEMPLATES[0].captions.fontFamily);
    expect(t.layout).toEqual({ ...BUILTIN_TEMPLATES[0].layout, aspect: '1:1' });
    expect(Object.isFrozen(t.captions)).toBe(true);
    expect(strategyConfigFromRow({ max_clips: 4 })).toEqual({ ...HIGHLIGHT_STRATEGIES.default, max_clips: 4 });
  });
});
