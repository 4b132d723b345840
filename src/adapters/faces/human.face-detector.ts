import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { io } from '@tensorflow/tfjs-core';
import type { Config, Human } from '@vladmandic/human';
import type { FaceBox, FaceDetector, MeshFace, RgbFrame } from '../../ports/face-detector.js';

/**
 * Face detection with @vladmandic/human: its BlazeFace detector only (mesh, iris, emotion, body,
 * hand, object, gesture and segmentation off), on the TensorFlow.js WebAssembly backend.
 *
 * Everything is local: the `.wasm` files come from @tensorflow/tfjs-backend-wasm's `dist/` folder and
 * the model (blazeface.json + .bin) from @vladmandic/human's `models/` folder, both given as file://
 * URLs. Node's fetch cannot read file:// URLs, so a TensorFlow.js load router reads them from disk.
 * The `cpu` backend (@tensorflow/tfjs-backend-cpu, pure JS) is the fallback: about 20x slower.
 */

export type HumanBackend = 'wasm' | 'cpu';

export interface HumanFaceDetectorOptions {
  /** Default `wasm`. */
  backend?: HumanBackend;
  /** Faces below this confidence are dropped. Default 0.6 (BlazeFace scores fractals and textures up to ~0.55). */
  minConfidence?: number;
  /** At most this many faces per frame. Default 10. */
  maxFaces?: number;
  /** When the wasm backend cannot start, use cpu instead of failing. Default true. */
  fallbackToCpu?: boolean;
  /** Also run the face mesh model (468 points per face, `detectMesh`). Default false. */
  mesh?: boolean;
}

const require = createRequire(import.meta.url);
type Tf = Human['tf'];

/** Folder of the installed @vladmandic/human package (its `exports` hides everything but the builds). */
function humanRoot(): string {
  // The package's main for Node is dist/human.node.js; we only resolve it, never load it (it needs tfjs-node).
  return path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
}

function asDirUrl(dir: string): string {
  return pathToFileURL(dir).href.replace(/\/?$/, '/');
}

/** The local model folder and wasm folder as file:// URLs ending in `/`. */
export function humanAssetUrls(): { modelBasePath: string; wasmPath: string } {
  const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  return { modelBasePath: asDirUrl(path.join(humanRoot(), 'models')), wasmPath: asDirUrl(wasmDir) };
}

