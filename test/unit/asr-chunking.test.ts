import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shiftResult, spreadWords } from '../../src/adapters/asr/asr-result.js';
import { mapLimit, planChunks, stitchResults, transcribeLong, withChunking } from '../../src/adapters/asr/chunking.js';
import { groupUtterances, planUtterances } from '../../src/adapters/asr/utterances.js';
import { frameLevels, readWavInfo, wavHeader } from '../../src/adapters/asr/wav.js';
import { AsrError, type AsrEngine, type AsrResult, type AsrTranscribeOptions } from '../../src/ports/asr.js';

const FRAME = 0.01;

/** Loudness track: `seconds` of speech at -20 dB with quieter stretches [start, end, dB]. */
function levels(seconds: number, quiet: Array<[number, number, number]>): Float32Array {
  const out = new Float32Array(Math.round(seconds / FRAME)).fill(-20);
  for (const [a, b, db] of quiet) for (let f = Math.round(a / FRAME); f < Math.round(b / FRAME); f++) out[f] = db;
  return out;
}

describe('planChunks', () => {
  it('keeps short audio whole', () => {
    expect(planChunks(levels(100, []), FRAME)).toEqual([{ start: 0, end: 100 }]);
    expect(planChunks(levels(120, []), FRAME)).toEqual([{ start: 0, end: 120 }]);
  });

  it('cuts inside silences between min and max length, contiguous and covering everything', () => {
    const quiet: Array<[number, number, number]> = [
      [50, 51, -90],
      [85, 86, -90],
      [150, 151, -90],
      [230, 231, -90],
    ];
    const spans = planChunks(levels(300, quiet), FRAME);
    expect(spans.map((s) => Math.floor(s.start))).toEqual([0, 85, 150, 230]);
    expect(spans[0].start).toBe(0);
    expect(spans[spans.length - 1].end).toBe(300);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i].start).toBe(spans[i - 1].end);
      // the cut is well inside the 1 s silence, not at its edge
      const q = quiet.find(([a, b]) => spans[i].start > a && spans[i].start < b)!;
      expect(spans[i].start - q[0]).toBeGreaterThanOrEqual(0.25);
      expect(q[1] - spans[i].start).toBeGreaterThanOrEqual(0.24);
    }
    for (const s of spans) expect(s.end - s.start).toBeLessThanOrEqual(120);
  });

  it('prefers the quietest place, and among equal silences the one nearest the target', () => {
    // a real silence far from the target beats a shallow dip at the target
    const a = planChunks(
      levels(200, [
        [61, 62, -70],
        [90, 91, -35],
      ]),
      FRAME,
    );
    expect(a[1].start).toBeGreaterThan(61);
    expect(a[1].start).toBeLessThan(62);
    // two equal silences: 100 s is nearer the 90 s target than 65 s
    const b = planChunks(
      levels(200, [
        [65, 66, -80],
        [100, 101, -80],
      ]),
      FRAME,
    );
    expect(b[1].start).toBeGreaterThan(100);
    expect(b[1].start).toBeLessThan(101);
    // below the silence floor all silences are equal: digital zero does not beat the nearer one
    const c = planChunks(
      levels(200, [
        [62, 63, -100],
        [95, 96, -65],
      ]),
      FRAME,
    );
    expect(c[1].start).toBeGreaterThan(95);
  });

  it('cuts at the target when there is no silence at all, never past the max', () => {
    const spans = planChunks(levels(400, []), FRAME, { maxChunkSeconds: 100, minChunkSeconds: 50, targetChunkSeconds: 80 });
    expect(spans.map((s) => s.start)).toEqual([0, 80, 160, 240, 320]);
    expect(spans[spans.length - 1].end).toBe(400);
  });

  it('honours the options and refuses a bad max', () => {
    const spans = planChunks(levels(100, [[25, 26, -90]]), FRAME, { maxChunkSeconds: 30, minChunkSeconds: 20 });
    expect(spans[1].start).toBeGreaterThan(25);
    for (const s of spans) expect(s.end - s.start).toBeLessThanOrEqual(30 + 1e-9);
    expect(() => planChunks(levels(10, []), FRAME, { maxChunkSeconds: 0 })).toThrow(RangeError);
  });
});

