import { describe, expect, it } from 'vitest';
import { assColor, assOverrideColor, assTime, buildAss, captionEvents, clipWords, escapeAssText, paginate } from '../../src/adapters/media/captions.ass.js';
import type { CaptionWord, Edit } from '../../src/domain/edits/edit.js';
import { getBuiltinTemplate, type CaptionStyle } from '../../src/domain/edits/caption-styles.js';

const pop = getBuiltinTemplate('bold-pop')!.captions;
const clean = getBuiltinTemplate('clean')!.captions;

/** A small ASS reader: sections, Format-mapped Style and Dialogue lines. */
function parseAss(text: string) {
  const sections: Record<string, string[]> = {};
  let cur = '';
  for (const line of text.split('\n')) {
    const m = /^\[(.+)\]$/.exec(line);
    if (m) sections[(cur = m[1])] = [];
    else if (cur && line.trim() && !line.startsWith(';')) sections[cur].push(line);
  }
  const info = Object.fromEntries(sections['Script Info'].map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
  const table = (lines: string[], kind: string) => {
    const fmt = lines
      .find((l) => l.startsWith('Format:'))!
      .slice(7)
      .split(',')
      .map((s) => s.trim());
    return lines
      .filter((l) => l.startsWith(`${kind}:`))
      .map((l) => {
        const parts = l
          .slice(kind.length + 1)
          .trim()
          .split(',');
        const head = parts.slice(0, fmt.length - 1);
        const rec: Record<string, string> = Object.fromEntries(head.map((v, i) => [fmt[i], v]));
        rec[fmt[fmt.length - 1]] = parts.slice(fmt.length - 1).join(',');
        return rec;
      });
  };
  return { info, styles: table(sections['V4+ Styles'], 'Style'), events: table(sections.Events, 'Dialogue') };
}

function secondsOf(t: string): number {
  const [h, m, s] = t.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** The visible text of a Dialogue Text field: overrides removed, escapes resolved. */
function plain(text: string): string {
  return text
    .replace(/\\\{/g, '\u0001')
    .replace(/\\\}/g, '\u0002')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\\N/g, '\n')
    .replace(/\u0001/g, '{')
    .replace(/\u0002/g, '}')
    .replace(/\u200b/g, '');
}

/** The words shown in the highlight colour in a Text field. */
function highlighted(text: string, style: CaptionStyle): string[] {
  const tag = `{\\1c${assOverrideColor(style.highlightColor)}`;
  const out: string[] = [];
  let i = text.indexOf(tag);
  while (i >= 0) {
    const end = text.indexOf('{\\r}', i);
    out.push(...plain(text.slice(i, end)).split(/\s+/).filter(Boolean));
    i = text.indexOf(tag, end);
  }
  return out;
}

function words(list: string, start = 10, step = 0.5): CaptionWord[] {
  return list.split(' ').map((text, i) => ({ start: start + i * step, end: start + i * step + step * 0.8, text }));
}

function edit(over: Partial<Edit> = {}): Edit {
  return {
    source: { key: 'k', duration: 100, width: 1920, height: 1080 },
    in: 10,
    out: 20,
    layout: { aspect: '9:16', reframe: 'center' },
    captions: { words: words('one two three four five six seven eight'), style: pop },
    watermark: false,
    resolution: '1080p',
    ...over,
  };
}

describe('ASS primitives', () => {
  it('colours are &HAABBGGRR in styles and &HBBGGRR& in overrides', () => {
    expect(assColor('#FFE600')).toBe('&H0000E6FF');
    expect(assColor('#112233', 128)).toBe('&H80332211');
    expect(assOverrideColor('#FFE600')).toBe('&H00E6FF&');
    expect(() => assColor('yellow')).toThrow(RangeError);
  });

  it('times are H:MM:SS.cc', () => {
    expect(assTime(0)).toBe('0:00:00.00');
    expect(assTime(61.234)).toBe('0:01:01.23');
    expect(assTime(3725.999)).toBe('1:02:06.00');
    expect(assTime(-1)).toBe('0:00:00.00');
  });

  it('escapes braces and backslashes that would start a tag', () => {
    expect(escapeAssText('a {b} c')).toBe('a \\{b\\} c');
    expect(escapeAssText('x\\Ny')).toBe('x\\\u200bNy');
    expect(escapeAssText('C:\\temp')).toBe('C:\\temp');
    expect(escapeAssText('{\\b1}')).toBe('\\{\\b1\\}');
    expect(escapeAssText('a\\{b')).toBe('a\\\u200b\\{b');
    expect(escapeAssText('line\nbreak\ttab')).toBe('line break tab');
  });
});

describe('word timing and pages', () => {
  it('keeps words inside [in, out], relative to in and clipped', () => {
    const w = clipWords(
      [
        { start: 8, end: 9, text: 'before' },
        { start: 9.5, end: 10.4, text: 'straddle' },
        { start: 12, end: 12.5, text: '  mid  ' },
        { start: 19.8, end: 20.6, text: 'tail' },
        { start: 20, end: 21, text: 'after' },
        { start: 13, end: 13.2, text: '   ' },
      ],
      10,
      20,
    );
    expect(w).toEqual([
      { start: 0, end: expect.closeTo(0.4, 6), text: 'straddle' },
      { start: 2, end: 2.5, text: 'mid' },
      { start: expect.closeTo(9.8, 6), end: 10, text: 'tail' },
    ]);
  });

  it('groups words into lines and pages, breaking on pauses and sentence ends', () => {
    const ws = clipWords(words('a b c d e f g h'), 10, 20);
    const pages = paginate(ws, { wordsPerLine: 3, maxLines: 2 });
    expect(pages.map((p) => p.lines.map((l) => l.map((w) => w.text).join(' ')))).toEqual([['a b c', 'd e f'], ['g h']]);
    const withPause = [...clipWords(words('a b'), 10, 20), ...clipWords(words('c d', 14), 10, 20)];
    expect(paginate(withPause, { wordsPerLine: 3, maxLines: 2 }).length).toBe(2);
    const sentence = clipWords(words('Hi there. How are'), 10, 20);
    expect(paginate(sentence, { wordsPerLine: 3, maxLines: 2 }).map((p) => p.words.length)).toEqual([2, 2]);
  });

  it('one event per word, contiguous inside a page, each highlighting its own word', () => {
    const evs = captionEvents(words('one two three four five six seven eight'), 10, 20, pop);
    expect(evs).toHaveLength(8);
    evs.forEach((e, i) => {
      expect(highlighted(e.text, pop)).toEqual([['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT'][i]]);
      expect(e.end).toBeGreaterThan(e.start);
    });
    for (let i = 0; i < 5; i++) expect(evs[i].end).toBe(evs[i + 1].start);
    // Page 2 starts right after page 1, so page 1 is held until then (no flicker).
    expect(evs[5].end).toBe(evs[6].start);
  });

  it('fill mode highlights every word up to the spoken one, as one run', () => {
    const style = { ...clean, highlightMode: 'fill' as const, wordsPerLine: 2, maxLines: 2 };
    const evs = captionEvents(words('a b c d'), 10, 20, style);
    expect(evs.map((e) => highlighted(e.text, style))).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']]);
    expect(evs[2].text.split('{\\1c').length).toBe(2);
  });
});

describe('buildAss', () => {
  it('writes a script whose PlayRes is the output size and whose events parse back', () => {
    const ass = buildAss(edit())!;
    const { info, styles, events } = parseAss(ass);
    expect(info.ScriptType).toBe('v4.00+');
    expect(info.PlayResX).toBe('1080');
    expect(info.PlayResY).toBe('1920');
    expect(info.ScaledBorderAndShadow).toBe('yes');
    const cap = styles.find((s) => s.Name === 'Caption')!;
    expect(cap.Fontname).toBe('Anton');
    expect(Number(cap.Fontsize)).toBe(pop.fontSize);
    expect(cap.PrimaryColour).toBe('&H00FFFFFF');
    expect(cap.SecondaryColour).toBe(assColor(pop.highlightColor));
    expect(cap.OutlineColour).toBe('&H00000000');
    expect(cap.BorderStyle).toBe('1');
    expect(cap.Alignment).toBe('2');
    expect(Number(cap.MarginV)).toBe(Math.round((pop.margin / 100) * 1920));
    expect(events).toHaveLength(8);
    expect(plain(events[0].Text)).toBe('ONE TWO THREE\nFOUR FIVE SIX');
    expect(secondsOf(events[0].Start)).toBe(0);
    for (const e of events) {
      expect(secondsOf(e.End)).toBeLessThanOrEqual(10);
      expect(secondsOf(e.End)).toBeGreaterThan(secondsOf(e.Start));
      expect(e.Style).toBe('Caption');
    }
  });

  it('scales sizes for 720p and 16:9, and uses a box (BorderStyle 3) when asked', () => {
    const karaoke = getBuiltinTemplate('karaoke')!.captions;
    const ass = buildAss(edit({ resolution: '720p', layout: { aspect: '16:9', reframe: 'fit' }, captions: { words: words('a b'), style: karaoke } }))!;
    const { info, styles } = parseAss(ass);
    expect([info.PlayResX, info.PlayResY]).toEqual(['1280', '720']);
    const cap = styles[0];
    expect(Number(cap.Fontsize)).toBeCloseTo((karaoke.fontSize * 720) / 1080, 1);
    expect(cap.BorderStyle).toBe('3');
    expect(cap.OutlineColour).toBe(assColor(karaoke.box!.color));
  });

  it('escapes user text so it cannot inject tags, and adds the title event', () => {
    const title = getBuiltinTemplate('clean')!.title;
    const ass = buildAss(
      edit({
        captions: { words: [{ start: 11, end: 12, text: '{\\fs200}big' }], style: clean },
        title: { text: 'Why {this} works', style: { ...title, seconds: 3 } },
      }),
    )!;
    const { events } = parseAss(ass);
    const cap = events.find((e) => e.Style === 'Caption')!;
    expect(plain(cap.Text)).toBe('{\\fs200}big');
    expect(cap.Text).not.toContain('{\\fs200}');
    const t = events.find((e) => e.Style === 'Title')!;
    expect(plain(t.Text)).toBe('Why {this} works');
    expect([secondsOf(t.Start), secondsOf(t.End), t.Layer]).toEqual([0, 3, '1']);
  });

  it('is null without captions and title; a title alone still makes a script', () => {
    expect(buildAss(edit({ captions: null }))).toBeNull();
    const title = getBuiltinTemplate('clean')!.title;
    const ass = buildAss(edit({ captions: null, title: { text: 'Hook', style: { ...title, seconds: null } } }))!;
    const { events } = parseAss(ass);
    expect(events).toHaveLength(1);
    expect(secondsOf(events[0].End)).toBe(10);
  });
});
