import path from 'node:path';
import type { FaceMesher } from '../../ports/face-detector.js';
import type { MediaProbe } from '../../ports/media.js';
import { PersonaEngineError, type SwapEngine, type SwapRequest, type SwapResult } from '../../ports/persona-engines.js';
import { localMedia } from '../media/container.js';
import { inputRangeArgs, localInputArgs, startFfmpeg, writeFrames } from '../media/ffmpeg-run.js';
import { sampleFrames, sampleSize } from '../media/frame-sampler.js';
import type { Cutout, Point } from './face-warp.js';
import type { SwapFrameTask } from './head-swap.tasks.js';

/**
 * The embedded head swap (catalog label `preview`): the face mesh (468 points) of every frame of the
 * source, gaps of a few frames filled and the points smoothed over time (forward-backward exponential
 * smoothing), then per frame the persona's face warped piecewise-affinely onto the tracked mesh, its
 * colours moved to the frame's (Reinhard transfer), blended through a feathered mask; for an
 * illustrated persona the drawn head is pasted following the tracked head's position, scale and roll.
 * The mesh is found on frames at most 360 px wide (its points scaled up). The picture outside the face
 * is the source's; the source's sound is copied. `replace: head` only.
 */

export interface HeadSwapOptions {
  mesher: () => Promise<FaceMesher>;
  /** Runs one frame's composite (the compute pool's `swapFrame`, or the function itself). */
  runFrame: (task: SwapFrameTask) => Promise<Uint8Array>;
  probe: MediaProbe;
  /** Decodes the portrait PNG: RGB, or RGBA with `alpha`. */
  decode(png: Uint8Array, alpha: boolean): Promise<{ width: number; height: number; data: Uint8Array }>;
  /** The illustrated head of an illustration portrait (RGBA), anchored on its face. */
  illustrationCutout(rgba: { width: number; height: number; data: Uint8Array }): Cutout;
  /** Output width cap (default 720). */
  maxWidth?: number;
  /** Width of the frames the mesh is found on (default 360). */
  detectWidth?: number;
  /** Frames in flight (default 4). */
  concurrency?: number;
  /** Longest gap (frames) without a face that is filled from its neighbours (default 6). */
  maxGap?: number;
  timeoutMs?: number;
}

const DETECT_WIDTH = 360;

/** Mesh points used for the head's pose: outer eye corners and cheek edges. */
const EYE_L = 33;
const EYE_R = 263;
const CHEEK_L = 234;
const CHEEK_R = 454;

export interface Pose {
  centre: Point;
  /** Face width (cheek to cheek), pixels. */
  scale: number;
  /** Radians, the eye line's angle. */
  roll: number;
}

/** The head's pose from its mesh (pure). */
export function poseOf(points: readonly number[]): Pose {
  let cx = 0;
  let cy = 0;
  const n = points.length / 2;
  for (let i = 0; i < n; i++) {
    cx += points[2 * i];
    cy += points[2 * i + 1];
  }
  const at = (i: number): Point => [points[2 * i], points[2 * i + 1]];
  const [lx, ly] = at(EYE_L);
  const [rx, ry] = at(EYE_R);
  const [ax, ay] = at(CHEEK_L);
  const [bx, by] = at(CHEEK_R);
  return { centre: [cx / n, cy / n], scale: Math.hypot(bx - ax, by - ay), roll: Math.atan2(ry - ly, rx - lx) };
}

/**
 * Fills gaps of at most `maxGap` frames between two tracked frames by linear interpolation, and holds
 * the first/last tracked mesh for `maxGap` frames before/after (pure). Null stays null elsewhere.
 */
export function fillGaps(track: Array<number[] | null>, maxGap: number): Array<number[] | null> {
  const out = track.slice();
  const found = track.map((t, i) => (t ? i : -1)).filter((i) => i >= 0);
  if (found.length === 0) return out;
  for (let k = 0; k + 1 < found.length; k++) {
    const a = found[k];
    const b = found[k + 1];
    if (b - a <= 1 || b - a - 1 > maxGap) continue;
    for (let i = a + 1; i < b; i++) {
      const f = (i - a) / (b - a);
      out[i] = track[a]!.map((v, j) => v + (track[b]![j] - v) * f);
    }
  }
  for (let i = Math.max(0, found[0] - maxGap); i < found[0]; i++) out[i] = track[found[0]]!.slice();
  const last = found[found.length - 1];
  for (let i = last + 1; i <= Math.min(track.length - 1, last + maxGap); i++) out[i] = track[last]!.slice();
  return out;
}

/** Forward-backward exponential smoothing over each run of consecutive tracked frames (pure). */
export function smoothTrack(track: Array<number[] | null>, alpha: number): Array<number[] | null> {
  const fwd: Array<number[] | null> = track.map(() => null);
  for (let i = 0; i < track.length; i++) {
    const t = track[i];
    if (!t) continue;
    const prev = fwd[i - 1];
    fwd[i] = prev ? t.map((v, j) => prev[j] + alpha * (v - prev[j])) : t.slice();
  }
  const out: Array<number[] | null> = track.map(() => null);
  for (let i = track.length - 1; i >= 0; i--) {
    const t = fwd[i];
    if (!t) continue;
    const next = out[i + 1];
    out[i] = next ? t.map((v, j) => next[j] + alpha * (v - next[j])) : t.slice();
  }
  return out;
}

const flat = (pts: ReadonlyArray<readonly [number, number]>): number[] => pts.flatMap((p) => [p[0], p[1]]);

export class HeadSwapEngine implements SwapEngine {
  readonly name = 'embedded-head-swap';
  readonly label = 'preview';
  readonly replaceModes = ['head'] as const;

