import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Fonts for burned-in captions, titles and the watermark. They are OFL .ttf files shipped in npm
 * packages (@expo-google-fonts/*); `prepareFontsDir` copies them into one folder that ffmpeg's `ass`
 * filter gets as `fontsdir`. libass draws nothing and reports nothing when a family is missing (or
 * silently substitutes whatever fontconfig finds), so `verifyFonts` reads the family names inside
 * every .ttf of the folder and fails before rendering when a family the script asks for is absent.
 */

export interface ShippedFont {
  /** The family name inside the file (name ID 1), which is what an ASS `Fontname` must say. */
  family: string;
  /** npm package and the file's path inside it. */
  pkg: string;
  file: string;
}

export const SHIPPED_FONTS: readonly ShippedFont[] = [
  { family: 'Anton', pkg: '@expo-google-fonts/anton', file: '400Regular/Anton_400Regular.ttf' },
  { family: 'Montserrat ExtraBold', pkg: '@expo-google-fonts/montserrat', file: '800ExtraBold/Montserrat_800ExtraBold.ttf' },
  { family: 'Inter SemiBold', pkg: '@expo-google-fonts/inter', file: '600SemiBold/Inter_600SemiBold.ttf' },
  { family: 'Inter ExtraBold', pkg: '@expo-google-fonts/inter', file: '800ExtraBold/Inter_800ExtraBold.ttf' },
];

/** The watermark's font (drawtext needs a file, not a family). */
export const WATERMARK_FONT_FAMILY = 'Inter ExtraBold';

export class FontMissingError extends Error {
  readonly error_code = 'RENDER_FONT_MISSING';
  constructor(
    message: string,
    readonly families: string[],
  ) {
    super(message);
    this.name = 'FontMissingError';
  }
}

const require = createRequire(import.meta.url);

/** Absolute path of a shipped font inside node_modules. */
export function shippedFontPath(font: ShippedFont): string {
  const pkgJson = require.resolve(`${font.pkg}/package.json`);
  return path.join(path.dirname(pkgJson), font.file);
}

function readUtf16be(buf: Buffer): string {
  let s = '';
  for (let i = 0; i + 1 < buf.length; i += 2) s += String.fromCharCode(buf.readUInt16BE(i));
  return s;
}

/**
 * The names libass matches a `Fontname` against: family (ID 1), full name (ID 4), PostScript name
 * (ID 6) and typographic family (ID 16), from a TrueType/OpenType file. Throws when the file is not
 * a single sfnt font.
 */
export function readFontNames(data: Buffer): { family: string[]; full: string[]; postscript: string[] } {
  const tag = data.toString('latin1', 0, 4);
  if (data.length < 12 || !(tag === '\u0000\u0001\u0000\u0000' || tag === 'OTTO' || tag === 'true')) throw new Error('not a TrueType/OpenType font');
  const numTables = data.readUInt16BE(4);
  let nameOffset = -1;
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    if (rec + 16 > data.length) break;
    if (data.toString('latin1', rec, rec + 4) === 'name') nameOffset = data.readUInt32BE(rec + 8);
  }
  if (nameOffset < 0 || nameOffset + 6 > data.length) throw new Error('font has no name table');
  const count = data.readUInt16BE(nameOffset + 2);
  const strings = nameOffset + data.readUInt16BE(nameOffset + 4);
  const out = { family: new Set<string>(), full: new Set<string>(), postscript: new Set<string>() };
  for (let i = 0; i < count; i++) {
    const r = nameOffset + 6 + 12 * i;
    if (r + 12 > data.length) break;
    const platform = data.readUInt16BE(r);
    const id = data.readUInt16BE(r + 6);
    const len = data.readUInt16BE(r + 8);
    const off = strings + data.readUInt16BE(r + 10);
    if (off + len > data.length) continue;
    const raw = data.subarray(off, off + len);
    const text = (platform === 1 ? raw.toString('latin1') : readUtf16be(raw)).trim();
    if (!text) continue;
    if (id === 1 || id === 16) out.family.add(text);
    else if (id === 4) out.full.add(text);
    else if (id === 6) out.postscript.add(text);
  }
  return { family: [...out.family], full: [...out.full], postscript: [...out.postscript] };
}

export interface FontsDirIndex {
  /** Lower-cased name (family, full or PostScript) -> absolute file path. */
  byName: Map<string, string>;
  files: string[];
}

/** Reads every .ttf/.otf in `dir` and indexes the names inside them. Unreadable files are skipped. */
export function indexFontsDir(dir: string): FontsDirIndex {
  const byName = new Map<string, string>();
  const files: string[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return { byName, files };
  }
  for (const e of entries.sort()) {
    if (!/\.(ttf|otf)$/i.test(e)) continue;
    const file = path.join(dir, e);
    try {
      const names = readFontNames(fs.readFileSync(file));
      files.push(file);
      for (const n of [...names.family, ...names.full, ...names.postscript]) {
        if (!byName.has(n.toLowerCase())) byName.set(n.toLowerCase(), file);
      }
    } catch {
      // not a usable font: it cannot satisfy a family
    }
  }
  return { byName, files };
}

/**
 * Checks that `dir` holds a font for each family; returns family -> file. Throws FontMissingError
 * (error_code RENDER_FONT_MISSING) naming every missing family.
 */
export function verifyFonts(dir: string, families: readonly string[]): Map<string, string> {
  const index = indexFontsDir(dir);
  const found = new Map<string, string>();
  const missing: string[] = [];
  for (const f of families) {
    const file = index.byName.get(f.toLowerCase());
    if (file) found.set(f, file);
    else missing.push(f);
  }
  if (missing.length) {
    throw new FontMissingError(`fonts missing in ${dir}: ${missing.join(', ')} (run prepareFontsDir, or add the .ttf files)`, missing);
  }
  return found;
}

/**
 * Copies the shipped fonts (default: all of them) into `dir` (created when needed; files already
 * there with the same size are kept) and verifies them. Returns family -> file in `dir`.
 */
export function prepareFontsDir(dir: string, families: readonly string[] = SHIPPED_FONTS.map((f) => f.family)): Map<string, string> {
  fs.mkdirSync(dir, { recursive: true });
  for (const family of families) {
    const font = SHIPPED_FONTS.find((f) => f.family.toLowerCase() === family.toLowerCase());
    if (!font) throw new FontMissingError(`no shipped font for family ${family}`, [family]);
    let src: string;
    try {
      src = shippedFontPath(font);
    } catch {
      throw new FontMissingError(`font package ${font.pkg} is not installed (npm install)`, [family]);
    }
    const dest = path.join(dir, path.basename(font.file));
    let srcSize: number;
    try {
      srcSize = fs.statSync(src).size;
    } catch {
      throw new FontMissingError(`font file ${src} is missing`, [family]);
    }
    let destSize = -1;
    try {
      destSize = fs.statSync(dest).size;
    } catch {
      // not copied yet
    }
    if (destSize !== srcSize) {
      const tmp = `${dest}.${process.pid}.tmp`;
      fs.copyFileSync(src, tmp);
      fs.renameSync(tmp, dest);
    }
  }
  return verifyFonts(dir, families);
}
