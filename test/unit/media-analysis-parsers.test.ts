import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs, createLineSplitter, createProgressParser, localInputArgs, type FfmpegProgress } from '../../src/adapters/media/ffmpeg-run.js';
import { normalizeCuts, parseSceneCuts, parseShowinfoTime, sceneDetectArgs } from '../../src/adapters/media/scene-detect.js';
import { loudnessArgs, loudnessPerSecond, parseEbur128Line, parseLoudness, SILENCE_LUFS } from '../../src/adapters/media/loudness.js';
import { frameSamplerArgs, prefetch, readFrames, sampleSize } from '../../src/adapters/media/frame-sampler.js';
import { fromLetterbox, humanConfig, toFaceBox } from '../../src/adapters/faces/human.face-detector.js';

/** A local input read with the mov demuxer (what localMedia() answers for an MP4). */
const mov = (p: string) => ({ path: p, format: 'mov' as const });

// Captured from the npm-shipped ffmpeg (N-47683, 2018) on a generated testsrc/red/mandelbrot video.
const SHOWINFO_STDERR = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'scenes.mp4':
    Stream #0:0(und): Video: wrapped_avframe, rgb24, 160x90 [SAR 1:1 DAR 16:9], q=2-31, 200 kb/s, 25 fps, 25 tbn, 25 tbc (default)
[Parsed_showinfo_2 @ 0x1dcac340] config in time_base: 1/12800, frame_rate: 25/1
[Parsed_showinfo_2 @ 0x1dcac340] n:   0 pts:  38400 pts_time:3       pos:    53065 fmt:rgb24 sar:1/1 s:160x90 i:P iskey:0 type:P checksum:F2B12AE9 plane_checksum:[F2B12AE9] mean:[84 ] stdev:[118.3 ]
[Parsed_showinfo_2 @ 0x1dcac340] color_range:tv color_space:unknown color_primaries:unknown color_trc:unknown
[Parsed_showinfo_2 @ 0x1dcac340] n:   1 pts:  64000 pts_time:5.04    pos:    66988 fmt:rgb24 sar:1/1 s:160x90 i:P iskey:0 type:P checksum:78B9389D plane_checksum:[78B9389D] mean:[160 ] stdev:[63.7 ]
[Parsed_showinfo_2 @ 0x1dcac340] color_range:tv color_space:unknown color_primaries:unknown color_trc:unknown
frame=    2 fps=0.0 q=-0.0 Lsize=N/A time=00:00:05.04 bitrate=N/A speed=55.3x
video:1kB audio:0kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown`;

const EBUR128_STDERR = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'scenes.mp4':
[Parsed_ebur128_0 @ 0x19550400] t: 0.0999792  TARGET:-23 LUFS    M:-120.7 S:-120.7     I: -70.0 LUFS       LRA:   0.0 LU
[Parsed_ebur128_0 @ 0x19550400] t: 0.499979   TARGET:-23 LUFS    M: -47.8 S:-120.7     I: -47.8 LUFS       LRA:   0.0 LU
[Parsed_ebur128_0 @ 0x19550400] t: 0.999979   TARGET:-23 LUFS    M: -47.8 S:-120.7     I: -47.8 LUFS       LRA:   0.0 LU
[Parsed_ebur128_0 @ 0x19550400] t: 1.09998    TARGET:-23 LUFS    M: -21.8 S: -28.2     I: -23.0 LUFS       LRA:  19.6 LU
[Parsed_ebur128_0 @ 0x19550400] t: 1.99998    TARGET:-23 LUFS    M: -21.8 S: -26.6     I: -22.6 LUFS       LRA:  20.7 LU
[Parsed_ebur128_0 @ 0x19550400] t: 3.49998    TARGET:-23 LUFS    M: -47.8 S: -29.4     I: -22.6 LUFS       LRA:   6.1 LU
[Parsed_ebur128_0 @ 0x19550400] Summary:

  Integrated loudness:
    I:         -22.6 LUFS
    Threshold: -32.8 LUFS`;

