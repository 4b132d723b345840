/**
 * Still images (PNG, JPEG, WebP) recognised from their bytes, and the embedded generation engines
 * (src/adapters/images): upscale-x4, cutout, camera-motion, parallax.
 */

export interface ImageInfo {
  format: 'png' | 'jpeg' | 'webp';
  contentType: string;
  width: number;
  height: number;
}

/** `not_an_image`: not PNG/JPEG/WebP; `undecodable`: claims to be one but does not decode; `too_many_pixels`: above the decoder's ceiling. */
export type ImageCheck = { ok: true; info: ImageInfo } | { ok: false; reason: 'not_an_image' | 'undecodable' | 'too_many_pixels'; maxPixels?: number };

export interface ImageInspector {
  /** Sniffs the bytes (a buffer or a local file), then decodes them once to be sure. */
  inspect(input: Buffer | string): Promise<ImageCheck>;
}

export interface EmbeddedRun {
  /** Local files of the reference images, in `image_ids` order. */
  images: string[];
  /** The request's options, defaults filled in (checked against the catalog). */
  options: Record<string, unknown>;
  /** Where the output is written. */
  outDir: string;
  signal?: AbortSignal;
}

export interface EmbeddedOutput {
  file: string;
  contentType: string;
  width: number;
  height: number;
  /** Videos: their length. */
  seconds?: number;
  /** What ran (`esrgan-slim-x4/wasm`), for logs. */
  engine: string;
}

/** Runs an embedded engine (`upscale-x4`, `cutout`, `camera-motion`, `parallax`) on local files. */
export interface EmbeddedGenerator {
  run(engine: string, input: EmbeddedRun): Promise<EmbeddedOutput>;
}
