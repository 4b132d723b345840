import sharp from 'sharp';

/** SVG to PNG with sharp (libvips' librsvg, offline: no fonts or URLs are fetched), `size` × `size` pixels. */
export async function rasteriseSvg(svg: string, size: number): Promise<Uint8Array> {
  const width = Number(/viewBox="0 0 ([\d.]+)/.exec(svg)?.[1] ?? size);
  return sharp(Buffer.from(svg), { density: Math.min(72 * (size / width), 100_000) })
    .resize(size, size)
    .png({ compressionLevel: 6 })
    .toBuffer();
}
