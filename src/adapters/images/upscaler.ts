import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as tfc from '@tensorflow/tfjs-core';
import { readModelFiles, tfReady, type Tf } from './tf-runtime.js';
import type { ParsedJson } from '../../shared/json.js';

/**
 * 4× neural super-resolution with the ESRGAN "slim" model of @upscalerjs/esrgan-slim (MIT; an RDN
 * network trained on DIV2K; the package's own `models/x4` files, kept in assets/models/esrgan-slim-x4). The package's model is a
 * Keras functional model; its layers (Conv2D, Activation, Concatenate, Add, UpSampling2D) are run here
 * with tfjs-core operations, so no tfjs-layers build is needed. Large images are cut into tiles with an
 * overlap wider than the network's receptive field, each upscaled alone and pasted without its margin,
 * so the result matches a whole-image run and memory stays bounded.
 */

/** The model's factor. */
export const UPSCALE_FACTOR = 4;
/** Tile side (input pixels) and overlap on each side (the network's receptive field is about 11 pixels). */
const TILE = 96;
const OVERLAP = 12;

/** The model.json of @upscalerjs/esrgan-slim's x4 model, kept in assets/models/esrgan-slim-x4 (see its README). */
export function esrganSlimX4Path(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/models/esrgan-slim-x4/model.json');
}

interface LayerSpec {
  className: string;
  name: string;
  config: ParsedJson;
  inputs: string[];
}

/** The functional graph's layers in file order (Keras writes them topologically), with their input layer names (pure). */
export function layersOf(json: ParsedJson): { layers: LayerSpec[]; input: string; output: string } {
  const cfg = json?.modelTopology?.model_config?.config;
  if (!cfg || !Array.isArray(cfg.layers)) throw new Error('not a Keras functional model');
  const layers: LayerSpec[] = cfg.layers.map((l: ParsedJson) => ({
    className: l.class_name,
    name: l.config?.name ?? l.name,
    config: l.config,
    inputs: (l.inbound_nodes?.[0] ?? []).map((n: ParsedJson[]) => String(n[0])),
  }));
  return { layers, input: cfg.input_layers[0][0], output: cfg.output_layers[0][0] };
}

const SUPPORTED = new Set(['InputLayer', 'Conv2D', 'Activation', 'Concatenate', 'Add', 'UpSampling2D']);

function activate(t: Tf, x: tfc.Tensor4D, activation: string | undefined): tfc.Tensor4D {
  switch (activation ?? 'linear') {
    case 'linear':
      return x;
    case 'relu':
      return t.relu(x);
    default:
      throw new Error(`activation ${activation} is not supported`);
  }
}

/** A loaded super-resolution network. `run` takes and answers float pixels in 0..255. */
export class EsrganSlim {
  private constructor(
    private readonly t: Tf,
    private readonly graph: ReturnType<typeof layersOf>,
    private readonly weights: Map<string, tfc.Tensor>,
    readonly backend: string,
  ) {}

  static async load(modelJson = esrganSlimX4Path()): Promise<EsrganSlim> {
    const t = await tfReady();
    const model = await readModelFiles(t, modelJson);
    const graph = layersOf(model.json);
    for (const l of graph.layers) if (!SUPPORTED.has(l.className)) throw new Error(`layer ${l.className} (${l.name}) is not supported`);
    return new EsrganSlim(t, graph, model.weights, t.getBackend());
  }