/** The Human configuration: face detector only (pure; unit-tested). */
export function humanConfig(opts: {
  backend: HumanBackend;
  minConfidence: number;
  maxFaces: number;
  modelBasePath: string;
  wasmPath: string;
  mesh?: boolean;
}): Partial<Config> {
  const off = { enabled: false };
  return {
    backend: opts.backend,
    wasmPath: opts.wasmPath,
    wasmPlatformFetch: false,
    modelBasePath: opts.modelBasePath,
    debug: false,
    async: false,
    warmup: 'none',
    cacheModels: false,
    cacheSensitivity: 0,
    deallocate: true,
    filter: { enabled: false },
    gesture: off,
    face: {
      enabled: true,
      detector: {
        enabled: true,
        modelPath: 'blazeface.json',
        rotation: false,
        maxDetected: opts.maxFaces,
        minConfidence: opts.minConfidence,
        minSize: 0,
        iouThreshold: 0.1,
        // 1 = the detector's own box, not enlarged for the mesh model (which needs the default 1.4 margin).
        scale: opts.mesh ? 1.4 : 1,
        // Human's own `square` padding maps boxes back wrongly on the y axis (3.3.6); the frame is
        // letterboxed here instead (see detectNow), so the 256x256 model input does not squash faces.
        square: false,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: opts.mesh ? { enabled: true, modelPath: 'facemesh.json' } : off,
      attention: off,
      iris: off,
      description: off,
      emotion: off,
      antispoof: off,
      liveness: off,
      gear: off,
    },
    body: off,
    hand: off,
    object: off,
    segmentation: off,
  };
}

let fileRouterInstalled = false;

/** Lets TensorFlow.js load `file://` model URLs from disk (model JSON + weight shards). */
function installFileRouter(tf: Tf): void {
  if (fileRouterInstalled) return;
  fileRouterInstalled = true;
  tf.io.registerLoadRouter((url: string | string[]) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    return {
      load: async () => {
        const file = fileURLToPath(url);
        const json = JSON.parse(await fs.readFile(file, 'utf8'));
        return tf.io.getModelArtifactsForJSON(json, async (manifest: io.WeightsManifestConfig) => {
          const specs: io.WeightsManifestEntry[] = [];
          const parts: Buffer[] = [];
          for (const group of manifest) {
            for (const p of group.paths) parts.push(await fs.readFile(path.join(path.dirname(file), p)));
            specs.push(...group.weights);
          }
          const all = Buffer.concat(parts);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  });
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}

/**
 * A box found on the square letterboxed frame (the frame at the top-left of a `max(w, h)` square)
 * back in the frame's own 0..1 coordinates (pure).
 */
export function fromLetterbox(boxRaw: readonly number[], width: number, height: number): [number, number, number, number] {
  const side = Math.max(width, height);
  const sx = side / width;
  const sy = side / height;
  return [boxRaw[0] * sx, boxRaw[1] * sy, boxRaw[2] * sx, boxRaw[3] * sy];
}

/** Human's `boxRaw` ([x, y, w, h], 0..1) as a FaceBox clipped to the frame (pure). */
export function toFaceBox(boxRaw: readonly number[], score: number): FaceBox | null {
  const [bx, by, bw, bh] = boxRaw;
  if (![bx, by, bw, bh, score].every(Number.isFinite)) return null;
  const x = clamp01(bx);
  const y = clamp01(by);
  const width = clamp01(bx + bw) - x;
  const height = clamp01(by + bh) - y;
  if (width <= 0 || height <= 0) return null;
  const r = (v: number) => Math.round(v * 10000) / 10000;
  return { x: r(x), y: r(y), width: r(width), height: r(height), score: r(clamp01(score)) };
}

type HumanCtor = new (config?: Partial<Config>) => Human;

/**
 * The Emscripten glue of the wasm backend adds process-wide `uncaughtException` and
 * `unhandledRejection` listeners that rethrow (and print the whole minified module). They would
 * override the service's own handling, so the listeners added while `fn` runs are removed.
 */
async function withoutProcessHooks<T>(fn: () => Promise<T>): Promise<T> {
  const proc = process as unknown as NodeJS.EventEmitter;
  const events = ['uncaughtException', 'unhandledRejection'];
  const before = new Map(events.map((e) => [e, new Set(proc.listeners(e))]));
  try {
    return await fn();
  } finally {
    for (const e of events) {
      for (const l of proc.listeners(e)) if (!before.get(e)!.has(l)) proc.removeListener(e, l as (...args: unknown[]) => void);
    }
  }
}

async function startHuman(
  backend: HumanBackend,
  opts: Required<Omit<HumanFaceDetectorOptions, 'backend' | 'fallbackToCpu' | 'mesh'>> & { mesh: boolean },
): Promise<Human> {
  const bundle = require(path.join(humanRoot(), 'dist', 'human.node-wasm.js')) as { Human: HumanCtor };
  if (backend === 'cpu') require('@tensorflow/tfjs-backend-cpu');
  const human = new bundle.Human(humanConfig({ backend, ...opts, ...humanAssetUrls() }));
  installFileRouter(human.tf);
  await withoutProcessHooks(() => human.load());
  const active = human.tf.getBackend();
  if (active !== backend) throw new Error(`TensorFlow.js backend ${backend} did not start (active: ${active ?? 'none'})`);
  const loaded = human.models.loaded() as string[];
  if (!loaded.some((m) => m.includes('blazeface') || m === 'facedetect')) {
    throw new Error(`blazeface model did not load from ${humanAssetUrls().modelBasePath} (loaded: ${loaded.join(', ') || 'none'})`);
  }
  if (opts.mesh && !loaded.some((m) => m.includes('facemesh'))) throw new Error(`facemesh model did not load (loaded: ${loaded.join(', ')})`);
  return human;
}

export class HumanFaceDetector implements FaceDetector {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly human: Human,
    readonly backend: HumanBackend,
  ) {}

  get name(): string {
    return `human-blazeface/${this.backend}`;
  }

  /** Loads the model (about 0.1 s with wasm). Throws when no backend can start. */
  static async create(opts: HumanFaceDetectorOptions = {}): Promise<HumanFaceDetector> {
    const backend: HumanBackend = opts.backend ?? 'wasm';
    const tuning = { minConfidence: opts.minConfidence ?? 0.6, maxFaces: opts.maxFaces ?? 10, mesh: opts.mesh ?? false };
    try {
      return new HumanFaceDetector(await startHuman(backend, tuning), backend);
    } catch (err) {
      if (backend !== 'wasm' || opts.fallbackToCpu === false) throw err;
      return new HumanFaceDetector(await startHuman('cpu', tuning), 'cpu');
    }
  }

  detect(frame: RgbFrame): Promise<FaceBox[]> {
    // TensorFlow.js runs one graph at a time; concurrent callers wait their turn.
    const run = this.queue.then(() => this.detectNow(frame));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * The faces with their mesh (a detector created with `mesh: true`): box and 468 points in the frame's
   * pixels, best score first. Faces whose mesh was not found have an empty `mesh`.
   */
  detectMesh(frame: RgbFrame): Promise<MeshFace[]> {
    const run = this.queue.then(() => this.meshNow(frame));
    this.queue = run.catch(() => {});
    return run;
  }

  /** The triangles of the 468-point mesh (indices, three per triangle). */
  get triangulation(): number[] {
    return [...((this.human as unknown as { faceTriangulation: number[] }).faceTriangulation ?? [])];
  }

  private async meshNow(frame: RgbFrame): Promise<MeshFace[]> {
    return this.withResult(frame, (result) => {
      const out: MeshFace[] = [];
      for (const f of result.face) {
        const b = toFaceBox(fromLetterbox(f.boxRaw, frame.width, frame.height), f.boxScore ?? f.score);
        if (!b) continue;
        const mesh = (f.mesh ?? []).slice(0, 468).map((p) => [p[0], p[1]] as [number, number]);
        out.push({
          box: { x: b.x * frame.width, y: b.y * frame.height, width: b.width * frame.width, height: b.height * frame.height },
          score: b.score,
          mesh: mesh.length === 468 && mesh.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])) ? mesh : [],
        });
      }
      return out.sort((a, b) => b.score - a.score);
    });
  }

  private async detectNow(frame: RgbFrame): Promise<FaceBox[]> {
    return this.withResult(frame, (result) => {
      const boxes: FaceBox[] = [];
      for (const f of result.face) {
        const b = toFaceBox(fromLetterbox(f.boxRaw, frame.width, frame.height), f.boxScore ?? f.score);
        if (b) boxes.push(b);
      }
      return boxes.sort((a, b) => b.score - a.score);
    });
  }

  private async withResult<T>(frame: RgbFrame, read: (result: Awaited<ReturnType<Human['detect']>>) => T): Promise<T> {
    if (this.closed) throw new Error('face detector is closed');
    const { width, height, data } = frame;
    if (!(width > 0 && height > 0) || data.length !== width * height * 3) {
      throw new RangeError(`frame data has ${data.length} bytes, expected ${width}x${height}x3`);
    }
    const tf = this.human.tf;
    const side = Math.max(width, height);
    const input = tf.tidy(() => {
      const t = tf.tensor3d(Int32Array.from(data), [height, width, 3], 'int32');
      return side === width && side === height
        ? t
        : tf.pad(t, [
            [0, side - height],
            [0, side - width],
            [0, 0],
          ]);
    });
    try {
      const result = await this.human.detect(input);
      if (result.error) throw new Error(`face detection failed: ${result.error}`);
      return read(result);
    } finally {
      tf.dispose(input);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    this.human.models.reset();
  }
}
