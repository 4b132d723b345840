import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { ParsedJson } from '../../shared/json.js';

/**
 * TensorFlow.js for the image models (upscaler, segmentation): the WebAssembly backend from
 * @tensorflow/tfjs-backend-wasm's own `.wasm` files, the CPU backend as the fallback. The same tfjs-core
 * instance the face detector's Human bundle uses (it requires tfjs-core and the wasm backend from
 * node_modules), so a compute thread that runs both has one engine and one backend.
 */

const require = createRequire(import.meta.url);
export type Tf = typeof tf;

let ready: Promise<Tf> | undefined;

function wasmDirUrl(): string {
  return pathToFileURL(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))).href.replace(/\/?$/, '/');
}

/** tfjs with the wasm backend active (cpu when wasm cannot start), once per thread. */
export function tfReady(): Promise<Tf> {
  ready ??= (async () => {
    const active = tf.getBackend();
    if (active === 'wasm' || active === 'cpu') return tf;
    try {
      setWasmPaths(wasmDirUrl(), false);
      if (await tf.setBackend('wasm')) {
        await tf.ready();
        return tf;
      }
    } catch {
      // fall through to cpu
    }
    await import('@tensorflow/tfjs-backend-cpu');
    await tf.setBackend('cpu');
    await tf.ready();
    return tf;
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}

/** A converted model's JSON and its weights, read from local files (model.json + shards beside it). */
export interface LocalModel {
  json: ParsedJson;
  weights: Map<string, tf.Tensor>;
}

/** The artifacts of a converted model on disk (model.json and its weight shards), for tfjs loaders. */
export async function readModelArtifacts(t: Tf, modelJson: string): Promise<{ json: ParsedJson; artifacts: tf.io.ModelArtifacts }> {
  const json = JSON.parse(await fs.readFile(modelJson, 'utf8'));
  const artifacts = await t.io.getModelArtifactsForJSON(json, async (manifest: tf.io.WeightsManifestConfig) => {
    const specs: tf.io.WeightsManifestEntry[] = [];
    const parts: Buffer[] = [];
    for (const group of manifest) {
      for (const p of group.paths) parts.push(await fs.readFile(path.join(path.dirname(modelJson), p)));
      specs.push(...group.weights);
    }
    const all = Buffer.concat(parts);
    return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
  });
  return { json, artifacts };
}

/** Reads `model.json` and its weight shards from disk into tensors by weight name. */
export async function readModelFiles(t: Tf, modelJson: string): Promise<LocalModel> {
  const { json, artifacts } = await readModelArtifacts(t, modelJson);
  const decoded = t.io.decodeWeights(artifacts.weightData!, artifacts.weightSpecs!);
  return { json, weights: new Map(Object.entries(decoded)) };
}