describe('stitching helpers', () => {
  it('shifts a chunk result into absolute time', () => {
    const words = spreadWords('hello there', 1, 2);
    const r: AsrResult = { language: 'en', words, segments: [{ start: 1, end: 2, text: 'hello there', words }] };
    const s = shiftResult(r, 90.5);
    expect(s.segments[0]).toMatchObject({ start: 91.5, end: 92.5 });
    expect(s.words.map((w) => w.start)).toEqual([91.5, 92]);
    expect(s.words[1].end).toBe(92.5);
  });

  it('stitches in order and reports the language', () => {
    const part = (t: number, lang: string): AsrResult => {
      const words = [{ start: t, end: t + 1, text: `w${t}` }];
      return { language: lang, words, segments: [{ start: t, end: t + 1, text: `w${t}`, words }] };
    };
    const r = stitchResults([part(0, 'de'), part(100, 'de')]);
    expect(r.words.map((w) => w.text)).toEqual(['w0', 'w100']);
    expect(r.language).toBe('de');
    expect(stitchResults([], 'fr').language).toBe('fr');
  });

  it('mapLimit keeps at most `limit` running and stops after a failure', async () => {
    let active = 0;
    let peak = 0;
    const out = await mapLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      return n * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12]);
    expect(peak).toBe(2);
    const started: number[] = [];
    await expect(
      mapLimit([1, 2, 3, 4, 5], 1, async (n) => {
        started.push(n);
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
    expect(started).toEqual([1, 2]);
  });
});

/** An engine that "hears" tone bursts: each loud run in its chunk becomes a word, in chunk-local time. */
class BurstEngine implements AsrEngine {
  readonly name = 'bursts';
  calls: Array<{ duration: number; language?: string }> = [];
  active = 0;
  peak = 0;
  supportsLanguage() {
    return true;
  }
  async transcribe(wav: string, opts: AsrTranscribeOptions): Promise<AsrResult> {
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      const info = await readWavInfo(wav);
      this.calls.push({ duration: info.duration, language: opts.language });
      const lv = await frameLevels(wav, info, FRAME);
      const words = [];
      for (let f = 0; f < lv.length; f++) {
        if (lv[f] > -40 && (f === 0 || lv[f - 1] <= -40)) {
          let g = f;
          while (g < lv.length && lv[g] > -40) g++;
          words.push({ start: f * FRAME, end: g * FRAME, text: `b${words.length}` });
        }
      }
      await new Promise((r) => setTimeout(r, 20));
      return { language: opts.language ?? 'fr', words, segments: words.map((w) => ({ start: w.start, end: w.end, text: w.text, words: [w] })) };
    } finally {
      this.active--;
    }
  }
}

describe('transcribeLong', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-chunk-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** 16 kHz WAV of `seconds` with 0.4 s bursts of a 440 Hz tone at `at` (seconds). */
  function burstWav(file: string, seconds: number, at: number[]) {
    const n = Math.round(seconds * 16000);
    const pcm = Buffer.alloc(n * 2);
    for (const t of at) {
      const a = Math.round(t * 16000);
      for (let i = a; i < Math.min(n, a + 6400); i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2);
    }
    fs.writeFileSync(file, Buffer.concat([wavHeader(pcm.length), pcm]));
  }

  it('transcribes chunk by chunk and puts every word back at its absolute time', async () => {
    const at = Array.from({ length: 60 }, (_, i) => 1 + i * 5.5); // up to 325.5 s
    const file = path.join(dir, 'bursts.wav');
    burstWav(file, 330, at);
    const engine = new BurstEngine();
    const tmpDir = path.join(dir, 'work');
    fs.mkdirSync(tmpDir);
    const r = await transcribeLong(engine, file, { maxChunkSeconds: 100, minChunkSeconds: 50, targetChunkSeconds: 75, tmpDir, concurrency: 2 });
    expect(engine.calls.length).toBeGreaterThanOrEqual(4);
    for (const c of engine.calls) expect(c.duration).toBeLessThanOrEqual(100);
    expect(r.words).toHaveLength(at.length);
    r.words.forEach((w, i) => {
      expect(Math.abs(w.start - at[i])).toBeLessThan(0.02);
      expect(Math.abs(w.end - (at[i] + 0.4))).toBeLessThan(0.02);
    });
    // detected language of the first chunk is used for the others
    expect(engine.calls[0].language).toBeUndefined();
    expect(engine.calls.slice(1).every((c) => c.language === 'fr')).toBe(true);
    expect(r.language).toBe('fr');
    expect(engine.peak).toBeLessThanOrEqual(2);
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  });

  it('passes short audio straight through and the asked language to every chunk', async () => {
    const file = path.join(dir, 'short.wav');
    burstWav(file, 30, [2, 10]);
    const engine = new BurstEngine();
    const chunked = withChunking(engine, { maxChunkSeconds: 60 });
    const r = await chunked.transcribe(file, { language: 'en' });
    expect(engine.calls).toEqual([{ duration: 30, language: 'en' }]);
    expect(r.words.map((w) => Math.round(w.start))).toEqual([2, 10]);
    expect(chunked.name).toBe('bursts');
  });

  it('refuses a WAV that is not 16 kHz mono 16-bit', async () => {
    const file = path.join(dir, 'stereo.wav');
    fs.writeFileSync(file, Buffer.concat([wavHeader(3200, 16000, 2, 16), Buffer.alloc(3200)]));
    const err = await transcribeLong(new BurstEngine(), file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AsrError);
    expect((err as AsrError).code).toBe('ASR_BAD_AUDIO');
  });
});