  /** One forward pass on a [1, h, w, 3] tensor of 0..255 values; answers [1, 4h, 4w, 3], clipped to 0..255. */
  forward(input: tfc.Tensor4D): tfc.Tensor4D {
    const t = this.t;
    return t.tidy(() => {
      const out = new Map<string, tfc.Tensor4D>();
      for (const l of this.graph.layers) {
        const ins = l.inputs.map((n) => out.get(n)!);
        let y: tfc.Tensor4D;
        switch (l.className) {
          case 'InputLayer':
            y = input;
            break;
          case 'Conv2D': {
            const kernel = this.weights.get(`${l.name}/kernel`) as tfc.Tensor4D;
            const bias = this.weights.get(`${l.name}/bias`) as tfc.Tensor1D | undefined;
            if (!kernel) throw new Error(`weights of ${l.name} are missing`);
            let z = t.conv2d(
              ins[0],
              kernel,
              l.config.strides as [number, number],
              l.config.padding === 'valid' ? 'valid' : 'same',
              'NHWC',
              l.config.dilation_rate as [number, number],
            );
            if (l.config.use_bias !== false && bias) z = t.add(z, bias);
            y = activate(t, z, l.config.activation);
            break;
          }
          case 'Activation':
            y = activate(t, ins[0], l.config.activation);
            break;
          case 'Concatenate':
            y = t.concat(ins, l.config.axis === -1 ? 3 : l.config.axis);
            break;
          case 'Add':
            y = ins.slice(1).reduce((a, b) => t.add(a, b), ins[0]);
            break;
          case 'UpSampling2D': {
            const [sh, sw] = l.config.size as [number, number];
            const [, h, w] = ins[0].shape;
            y = t.image.resizeNearestNeighbor(ins[0], [h * sh, w * sw]);
            break;
          }
          default:
            throw new Error(`layer ${l.className} is not supported`);
        }
        out.set(l.name, y);
      }
      return t.clipByValue(out.get(this.graph.output)!, 0, 255);
    });
  }

  /** Upscales packed RGB pixels 4×, tile by tile; answers packed RGB of 4w × 4h. */
  async upscale(rgb: Uint8Array, width: number, height: number, signal?: { aborted: boolean }): Promise<Uint8Array> {
    const t = this.t;
    if (rgb.length !== width * height * 3) throw new RangeError(`expected ${width * height * 3} bytes, got ${rgb.length}`);
    const S = UPSCALE_FACTOR;
    const outW = width * S;
    const out = new Uint8Array(outW * height * S * 3);
    const image = t.tensor3d(Float32Array.from(rgb), [height, width, 3], 'float32');
    try {
      for (const tile of tiles(width, height, TILE, OVERLAP)) {
        if (signal?.aborted) throw new Error('upscale aborted');
        const result = t.tidy(() => {
          const patch = t.expandDims(t.slice(image, [tile.y0, tile.x0, 0], [tile.y1 - tile.y0, tile.x1 - tile.x0, 3]), 0) as tfc.Tensor4D;
          return this.forward(patch);
        });
        const data = await result.data();
        result.dispose();
        const pw = (tile.x1 - tile.x0) * S;
        // Paste the tile's core (without its overlap) into the output.
        for (let y = tile.cy0 * S; y < tile.cy1 * S; y++) {
          const srcRow = (y - tile.y0 * S) * pw;
          const dstRow = y * outW;
          for (let x = tile.cx0 * S; x < tile.cx1 * S; x++) {
            const s = (srcRow + (x - tile.x0 * S)) * 3;
            const d = (dstRow + x) * 3;
            out[d] = Math.round(data[s]);
            out[d + 1] = Math.round(data[s + 1]);
            out[d + 2] = Math.round(data[s + 2]);
          }
        }
      }
    } finally {
      image.dispose();
    }
    return out;
  }

  dispose(): void {
    for (const w of this.weights.values()) w.dispose();
  }
}

export interface Tile {
  /** The input region run through the network (core plus overlap, clamped to the image). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** The region of the output this tile provides (its core). */
  cx0: number;
  cy0: number;
  cx1: number;
  cy1: number;
}

/** Cores of `size` covering the image, each with `overlap` more pixels around it where the image has them (pure). */
export function tiles(width: number, height: number, size: number, overlap: number): Tile[] {
  const out: Tile[] = [];
  for (let cy0 = 0; cy0 < height; cy0 += size) {
    for (let cx0 = 0; cx0 < width; cx0 += size) {
      const cx1 = Math.min(width, cx0 + size);
      const cy1 = Math.min(height, cy0 + size);
      out.push({
        cx0,
        cy0,
        cx1,
        cy1,
        x0: Math.max(0, cx0 - overlap),
        y0: Math.max(0, cy0 - overlap),
        x1: Math.min(width, cx1 + overlap),
        y1: Math.min(height, cy1 + overlap),
      });
    }
  }
  return out;
}