  constructor(private readonly o: HeadSwapOptions) {}

  async swap(req: SwapRequest): Promise<SwapResult> {
    if (req.replace !== 'head') throw new PersonaEngineError('REPLACE_MODE_UNAVAILABLE', `replace ${req.replace} is not done by ${this.name}`);
    const info = await this.o.probe.probe(req.source);
    if (!info.hasVideo || !(info.width > 0 && info.height > 0)) throw new PersonaEngineError('SOURCE_UNREADABLE', 'the source has no picture');
    const fps = Math.min(30, Math.max(1, Math.round((info.fps && info.fps > 0 ? info.fps : 25) * 1000) / 1000));
    const maxWidth = this.o.maxWidth ?? 720;
    const seconds = Math.min(req.seconds, info.duration > 0 ? info.duration : req.seconds);
    const decodeOpts = {
      fps,
      sourceWidth: info.width,
      sourceHeight: info.height,
      maxWidth,
      range: { start: 0, end: seconds },
      signal: req.signal,
      timeoutMs: this.o.timeoutMs,
    };
    const { width, height } = sampleSize(info.width, info.height, maxWidth);
    // The mesh is found on smaller frames (at most DETECT_WIDTH wide: the detector and mesh models read
    // 256 and 192 px inputs), its points scaled to the output frame.
    const detectWidth = Math.min(width, this.o.detectWidth ?? DETECT_WIDTH);
    const scale = width / sampleSize(info.width, info.height, detectWidth).width;
    const mesher = await this.o.mesher();
    const persona = await this.persona(req, mesher);

    // Pass 1: the mesh of every frame.
    const raw: Array<number[] | null> = [];
    await this.ordered(
      sampleFrames(req.source, { ...decodeOpts, maxWidth: detectWidth }),
      async (frame) => {
        const faces = await mesher.detectMesh(frame);
        const best = faces.find((f) => f.mesh.length === 468);
        return best ? flat(best.mesh).map((v) => v * scale) : null;
      },
      async (pts) => void raw.push(pts),
    );
    const track = smoothTrack(fillGaps(raw, this.o.maxGap ?? 6), 0.55);
    const tracked = track.filter(Boolean).length;
    if (raw.length === 0) throw new PersonaEngineError('SOURCE_UNREADABLE', 'no frame decoded');
    if (raw.every((t) => t === null)) throw new PersonaEngineError('NO_FACE_IN_SOURCE', 'no face was found in the source');

    // Pass 2: composite and encode, with the source's sound.
    const ff = startFfmpeg(
      [
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${width}x${height}`,
        '-framerate',
        String(fps),
        '-i',
        'pipe:0',
        ...localInputArgs(localMedia(req.source), inputRangeArgs({ start: 0, end: seconds })),
        ...sourceSoundMp4Args(seconds, req.output),
      ],
      { stdin: 'pipe', timeoutMs: this.o.timeoutMs, durationSeconds: seconds, signal: req.signal },
    );
    let index = 0;
    await writeFrames(ff, (write) =>
      this.ordered(
        sampleFrames(req.source, decodeOpts),
        async (frame) => {
          const pts = track[frame.index];
          if (!pts) return frame.data;
          const pose = poseOf(pts);
          return this.o.runFrame({ width: frame.width, height: frame.height, data: frame.data, persona, target: { points: pts, ...pose } });
        },
        async (data) => {
          index++;
          await write(data);
        },
      ),
    );
    return { frames: index, facesTracked: tracked, width, height };
  }

  /** The persona as the frame task takes it: a textured mesh (photo) or a cut-out head (illustration). */
  private async persona(req: SwapRequest, mesher: FaceMesher): Promise<SwapFrameTask['persona']> {
    if (req.portrait.kind === 'illustration') {
      return { kind: 'cutout', cutout: this.o.illustrationCutout(await this.o.decode(req.portrait.png, true)) };
    }
    const img = await this.o.decode(req.portrait.png, false);
    const faces = await mesher.detectMesh({ width: img.width, height: img.height, data: img.data.slice() });
    const face = faces.find((f) => f.mesh.length === 468);
    if (!face) throw new PersonaEngineError('NO_FACE_IN_PERSONA', 'the persona portrait has no face mesh');
    return { kind: 'mesh', width: img.width, height: img.height, data: img.data, points: flat(face.mesh), triangles: [...mesher.triangles] };
  }

  /** Runs `work` on each item with up to `concurrency` in flight, and `emit`s the results in order. */
  private async ordered<T, R>(items: AsyncIterable<T>, work: (item: T) => Promise<R>, emit: (r: R) => Promise<void>): Promise<void> {
    const limit = Math.max(1, this.o.concurrency ?? 4);
    const inFlight: Array<Promise<R>> = [];
    for await (const item of items) {
      const p = work(item);
      p.catch(() => {});
      inFlight.push(p);
      if (inFlight.length >= limit) await emit(await inFlight.shift()!);
    }
    while (inFlight.length) await emit(await inFlight.shift()!);
  }
}

/**
 * The output half of a persona video's ffmpeg run: the first input's picture with the second's sound
 * (when it has one), H.264 + AAC in an MP4 of `seconds`, written to `output`.
 */
export function sourceSoundMp4Args(seconds: number, output: string): string[] {
  return [
    ...['-map', '0:v:0', '-map', '1:a:0?', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-t', String(Math.round(seconds * 1000) / 1000), '-movflags', '+faststart', '-f', 'mp4'],
    ...['-y', `file:${path.resolve(output)}`],
  ];
}