describe('ffmpeg runner helpers', () => {
  it('puts the global flags and fd-3 progress before the caller arguments', () => {
    expect(buildFfmpegArgs(['-i', 'x'])).toEqual(['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-progress', 'pipe:3', '-i', 'x']);
    expect(buildFfmpegArgs(['-i', 'x'], { logLevel: 'info', progress: false })).toEqual([
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-loglevel',
      'info',
      '-i',
      'x',
    ]);
  });

  it('reads local inputs through the file protocol only', () => {
    const args = localInputArgs(mov('-odd:name.mp4'));
    expect(args.slice(0, 2)).toEqual(['-protocol_whitelist', 'file']);
    expect(args.slice(-4, -1)).toEqual(['-f', 'mov', '-i']);
    expect(args[args.length - 1]).toMatch(/^file:\/.*\/-odd:name\.mp4$/);
  });

  it('turns -progress blocks into fractions of the duration, across chunk boundaries', () => {
    const seen: FfmpegProgress[] = [];
    const push = createProgressParser(10, (p) => seen.push(p));
    push('frame=10\nout_time_us=N/A\nout_time_ms=N/A\nspeed=N/A\nprogress=continue\nframe=25\nout_time');
    push('_us=2500000\nout_time_ms=2500000\nspeed= 4.5x\nprogress=cont');
    push('inue\nout_time_us=20000000\nspeed=10x\nprogress=end\n');
    expect(seen).toEqual([
      { fraction: 0, outTimeSeconds: 0, done: false },
      { fraction: 0.25, outTimeSeconds: 2.5, speed: 4.5, done: false },
      { fraction: 1, outTimeSeconds: 20, speed: 10, done: true },
    ]);
  });

  it('reports 0 until the end when the duration is unknown', () => {
    const seen: number[] = [];
    const push = createProgressParser(undefined, (p) => seen.push(p.fraction));
    push('out_time_us=5000000\nprogress=continue\nprogress=end\n');
    expect(seen).toEqual([0, 1]);
  });

  it('splits stderr on \\n, \\r\\n and \\r', () => {
    const lines: string[] = [];
    const s = createLineSplitter((l) => lines.push(l));
    s.push('a\r\nb\rc');
    s.push('d\n\ne');
    s.end();
    expect(lines).toEqual(['a', 'b', 'cd', 'e']);
  });
});

describe('scene detection', () => {
  it('builds a select+showinfo pass on scaled frames', () => {
    const args = sceneDetectArgs(mov('/v/in.mp4'), { threshold: 0.4, width: 128 });
    expect(args).toContain("scale=128:-2:flags=fast_bilinear,select='gt(scene,0.4)',showinfo");
    expect(args.slice(-3)).toEqual(['-f', 'null', '-']);
    expect(() => sceneDetectArgs(mov('/v/in.mp4'), { threshold: 1.5 })).toThrow(RangeError);
  });

  it('parses cut times from captured showinfo output', () => {
    expect(parseSceneCuts(SHOWINFO_STDERR)).toEqual([3, 5.04]);
    expect(parseShowinfoTime('[Parsed_showinfo_2 @ 0x1] color_range:tv color_space:unknown')).toBeNull();
    expect(parseShowinfoTime('[Parsed_showinfo_1 @ 0xabc] n:  12 pts: 123 pts_time:1.2e+01 pos: 5')).toBe(12);
  });

  it('drops the first frame, sorts and merges cuts closer than the gap', () => {
    expect(normalizeCuts([5, 0, 3.0004, 3.2, 9.9999], 0.5)).toEqual([3, 5, 10]);
    expect(normalizeCuts([2, 2, 2.1])).toEqual([2, 2.1]);
  });
});

describe('loudness', () => {
  it('uses ebur128 frame logging on the first audio stream', () => {
    const args = loudnessArgs(mov('/a.mp4'));
    expect(args).toContain('ebur128=framelog=info');
    expect(args).toContain('0:a:0');
  });

  it('parses momentary and short-term values and ignores the summary', () => {
    const line = EBUR128_STDERR.split('\n')[4];
    expect(parseEbur128Line(line)).toEqual({ t: 1.09998, momentary: -21.8, shortTerm: -28.2 });
    expect(parseEbur128Line('[Parsed_ebur128_0 @ 0x19550400] Summary:')).toBeNull();
    expect(parseEbur128Line('    I:         -22.6 LUFS')).toBeNull();
  });

  it('averages blocks per second in the energy domain, floored at silence', () => {
    // Second 0: -70 (floored -120.7), -47.8, -47.8 ; second 1: -21.8, -21.8 ; second 2: none ; second 3: -47.8.
    const out = parseLoudness(EBUR128_STDERR, 4.2);
    expect(out).toHaveLength(5);
    const e = (db: number) => 10 ** (db / 10);
    expect(out[0]).toBeCloseTo(10 * Math.log10((e(-70) + 2 * e(-47.8)) / 3), 1);
    expect(out[1]).toBe(-21.8);
    expect(out[2]).toBe(SILENCE_LUFS);
    expect(out[3]).toBe(-47.8);
    expect(out[4]).toBe(SILENCE_LUFS);
    expect(out[1]).toBeGreaterThan(out[0] + 20);
  });

  it('without a duration, the array ends at the last block', () => {
    expect(
      loudnessPerSecond([
        { t: 0.1, momentary: -30, shortTerm: -30 },
        { t: 2.1, momentary: -10, shortTerm: -20 },
      ]),
    ).toEqual([-30, -70, -10]);
    expect(loudnessPerSecond([], 0)).toEqual([]);
  });
});