describe("planUtterances (the voice detector's segments as recogniser utterances)", () => {
  it('pads each segment by 0.1 s in 10 ms frames, never across a neighbour or outside the file', () => {
    const u = planUtterances(
      [
        { start: 0.05, end: 2.004 },
        { start: 2.1, end: 4 },
        { start: 6.5, end: 9.98 },
      ],
      10,
    );
    expect(u).toEqual([
      { id: 'u0000', first: 0, last: 205 },
      { id: 'u0001', first: 206, last: 410 },
      { id: 'u0002', first: 640, last: 1000 },
    ]);
    for (let i = 1; i < u.length; i++) expect(u[i].first).toBeGreaterThanOrEqual(u[i - 1].last);
  });

  it('splits a long segment at its quietest place, contiguous and exact', () => {
    const lv = levels(100, [[31, 31.5, -90]]);
    const u = planUtterances([{ start: 5, end: 65 }], 100, { maxSeconds: 30, levels: lv, padSeconds: 0 });
    expect(u.map((x) => [x.first, x.last])).toEqual([
      [500, u[0].last],
      [u[0].last, u[1].last],
      [u[1].last, 6500],
    ]);
    expect(u[0].last / 100).toBeGreaterThan(31);
    expect(u[0].last / 100).toBeLessThan(31.5);
    for (const x of u) expect(x.last - x.first).toBeLessThanOrEqual(3000);
    // without a loudness track: at the target length (3/4 of the maximum)
    expect(planUtterances([{ start: 0, end: 50 }], 50, { maxSeconds: 30, padSeconds: 0 }).map((x) => x.first)).toEqual([0, 2250]);
  });

  it('answers nothing without speech, and sorts what it is given', () => {
    expect(planUtterances([], 10)).toEqual([]);
    expect(
      planUtterances(
        [
          { start: 5, end: 6 },
          { start: 1, end: 2 },
        ],
        10,
        { padSeconds: 0 },
      ).map((x) => x.first),
    ).toEqual([100, 500]);
  });
});

describe('groupUtterances', () => {
  const utts = (lengths: number[]) => {
    let at = 0;
    return lengths.map((n, i) => {
      const u = { id: `u${i}`, first: at, last: at + n * 100 };
      at = u.last + 50;
      return u;
    });
  };

  it('shares consecutive utterances in runs of about equal length', () => {
    const g = groupUtterances(utts([5, 5, 5, 5, 5, 5, 5, 5]), 2);
    expect(g.map((x) => x.map((u) => u.id))).toEqual([
      ['u0', 'u1', 'u2', 'u3'],
      ['u4', 'u5', 'u6', 'u7'],
    ]);
    expect(groupUtterances(utts([20, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), 2).map((x) => x.length)).toEqual([1, 10]);
    expect(groupUtterances(utts([10, 10, 10, 10, 10, 10]), 3).map((x) => x.length)).toEqual([2, 2, 2]);
  });

  it('does not split short work, nor use more workers than utterances', () => {
    expect(groupUtterances(utts([3, 3, 3]), 4)).toHaveLength(1); // 9 s < 2 x 10 s
    expect(groupUtterances(utts([30]), 4)).toHaveLength(1);
    expect(groupUtterances([], 2)).toEqual([]);
  });
});
