import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FontMissingError,
  prepareFontsDir,
  readFontNames,
  SHIPPED_FONTS,
  shippedFontPath,
  verifyFonts,
  WATERMARK_FONT_FAMILY,
} from '../../src/adapters/media/fonts.js';
import { BUILTIN_TEMPLATES, CAPTION_FONT_FAMILIES } from '../../src/domain/edits/caption-styles.js';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-fonts-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('shipped fonts', () => {
  it('every caption family and the watermark font is shipped, and each file really carries that family name', () => {
    const shipped = SHIPPED_FONTS.map((f) => f.family);
    for (const f of CAPTION_FONT_FAMILIES) expect(shipped).toContain(f);
    expect(shipped).toContain(WATERMARK_FONT_FAMILY);
    for (const t of BUILTIN_TEMPLATES) expect(shipped).toEqual(expect.arrayContaining([t.captions.fontFamily, t.title.fontFamily]));
    for (const font of SHIPPED_FONTS) {
      const names = readFontNames(fs.readFileSync(shippedFontPath(font)));
      expect(names.family).toContain(font.family);
    }
  });

  it('prepareFontsDir copies the .ttf files into one folder and verifies them', () => {
    const dir = tmp();
    const found = prepareFontsDir(dir);
    expect([...found.keys()].sort()).toEqual(SHIPPED_FONTS.map((f) => f.family).sort());
    for (const file of found.values()) expect(path.dirname(file)).toBe(dir);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.ttf'))).toHaveLength(SHIPPED_FONTS.length);
    // A second call keeps the files.
    const before = fs.statSync(found.get('Anton')!).mtimeMs;
    prepareFontsDir(dir);
    expect(fs.statSync(found.get('Anton')!).mtimeMs).toBe(before);
  });

  it('verifyFonts names the missing families (empty folder, missing folder, wrong family, broken file)', () => {
    const dir = tmp();
    const missing = (d: string, fams: string[]) => {
      try {
        verifyFonts(d, fams);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(FontMissingError);
        expect((err as FontMissingError).error_code).toBe('RENDER_FONT_MISSING');
        return (err as FontMissingError).families;
      }
    };
    expect(missing(dir, ['Anton'])).toEqual(['Anton']);
    expect(missing(path.join(dir, 'nope'), ['Anton', 'Inter SemiBold'])).toEqual(['Anton', 'Inter SemiBold']);
    prepareFontsDir(dir, ['Anton']);
    expect(missing(dir, ['Anton', 'Montserrat ExtraBold'])).toEqual(['Montserrat ExtraBold']);
    // Matching is case-insensitive, also on the full and PostScript names, as libass does.
    expect(missing(dir, ['anton', 'Anton-Regular'])).toEqual([]);
    // A file named like a font but not one does not count.
    fs.writeFileSync(path.join(dir, 'Inter_600SemiBold.ttf'), 'not a font');
    expect(missing(dir, ['Inter SemiBold'])).toEqual(['Inter SemiBold']);
  });

  it('readFontNames rejects what is not a font', () => {
    expect(() => readFontNames(Buffer.from('hello world, not a font'))).toThrow();
  });
});
