import type { ImageCheck, ImageInspector } from '../../ports/images.js';
import { ImageRejected, MAX_IMAGE_PIXELS, inspectImage } from './image-format.js';

/** ImageInspector on sharp (image-format.ts): the format sniffed from the bytes, then one full decode. */
export class SharpImageInspector implements ImageInspector {
  async inspect(input: Buffer | string): Promise<ImageCheck> {
    try {
      return { ok: true, info: await inspectImage(input) };
    } catch (err) {
      if (err instanceof ImageRejected) return { ok: false, reason: err.reason, ...(err.reason === 'too_many_pixels' ? { maxPixels: MAX_IMAGE_PIXELS } : {}) };
      throw err;
    }
  }
}
