import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { ffmpegPath } from '../../src/adapters/media/binaries.js';
import { prepareFontsDir } from '../../src/adapters/media/fonts.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { sampleFrames } from '../../src/adapters/media/frame-sampler.js';
import { measureLoudness } from '../../src/adapters/media/loudness.js';
import { renderEdit } from '../../src/adapters/media/renderer.js';
import { detectSceneCuts } from '../../src/adapters/media/scene-detect.js';
import { analyzeVideo } from '../../src/domain/analysis/video-analysis.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit, sourceFaces } from '../../src/domain/edits/clip-edit.js';
import { MIN_HOLD_SECONDS, MOUTH_REGION } from '../../src/domain/reframe/active-speaker.js';
import { storedAnalysis } from '../../src/domain/submissions/pipeline.js';
import type { RgbFrame } from '../../src/ports/face-detector.js';

/**
 * The active speaker on a real file: two synthetic faces side by side (a red bar under the left one,
 * a blue bar under the right one), each with a dark shape over its lips (found with the face mesh)
 * that opens and closes with its own voice's loudness, while two espeak-ng voices (`en+m3` for the
 * left face, `en+f3` for the right) alternate in turns of 3 to 6 s over about 36 s. The analysis runs
 * as the pipeline runs it, the clip is rendered with reframe `speaker`, and four rendered frames a
 * second are checked with the face detector: the face shown (told by the bar under it) is the one
 * whose voice is heard in at least 90 % of them, except during the documented ease of 0.6 s after each
 * change of turn; and no stretch of one face shown is shorter than the 1.2 s hysteresis.
 */

const exec = promisify(execFile);
const FACES = path.resolve('test/fixtures/faces');
const W = 960;
const H = 540;
const FPS = 15;
const RATE = 22050;
const FACE = 240;
const SPOTS = [
  { file: 'face-42.jpg', x: 110, y: 110, bar: [220, 30, 30] },
  { file: 'face-44.jpg', x: 610, y: 110, bar: [30, 60, 230] },
] as const;
const VOICES = ['en+m3', 'en+f3'];
const TURNS = [
  'Good morning, and thanks for having me on the show today.',
  'It is a pleasure. Tell us how the project started.',
  'We wanted a simple tool for cutting long videos into short clips that people actually watch.',
  'And who uses it now, and what do they make with it?',
  'Mostly small teams, podcasts and a few schools, for their weekly shows.',
  'What surprised you the most after the first release?',
  'That people cared about the captions more than anything else.',
  'Interesting. What comes next for you and the team?',
  'Better framing when two people talk, like the two of us right now.',
];
/** Allowed after each change of turn: the camera's ease (0.5 s) and a frame of margin. */
const EASE = 0.6;

let dir: string;
let video: string;
let turns: Array<{ start: number; voice: number }>;
let duration: number;
let detector: HumanFaceDetector;

function readWav(file: string): Float32Array {
  const buf = fs.readFileSync(file);
  let off = 12;
  while (off < buf.length - 8) {
    const id = buf.toString('ascii', off, off + 4);
    const size = buf.readUInt32LE(off + 4);
    if (id === 'data') {
      const n = Math.floor(Math.min(size, buf.length - off - 8) / 2);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = buf.readInt16LE(off + 8 + i * 2) / 32768;
      return out;
    }
    off += 8 + size + (size % 2);
  }
  throw new Error(`no data chunk in ${file}`);
}

