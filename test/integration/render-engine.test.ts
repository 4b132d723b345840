import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobePath } from '../../src/adapters/media/binaries.js';
import { prepareFontsDir } from '../../src/adapters/media/fonts.js';
import { RenderError, renderEdit } from '../../src/adapters/media/renderer.js';
import { makeEdit, type Edit } from '../../src/domain/edits/edit.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { makeVideo, runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * The render engine on real files: generated sources, the real renderer, checks with ffprobe, the
 * MP4 box order, and pixels of extracted frames (captions must really be visible: libass draws
 * nothing and says nothing when it cannot find a font).
 */

const FPS = 30;
const SENTENCE = 'so this is how we turn one long video into short clips that people actually watch';

let dir: string;
let fontsDir: string;
let src1080: string;
let srcSilent: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-render-'));
  // A folder name with the characters that need escaping inside a filter graph.
  fontsDir = path.join(dir, "fonts, it's: [odd]");
  prepareFontsDir(fontsDir);
  src1080 = await makeVideo(path.join(dir, 'src1080.mp4'), { seconds: 6, width: 1920, height: 1080, fps: FPS });
  srcSilent = await makeVideo(path.join(dir, 'silent.mp4'), { seconds: 4, width: 640, height: 360, fps: FPS, audio: false });
}, 180_000);

