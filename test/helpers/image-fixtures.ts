import zlib from 'node:zlib';
import sharp from 'sharp';

/**
 * Images of large dimensions in few bytes, for the pixel ceiling and the bounded decodes
 * (src/adapters/images/image-format.ts): a PNG whose header claims a size its data does not have
 * (a decompression bomb's shape), and a real solid-colour PNG of many pixels.
 */

/** A PNG whose header claims `w`×`h` with almost no data (a decompression bomb's shape). */
export function claimedPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32 ? zlib.crc32(body) >>> 0 : 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real `w`×`h` PNG of one colour: every pixel decodes, in about 3 KB per megapixel. */
export function solidPng(w: number, h: number, colour = '#7a8a90'): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: colour } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/**
 * A face photo enlarged to `width`×`height`: the photo scaled to the height, centred on a grey canvas
 * of the width (JPEG, a few hundred KB for 24 MP). Where the photo lands: `left` and its `side`.
 */
export async function enlargedPhoto(photo: string, width: number, height: number): Promise<{ bytes: Buffer; left: number; side: number }> {
  const left = Math.floor((width - height) / 2);
  const bytes = await sharp(photo)
    .resize(height, height)
    .extend({ left, right: width - height - left, background: '#808890' })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { bytes, left, side: height };
}
