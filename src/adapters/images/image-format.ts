import sharp, { type Metadata } from 'sharp';

/**
 * Still images the service accepts and makes: PNG, JPEG and WebP, recognised from their bytes (never
 * from a name or a declared type), measured, decoded to raw pixels for the models and encoded back, with
 * sharp (libvips, shipped as npm packages). Decoding refuses images above MAX_IMAGE_PIXELS before any
 * pixel is allocated, so a small file claiming a huge size cannot exhaust memory.
 */

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** The largest image decoded (width × height): 40 megapixels. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** Bytes sniffImage needs. */
export const IMAGE_SNIFF_BYTES = 16;

/** PNG, JPEG or WebP from the first bytes (pure); null for anything else. */
export function sniffImage(head: Uint8Array): ImageFormat | null {
  const b = head;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a)
    return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  return null;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

export interface ImageInfo {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
}

/** Why an image was refused: not PNG/JPEG/WebP, unreadable, or larger than MAX_IMAGE_PIXELS. */
export class ImageRejected extends Error {
  constructor(
    readonly reason: 'not_an_image' | 'undecodable' | 'too_many_pixels',
    message: string,
  ) {
    super(message);
    this.name = 'ImageRejected';
  }
}

/**
 * The image's format and displayed size from its header only (no pixel decoded); ImageRejected when it
 * is not PNG/JPEG/WebP, its header does not read, or it is above MAX_IMAGE_PIXELS. The one pixel
 * ceiling every caller image goes through (readImage, inspectImage).
 */
export async function readImageHeader(input: Buffer | string): Promise<ImageInfo> {
  const head = typeof input === 'string' ? await readHead(input) : input.subarray(0, IMAGE_SNIFF_BYTES);
  const format = sniffImage(head);
  if (!format) throw new ImageRejected('not_an_image', 'not a PNG, JPEG or WebP file');
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch (err) {
    throw new ImageRejected('undecodable', `unreadable ${format}: ${(err as Error).message}`);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw new ImageRejected('undecodable', `bytes of ${format} read as ${meta.format ?? 'nothing'}`);
  if (meta.width * meta.height > MAX_IMAGE_PIXELS)
    throw new ImageRejected('too_many_pixels', `${meta.width}x${meta.height} is above ${MAX_IMAGE_PIXELS} pixels`);
  const { width, height } = orientedSize(meta);
  return { format, contentType: IMAGE_CONTENT_TYPES[format], width, height };
}

/**
 * A caller's image read within bounds: its header first (readImageHeader: refused above
 * MAX_IMAGE_PIXELS before any pixel is allocated), then its first page decoded entirely (a truncated
 * file is `undecodable`) but shrunk while decoding to at most `maxSide` pixels on its long side (never
 * enlarged; EXIF orientation applied), so libvips streams the rows instead of holding the full image:
 * a 6000×6000 PNG of 100 KB costs a 2048×2048 buffer, not 108 MB. `image` is that bounded copy, `info`
 * the size of the image itself.
 */
export async function readImage(input: Buffer | string, opts: { maxSide: number; alpha?: boolean }): Promise<{ info: ImageInfo; image: RawImage }> {
  const info = await readImageHeader(input);
  try {
    const image = await decodeImage(input, {
      alpha: opts.alpha,
      resize: { width: opts.maxSide, height: opts.maxSide, fit: 'inside', withoutEnlargement: true },
    });
    return { info, image };
  } catch (err) {
    throw new ImageRejected('undecodable', `unreadable ${info.format}: ${(err as Error).message}`);
  }
}

/** The image's format and dimensions; ImageRejected when it is not an image the service reads. Decodes it whole once (into a thumbnail) to be sure. */
export async function inspectImage(input: Buffer | string): Promise<ImageInfo> {
  return (await readImage(input, { maxSide: INSPECT_SIDE })).info;
}

/** The thumbnail inspectImage decodes into: every row is read, only this many pixels are kept. */
const INSPECT_SIDE = 64;

/** Width and height as displayed (EXIF orientations 5 to 8 swap them). */
function orientedSize(meta: Metadata): { width: number; height: number } {
  const swap = (meta.orientation ?? 1) >= 5;
  return swap ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
}

async function readHead(file: string): Promise<Buffer> {
  const { open } = await import('node:fs/promises');
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(IMAGE_SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, IMAGE_SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Raw interleaved pixels, row-major. */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}

/**
 * Decodes an image (EXIF orientation applied) to raw RGB (transparency laid on white), or RGBA with `alpha`; with `resize`,
 * resized while decoding (sharp's `fit`, Lanczos; `withoutEnlargement` never enlarges). Above MAX_IMAGE_PIXELS sharp refuses
 * it before decoding; a caller's image goes through readImage, which says why.
 */
export async function decodeImage(
  input: Buffer | string,
  opts: { alpha?: boolean; resize?: { width: number; height: number; fit: 'fill' | 'cover' | 'inside' | 'outside'; withoutEnlargement?: boolean } } = {},
): Promise<RawImage> {
  let img = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
  if (opts.resize)
    img = img.resize(opts.resize.width, opts.resize.height, { fit: opts.resize.fit, kernel: 'lanczos3', withoutEnlargement: opts.resize.withoutEnlargement });
  // Without `alpha`, a transparent image is laid on white (what is under its transparent pixels is arbitrary).
  img = opts.alpha ? img.ensureAlpha() : img.flatten({ background: '#ffffff' });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels as 3 | 4, data };
}

/** Encodes raw pixels as PNG (to a file when `file` is given, else answered). */
export async function encodePng(raw: RawImage, file?: string): Promise<Buffer | undefined> {
  const img = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } }).png({ compressionLevel: 6 });
  if (file) {
    await img.toFile(file);
    return undefined;
  }
  return img.toBuffer();
}

/** Resizes raw pixels (Lanczos, or a box blur-free bilinear for masks with `kernel: 'linear'`). */
export async function resizeRaw(raw: RawImage, width: number, height: number, kernel: 'lanczos3' | 'linear' = 'lanczos3'): Promise<RawImage> {
  const { data, info } = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } })
    .resize(width, height, { fit: 'fill', kernel: kernel === 'linear' ? 'linear' : 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels as 3 | 4, data };
}

/** A Gaussian blur of raw pixels (sigma in pixels). */
export async function blurRaw(raw: RawImage, sigma: number): Promise<RawImage> {
  const { data, info } = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } })
    .blur(Math.max(0.3, sigma))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels as 3 | 4, data };
}