describe('frame sampler', () => {
  it('caps the width, keeps the aspect and even sides, never upscales', () => {
    expect(sampleSize(1920, 1080)).toEqual({ width: 320, height: 180 });
    expect(sampleSize(1080, 1920)).toEqual({ width: 320, height: 568 });
    expect(sampleSize(200, 101)).toEqual({ width: 200, height: 102 });
    expect(sampleSize(641, 361, 640)).toEqual({ width: 640, height: 360 });
  });

  it('asks for rgb24 raw frames at the rate on stdout', () => {
    const args = frameSamplerArgs(mov('/v.mp4'), { fps: 2, width: 320, height: 180 });
    expect(args).toContain('fps=2,scale=320:180:flags=bilinear,setsar=1');
    expect(args.slice(-5)).toEqual(['-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1']);
    expect(() => frameSamplerArgs(mov('/v.mp4'), { fps: 0, width: 2, height: 2 })).toThrow(RangeError);
  });

  it('adds a scene-cut output to the same decode when asked', () => {
    const args = frameSamplerArgs(mov('/v.mp4'), { fps: 1, width: 320, height: 180, scenes: { threshold: 0.3 } });
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toBe(
      "[0:v:0]split=2[fr][sc];[fr]fps=1,scale=320:180:flags=bilinear,setsar=1[frames];[sc]scale=160:-2:flags=fast_bilinear,select='gt(scene,0.3)',showinfo[cuts]",
    );
    expect(args.slice(args.indexOf('-filter_complex') + 2)).toEqual([
      '-map',
      '[frames]',
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      'pipe:1',
      '-map',
      '[cuts]',
      '-f',
      'null',
      '-',
    ]);
  });

  it('prefetches ahead of a slow consumer, in order, errors included', async () => {
    let produced = 0;
    async function* source() {
      for (let i = 0; i < 6; i++) {
        produced++;
        yield i;
      }
      throw new Error('source broke');
    }
    const seen: Array<[number, number]> = [];
    const err = await (async () => {
      for await (const v of prefetch(source(), 3)) {
        await new Promise((r) => setTimeout(r, 5));
        seen.push([v, produced]);
      }
    })().catch((e: Error) => e.message);
    expect(seen.map(([v]) => v)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seen[0][1]).toBeGreaterThanOrEqual(3);
    expect(err).toBe('source broke');
  });

  it('reassembles frames from arbitrary chunks and drops a partial tail', async () => {
    const bytes = Uint8Array.from({ length: 12 * 3 + 5 }, (_, i) => i % 251);
    const chunks = [bytes.subarray(0, 5), bytes.subarray(5, 6), bytes.subarray(6, 30), bytes.subarray(30)].map((c) => Buffer.from(c));
    const frames: Uint8Array[] = [];
    for await (const f of readFrames(Readable.from(chunks), 12)) frames.push(f);
    expect(frames).toHaveLength(3);
    expect(Array.from(frames[1])).toEqual(Array.from(bytes.subarray(12, 24)));
    expect(frames[0]).not.toBe(frames[1]);
  });
});

describe('human face detector configuration', () => {
  it('enables the face detector only', () => {
    const c = humanConfig({ backend: 'wasm', minConfidence: 0.6, maxFaces: 5, modelBasePath: 'file:///m/', wasmPath: 'file:///w/' });
    expect(c.backend).toBe('wasm');
    expect(c.face?.enabled).toBe(true);
    expect(c.face?.detector).toMatchObject({ enabled: true, modelPath: 'blazeface.json', maxDetected: 5, minConfidence: 0.6, scale: 1, rotation: false });
    for (const k of ['mesh', 'iris', 'emotion', 'description', 'antispoof', 'liveness', 'attention', 'gear'] as const) expect(c.face?.[k]?.enabled).toBe(false);
    for (const k of ['body', 'hand', 'object', 'gesture', 'segmentation'] as const) expect(c[k]?.enabled).toBe(false);
  });

  it('maps boxes from the letterboxed square back to the frame', () => {
    // A 320x180 frame sits at the top of a 320x320 square: y and height stretch by 320/180.
    expect(fromLetterbox([0.5, 0.25, 0.1, 0.1], 320, 180)).toEqual([0.5, 0.25 * (320 / 180), 0.1, 0.1 * (320 / 180)]);
    expect(fromLetterbox([0.25, 0.5, 0.2, 0.1], 180, 320)).toEqual([0.25 * (320 / 180), 0.5, 0.2 * (320 / 180), 0.1]);
    expect(fromLetterbox([0.1, 0.2, 0.3, 0.4], 256, 256)).toEqual([0.1, 0.2, 0.3, 0.4]);
  });

  it('clips boxes to the frame and drops empty ones', () => {
    expect(toFaceBox([-0.1, 0.2, 0.3, 0.5], 0.91)).toEqual({ x: 0, y: 0.2, width: 0.2, height: 0.5, score: 0.91 });
    expect(toFaceBox([0.9, 0.9, 0.5, 0.5], 1.2)).toEqual({ x: 0.9, y: 0.9, width: 0.1, height: 0.1, score: 1 });
    expect(toFaceBox([1.2, 0.2, 0.3, 0.5], 0.9)).toBeNull();
    expect(toFaceBox([NaN, 0.2, 0.3, 0.5], 0.9)).toBeNull();
  });
});