afterAll(() => {
  // KEEP_RENDER_TEST_FILES=1 keeps the renders and frame PNGs for a person to look at.
  if (process.env.KEEP_RENDER_TEST_FILES) console.log(`render test files kept in ${dir}`);
  else if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function words(startAt: number, step = 0.4) {
  return SENTENCE.split(' ').map((text, i) => ({ start: startAt + i * step, end: startAt + i * step + step * 0.9, text }));
}

function edit1080(over: Partial<Edit> = {}): Edit {
  return makeEdit({
    source: { key: 'src1080.mp4', duration: 6, width: 1920, height: 1080 },
    in: 1,
    out: 5,
    layout: { aspect: '9:16', reframe: 'center' },
    captions: { words: words(1), style: getBuiltinTemplate('bold-pop')!.captions },
    watermark: false,
    resolution: '1080p',
    ...over,
  });
}

interface Probed {
  streams: Array<Record<string, string | number>>;
  format: Record<string, string | number>;
}

function ffprobeJson(file: string): Promise<Probed> {
  const bin = ffprobePath();
  return new Promise((resolve, reject) => {
    execFile(bin, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { env: process.env }, (err, out) =>
      err ? reject(err) : resolve(JSON.parse(out)),
    );
  });
}

/** Types of the top-level MP4 boxes, in file order. */
function topLevelBoxes(file: string): string[] {
  const buf = fs.readFileSync(file);
  const out: string[] = [];
  let off = 0;
  while (off + 8 <= buf.length) {
    let size = buf.readUInt32BE(off);
    out.push(buf.toString('latin1', off + 4, off + 8));
    if (size === 1) size = Number(buf.readBigUInt64BE(off + 8));
    if (size === 0) break;
    off += size;
  }
  return out;
}

/** One frame at `t` as a PNG (kept for a person to look at) and as 8-bit grey pixels. */
async function frameAt(video: string, t: number, name: string): Promise<{ png: string; gray: Buffer }> {
  const png = path.join(dir, `${name}.png`);
  const raw = path.join(dir, `${name}.gray`);
  await runFfmpeg(['-ss', String(t), '-i', video, '-frames:v', '1', png]);
  await runFfmpeg(['-i', png, '-f', 'rawvideo', '-pix_fmt', 'gray', raw]);
  return { png, gray: fs.readFileSync(raw) };
}

interface Rect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Mean absolute difference and share of pixels differing by more than 40, inside `r`. */
function diff(a: Buffer, b: Buffer, width: number, r: Rect): { mean: number; changed: number } {
  let sum = 0;
  let changed = 0;
  for (let y = r.y0; y < r.y1; y++) {
    for (let x = r.x0; x < r.x1; x++) {
      const d = Math.abs(a[y * width + x] - b[y * width + x]);
      sum += d;
      if (d > 40) changed++;
    }
  }
  const n = (r.y1 - r.y0) * (r.x1 - r.x0);
  return { mean: sum / n, changed: changed / n };
}

describe('renderEdit', () => {
  const captioned = () => path.join(dir, 'captioned.mp4');
  const progress: number[] = [];
  let rendering: ReturnType<typeof renderEdit> | undefined;
  /** The captioned 1080x1920 render, shared by the tests that need it (made once, by whichever runs first). */
  const renderCaptioned = () =>
    (rendering ??= renderEdit(edit1080(), { inputPath: src1080, outputPath: captioned(), fontsDir, onProgress: (p) => progress.push(p) }));

  it('renders a 1920x1080 source to a 1080x1920 H.264 High / AAC MP4 with faststart, of the edit length', async () => {
    const res = await renderCaptioned();
    expect(res.outputPath).toBe(captioned());
    expect([res.width, res.height]).toEqual([1080, 1920]);
    expect(res.sourceHadAudio).toBe(true);

    const info = await ffprobeJson(captioned());
    const v = info.streams.find((s) => s.codec_type === 'video')!;
    const a = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(v.codec_name).toBe('h264');
    expect(v.profile).toBe('High');
    expect(v.pix_fmt).toBe('yuv420p');
    expect([v.width, v.height]).toEqual([1080, 1920]);
    expect(Math.abs(Number(v.duration) - 4)).toBeLessThanOrEqual(1 / FPS + 1e-3);
    expect(Math.abs(Number(info.format.duration) - 4)).toBeLessThanOrEqual(1 / FPS + 1e-3);
    expect(a.codec_name).toBe('aac');
    expect(Number(a.sample_rate)).toBe(48000);
    expect(Number(a.channels)).toBe(2);

    const boxes = topLevelBoxes(captioned());
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(100);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
    expect(progress.length).toBeGreaterThan(2);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  }, 180_000);

  it('captions are visible: the caption region differs from the same render without captions, the rest does not', async () => {
    await renderCaptioned();
    const plain = path.join(dir, 'plain.mp4');
    await renderEdit(edit1080({ captions: null }), { inputPath: src1080, outputPath: plain, fontsDir });
    // Clip time 1.0 = source 2.0: the third word is spoken, the first page is up.
    const withCaps = await frameAt(captioned(), 1.0, 'frame-captions');
    const without = await frameAt(plain, 1.0, 'frame-plain');
    expect(withCaps.gray.length).toBe(1080 * 1920);
    // bold-pop sits at the bottom, 24 % up: its two centred lines fall inside rows 1180..1480,
    // columns 300..780 ("SO THIS IS" / "HOW WE TURN").
    const region = diff(withCaps.gray, without.gray, 1080, { x0: 300, x1: 780, y0: 1180, y1: 1480 });
    const above = diff(withCaps.gray, without.gray, 1080, { x0: 0, x1: 1080, y0: 0, y1: 1000 });
    if (process.env.KEEP_RENDER_TEST_FILES) console.log({ region, above });
    expect(region.changed).toBeGreaterThan(0.08);
    expect(region.mean).toBeGreaterThan(20);
    expect(above.mean).toBeLessThan(1.5);
    expect(above.changed).toBeLessThan(0.002);
  }, 180_000);

  it('gives a source without audio a silent AAC track; fit layout at 720p', async () => {
    const out = path.join(dir, 'silent-out.mp4');
    const edit = makeEdit({
      source: { key: 'silent.mp4', duration: 4, width: 640, height: 360 },
      in: 0.5,
      out: 3.5,
      layout: { aspect: '9:16', reframe: 'fit' },
      captions: { words: words(0.5), style: getBuiltinTemplate('karaoke')!.captions },
      title: { text: 'A silent clip', style: getBuiltinTemplate('karaoke')!.title },
      watermark: true,
      resolution: '720p',
    });
    const res = await renderEdit(edit, { inputPath: srcSilent, outputPath: out, fontsDir });
    expect(res.sourceHadAudio).toBe(false);
    const info = await ffprobeJson(out);
    const v = info.streams.find((s) => s.codec_type === 'video')!;
    const a = info.streams.find((s) => s.codec_type === 'audio');
    expect([v.width, v.height]).toEqual([720, 1280]);
    expect(a?.codec_name).toBe('aac');
    expect(Math.abs(Number(info.format.duration) - 3)).toBeLessThanOrEqual(1 / FPS + 1e-3);
  }, 120_000);

  it('speaker reframe follows a crop path frame by frame', async () => {
    // A still horizontal gradient (video-range luma 16 + 219 * x / width, so 255 * x / width once
    // decoded to full-range grey): the crop's mean brightness tells where the crop is.
    const gradient = path.join(dir, 'gradient.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=black:size=640x360:rate=30',
      '-vf',
      "geq=lum='16+219*X/W':cb=128:cr=128,format=yuv420p",
      '-t',
      '4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-qp',
      '0',
      gradient,
    ]);
    const out = path.join(dir, 'speaker.mp4');
    // A 202x360 window sliding from the left edge to the right edge.
    const cropPath = [
      { t: 0, x: 0, y: 0, w: 202, h: 360 },
      { t: 4, x: 438, y: 0, w: 202, h: 360 },
    ];
    const edit = makeEdit({
      source: { key: 'gradient.mp4', duration: 4, width: 640, height: 360 },
      in: 0,
      out: 4,
      layout: { aspect: '9:16', reframe: 'speaker', cropPath },
      captions: null,
      watermark: false,
      resolution: '720p',
    });
    const res = await renderEdit(edit, { inputPath: gradient, outputPath: out, fontsDir });
    expect(res.command.filterComplex).toContain("crop=w=202:h=360:x='");
    const info = await ffprobeJson(out);
    const v = info.streams.find((s) => s.codec_type === 'video')!;
    expect([v.width, v.height]).toEqual([720, 1280]);
    const mean = (b: Buffer) => b.reduce((a, x) => a + x, 0) / b.length;
    // Expected mean: 255 * (x + w / 2) / 640 for the crop's x at that time.
    for (const t of [0, 2, 3.9]) {
      const x = (438 * t) / 4;
      const expected = (255 * (x + 101)) / 640;
      const { gray } = await frameAt(out, t, `speaker-${t}`);
      expect(Math.abs(mean(gray) - expected)).toBeLessThan(6);
    }
  }, 120_000);
});

describe('renderEdit failures', () => {
  async function failure(p: Promise<unknown>): Promise<RenderError> {
    try {
      await p;
    } catch (err) {
      expect(err).toBeInstanceOf(RenderError);
      return err as RenderError;
    }
    throw new Error('expected a RenderError');
  }

  it('detects a missing font before running ffmpeg', async () => {
    const empty = fs.mkdtempSync(path.join(dir, 'nofonts-'));
    const out = path.join(dir, 'nofont.mp4');
    const err = await failure(renderEdit(edit1080(), { inputPath: src1080, outputPath: out, fontsDir: empty }));
    expect(err.error_code).toBe('RENDER_FONT_MISSING');
    expect(err.detail).toEqual(['Anton']);
    expect(fs.existsSync(out)).toBe(false);
    // Without captions, title and watermark no font is needed.
    await renderEdit(edit1080({ captions: null, out: 1.5 }), { inputPath: src1080, outputPath: out, fontsDir: empty });
    expect(fs.existsSync(out)).toBe(true);
  }, 60_000);

  it('SOURCE_UNREADABLE for a file that is not media, or shorter than the edit', async () => {
    const junk = path.join(dir, 'junk.mp4');
    fs.writeFileSync(junk, 'this is not a video');
    const e1 = await failure(renderEdit(edit1080(), { inputPath: junk, outputPath: path.join(dir, 'x.mp4'), fontsDir }));
    expect(e1.error_code).toBe('SOURCE_UNREADABLE');
    const e2 = await failure(
      renderEdit(edit1080({ source: { key: 'k', duration: 60, width: 1920, height: 1080 }, out: 30 }), {
        inputPath: src1080,
        outputPath: path.join(dir, 'x.mp4'),
        fontsDir,
      }),
    );
    expect(e2.error_code).toBe('SOURCE_UNREADABLE');
  }, 60_000);

  it('EDIT_INVALID for an edit that fails validation', async () => {
    const bad = { ...edit1080(), out: 0.5 } as Edit;
    const err = await failure(renderEdit(bad, { inputPath: src1080, outputPath: path.join(dir, 'x.mp4'), fontsDir }));
    expect(err.error_code).toBe('EDIT_INVALID');
  });

  it('RENDER_ABORTED when the signal fires; nothing is left behind', async () => {
    const out = path.join(dir, 'aborted.mp4');
    const ac = new AbortController();
    const p = renderEdit(edit1080(), { inputPath: src1080, outputPath: out, fontsDir, signal: ac.signal, onProgress: (pct) => pct > 0 && ac.abort() });
    setTimeout(() => ac.abort(), 3000);
    const err = await failure(p);
    expect(err.error_code).toBe('RENDER_ABORTED');
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  }, 60_000);
});