function wavBytes(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32767))), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** The lips' centre and half-width (frame pixels) of each face of a frame, from the face mesh. */
async function lips(frame: RgbFrame): Promise<Array<{ cx: number; cy: number; half: number }>> {
  const mesher = await HumanFaceDetector.create({ mesh: true });
  try {
    const faces = await mesher.detectMesh(frame);
    return SPOTS.map((s) => {
      const f = faces.find((m) => m.mesh.length && Math.abs(m.box.x + m.box.width / 2 - (s.x + FACE / 2)) < FACE / 2);
      if (!f) throw new Error(`no mesh for ${s.file}`);
      const [l, r, up, down] = [61, 291, 13, 14].map((i) => f.mesh[i]);
      return { cx: (l[0] + r[0]) / 2, cy: (up[1] + down[1]) / 2, half: (r[0] - l[0]) / 2 };
    });
  } finally {
    await (mesher as unknown as { close(): Promise<void> }).close();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-active-speaker-'));
  // The voices, one turn after the other with a short pause, each on its own track.
  const parts: Array<{ voice: number; pcm: Float32Array }> = [];
  for (const [i, text] of TURNS.entries()) {
    const wav = path.join(dir, `turn-${i}.wav`);
    await exec('espeak-ng', ['-v', VOICES[i % 2], '-s', '150', '-w', wav, text]);
    parts.push({ voice: i % 2, pcm: readWav(wav) });
  }
  const pause = Math.round(0.4 * RATE);
  const total = parts.reduce((n, p) => n + p.pcm.length + pause, pause);
  const tracks = [new Float32Array(total), new Float32Array(total)];
  turns = [];
  let at = pause;
  for (const p of parts) {
    // A turn starts where its voice starts (espeak's own leading silence skipped).
    const lead = p.pcm.findIndex((v) => Math.abs(v) > 0.02);
    turns.push({ start: (at + Math.max(0, lead)) / RATE, voice: p.voice });
    tracks[p.voice].set(p.pcm, at);
    at += p.pcm.length + pause;
  }
  duration = total / RATE;
  const lengths = turns.map((t, i) => (turns[i + 1]?.start ?? duration) - t.start);
  expect(Math.min(...lengths)).toBeGreaterThanOrEqual(3);
  expect(Math.max(...lengths)).toBeLessThanOrEqual(6.5);
  const mix = new Float32Array(total);
  for (let i = 0; i < total; i++) mix[i] = tracks[0][i] + tracks[1][i];
  const audio = path.join(dir, 'voices.wav');
  fs.writeFileSync(audio, wavBytes(mix));

  // Each voice's loudness per video frame, 0..1 of its loud level.
  const frames = Math.ceil(duration * FPS);
  const hop = RATE / FPS;
  const envelopes = tracks.map((tr) => {
    const rms = Array.from({ length: frames }, (_, f) => {
      let s = 0;
      const a = Math.floor(f * hop);
      const b = Math.min(tr.length, Math.floor((f + 1) * hop));
      for (let i = a; i < b; i++) s += tr[i] * tr[i];
      return Math.sqrt(s / Math.max(1, b - a));
    });
    const loud = [...rms].sort((x, y) => x - y)[Math.floor(frames * 0.95)] || 1;
    return rms.map((v) => (v / loud < 0.08 ? 0 : Math.min(1, v / loud)));
  });

  // The still picture: a plain backdrop, the faces, a coloured bar under each.
  const overlays = await Promise.all(
    SPOTS.map(async (s) => ({ input: await sharp(path.join(FACES, s.file)).resize(FACE, FACE).toBuffer(), left: s.x, top: s.y })),
  );
  const base = new Uint8Array(
    await sharp({ create: { width: W, height: H, channels: 3, background: { r: 96, g: 104, b: 112 } } })
      .composite(overlays)
      .removeAlpha()
      .raw()
      .toBuffer(),
  );
  for (const s of SPOTS) {
    for (let y = s.y + FACE + 12; y < s.y + FACE + 36; y++) for (let x = s.x + 30; x < s.x + FACE - 30; x++) base.set(s.bar, (y * W + x) * 3);
  }
  const mouths = await lips({ width: W, height: H, data: Uint8Array.from(base) });

  // The video: each face's mouth, a dark ellipse over the lips, opens with its own voice.
  video = path.join(dir, 'two-speakers.mp4');
  const ff = spawn(
    ffmpegPath(),
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${W}x${H}`, '-r', String(FPS), '-i', 'pipe:0', '-i', audio],
      ...['-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '64k', '-shortest', video],
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  ff.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<number>((resolve) => ff.on('close', (code) => resolve(code ?? -1)));
  for (let f = 0; f < frames; f++) {
    const img = Buffer.from(base);
    mouths.forEach((m, k) => {
      const open = envelopes[k][f];
      if (open <= 0) return;
      const ry = 2 + open * m.half * 0.7;
      for (let y = Math.floor(m.cy - ry); y <= Math.ceil(m.cy + ry); y++)
        for (let x = Math.floor(m.cx - m.half); x <= Math.ceil(m.cx + m.half); x++) {
          const dx = (x - m.cx) / m.half;
          const dy = (y - m.cy) / ry;
          if (dx * dx + dy * dy <= 1) img.set([45, 18, 22], (y * W + x) * 3);
        }
    });
    if (!ff.stdin.write(img)) await new Promise((r) => ff.stdin.once('drain', r));
  }
  ff.stdin.end();
  expect(await done, stderr).toBe(0);
  detector = await HumanFaceDetector.create();
}, 300_000);

afterAll(async () => {
  await detector?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Which bar is under a face box: 0 (red, the left face), 1 (blue, the right face) or null; counts the bar's pixels below the box. */
function barUnder(f: RgbFrame, box: { x: number; y: number; width: number; height: number }): number | null {
  let red = 0;
  let blue = 0;
  const y0 = Math.round((box.y + box.height) * f.height);
  const y1 = Math.min(f.height, Math.round((box.y + box.height * 1.9) * f.height));
  for (let y = Math.max(0, y0); y < y1; y++)
    for (let x = Math.max(0, Math.round(box.x * f.width)); x < Math.min(f.width, Math.round((box.x + box.width) * f.width)); x++) {
      const [r, g, b] = f.data.subarray((y * f.width + x) * 3, (y * f.width + x) * 3 + 3);
      if (r > 160 && g < 90 && b < 90) red++;
      if (b > 160 && r < 90 && g < 120) blue++;
    }
  if (Math.max(red, blue) < 30) return null;
  return red > blue ? 0 : 1;
}

describe('the active speaker', () => {
  it('puts the mouth region of the detector box over the face mesh lips', async () => {
    const mesher = await HumanFaceDetector.create({ mesh: true });
    try {
      for (const file of ['face-42.jpg', 'face-44.jpg', 'face-45.jpg', 'face-49.jpg', 'face-53.jpg', 'face-55.jpg']) {
        for (const size of [200, 90]) {
          const face = await sharp(path.join(FACES, file)).resize(size, size).toBuffer();
          const data = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 128, g: 128, b: 128 } } })
            .composite([{ input: face, left: 200, top: 80 }])
            .removeAlpha()
            .raw()
            .toBuffer();
          const [box] = await detector.detect({ width: 640, height: 360, data: new Uint8Array(data) });
          const [mesh] = await mesher.detectMesh({ width: 640, height: 360, data: new Uint8Array(data) });
          expect(box && mesh?.mesh.length, file).toBeTruthy();
          // The outer lip contour, relative to the detector's box.
          for (const i of [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 185, 40, 39, 37, 0, 267, 269, 270, 409]) {
            const rx = (mesh.mesh[i][0] / 640 - box.x) / box.width;
            const ry = (mesh.mesh[i][1] / 360 - box.y) / box.height;
            expect(rx, `${file} ${size} x of ${i}`).toBeGreaterThanOrEqual(MOUTH_REGION.left);
            expect(rx, `${file} ${size} x of ${i}`).toBeLessThanOrEqual(MOUTH_REGION.right);
            expect(ry, `${file} ${size} y of ${i}`).toBeGreaterThanOrEqual(MOUTH_REGION.top);
            expect(ry, `${file} ${size} y of ${i}`).toBeLessThanOrEqual(MOUTH_REGION.bottom);
          }
        }
      }
    } finally {
      await mesher.close();
    }
  }, 120_000);

  it('frames the face whose voice is heard, switching only after a turn of 1.2 s', async () => {
    const range = { start: 0, end: Math.floor(duration * 1000) / 1000 };
    const analysed = await analyzeVideo(video, { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector }, { range, fps: 1 });
    // The stored analysis (as the pipeline keeps it) carries the mouths.
    const stored = JSON.parse(JSON.stringify(storedAnalysis(analysed, range))) as Parameters<typeof sourceFaces>[0] & {
      faces: Array<{ boxes: Array<{ mouth?: number }> }>;
    };
    expect(stored.faces.filter((s) => s.boxes.length === 2 && s.boxes.every((b) => b.mouth !== undefined)).length).toBeGreaterThan(30);
    const start = 1;
    const end = Math.floor(duration) - 1;
    const tpl = getBuiltinTemplate('bold-pop')!;
    const edit = buildClipEdit({
      source: { key: 'k', duration, width: W, height: H },
      start,
      end,
      words: [],
      cropPath9x16: analysed.cropPath9x16,
      faces: sourceFaces(stored),
      template: { captions: tpl.captions, layout: { ...tpl.layout, aspect: '9:16', reframe: 'speaker' } },
      watermark: false,
    });
    // `auto` frames the two faces talking in turns with the same active speaker.
    const auto = buildClipEdit({
      source: { key: 'k', duration, width: W, height: H },
      start,
      end,
      words: [],
      cropPath9x16: analysed.cropPath9x16,
      faces: sourceFaces(stored),
      template: { captions: tpl.captions, layout: { ...tpl.layout, aspect: '9:16', reframe: 'auto' } },
      watermark: false,
    });
    expect(auto.layout.shots?.map((s) => s.reframe)).toEqual(['speaker']);
    expect(auto.layout.cropPath).toEqual(edit.layout.cropPath);
    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const out = path.join(dir, 'speaker.mp4');
    await renderEdit(edit, { inputPath: video, outputPath: out, fontsDir, quality: 'preview' });
    const info = await probe(out);
    expect(info).toMatchObject({ width: 360, height: 640 });

    const heard = (t: number) => [...turns].reverse().find((x) => x.start <= t)?.voice ?? turns[0].voice;
    const shown: Array<{ t: number; face: number | null }> = [];
    for await (const f of sampleFrames(out, { fps: 4, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      const t = start + f.t;
      const [box] = (await detector.detect(f)).filter((b) => b.score > 0.5);
      const face = box ? barUnder(f, box) : null;
      shown.push({ t, face });
    }
    expect(shown.length).toBeGreaterThanOrEqual((end - start) * 4 - 2);
    const judged = shown.filter(({ t }) => !turns.some((x, i) => i > 0 && t >= x.start && t < x.start + EASE));
    const right = judged.filter(({ t, face }) => face === heard(t));
    expect(right.length / judged.length).toBeGreaterThanOrEqual(0.9);
    // Stretches of one face shown (frames without a known face continue the stretch before them).
    const runs: Array<{ face: number; start: number }> = [];
    for (const s of shown) if (s.face !== null && s.face !== runs[runs.length - 1]?.face) runs.push({ face: s.face, start: s.t });
    expect(runs.length).toBeGreaterThanOrEqual(turns.filter((x) => x.start > start && x.start < end).length);
    for (let i = 1; i < runs.length - 1; i++)
      expect(runs[i + 1].start - runs[i].start, `stretch at ${runs[i].start}`).toBeGreaterThanOrEqual(MIN_HOLD_SECONDS - 0.25);
  }, 300_000);
});
