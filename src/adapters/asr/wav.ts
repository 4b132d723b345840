import fs from 'node:fs/promises';

/**
 * Just enough RIFF/WAVE for the ASR path: read the header of a PCM WAV, measure its loudness per
 * frame without loading it whole, and copy a sample range into a new WAV file.
 */

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** PCM = 1 (WAVE_FORMAT_EXTENSIBLE with PCM sub-format also reads as 1). */
  format: number;
  dataOffset: number;
  dataBytes: number;
  /** Samples per channel. */
  frames: number;
  duration: number;
}

export class WavFormatError extends Error {}

/** Parses the header found in `buf` (the first bytes of the file); `fileSize` fixes streamed sizes (pure). */
export function parseWavHeader(buf: Buffer, fileSize: number): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new WavFormatError('not a RIFF/WAVE file');
  }
  let pos = 12;
  let fmt: { format: number; channels: number; sampleRate: number; bitsPerSample: number } | undefined;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') {
      if (body + 16 > buf.length) break;
      let format = buf.readUInt16LE(body);
      if (format === 0xfffe && size >= 40 && body + 26 <= buf.length) format = buf.readUInt16LE(body + 24);
      fmt = { format, channels: buf.readUInt16LE(body + 2), sampleRate: buf.readUInt32LE(body + 4), bitsPerSample: buf.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!fmt) throw new WavFormatError('WAV data chunk before its fmt chunk');
      const available = Math.max(0, fileSize - body);
      const dataBytes = size === 0 || size === 0xffffffff || size > available ? available : size;
      const frameBytes = fmt.channels * (fmt.bitsPerSample / 8);
      const frames = Math.floor(dataBytes / frameBytes);
      return { ...fmt, dataOffset: body, dataBytes: frames * frameBytes, frames, duration: frames / fmt.sampleRate };
    }
    pos = body + size + (size % 2);
  }
  throw new WavFormatError('WAV header without fmt/data chunks in its first bytes');
}

export async function readWavInfo(path: string): Promise<WavInfo> {
  const fh = await fs.open(path, 'r');
  try {
    const { size } = await fh.stat();
    const buf = Buffer.alloc(Math.min(size, 64 * 1024));
    await fh.read(buf, 0, buf.length, 0);
    return parseWavHeader(buf, size);
  } finally {
    await fh.close();
  }
}

/** Throws WavFormatError unless the file is 16-bit PCM mono (at `sampleRate`, default 16 kHz). */
export function assertAsrWav(info: WavInfo, sampleRate = 16000): void {
  if (info.format !== 1 || info.bitsPerSample !== 16 || info.channels !== 1 || info.sampleRate !== sampleRate) {
    throw new WavFormatError(
      `expected ${sampleRate} Hz mono 16-bit PCM WAV, got format ${info.format}, ${info.sampleRate} Hz, ${info.channels} channel(s), ${info.bitsPerSample} bits`,
    );
  }
}

/** A 44-byte PCM WAV header (pure). */
export function wavHeader(dataBytes: number, sampleRate = 16000, channels = 1, bitsPerSample = 16): Buffer {
  const h = Buffer.alloc(44);
  const blockAlign = channels * (bitsPerSample / 8);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(bitsPerSample, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/**
 * Loudness of a 16-bit mono WAV per frame of `frameSeconds` (default 10 ms), as RMS in dBFS
 * (digital silence = -100). Reads the file in blocks.
 */
export async function frameLevels(path: string, info: WavInfo, frameSeconds = 0.01): Promise<Float32Array> {
  assertAsrWav(info, info.sampleRate);
  const frameSamples = Math.max(1, Math.round(info.sampleRate * frameSeconds));
  const count = Math.ceil(info.frames / frameSamples);
  const levels = new Float32Array(count);
  const blockFrames = 4096;
  const block = Buffer.alloc(blockFrames * frameSamples * 2);
  const fh = await fs.open(path, 'r');
  try {
    let frame = 0;
    for (let off = 0; off < info.dataBytes; off += block.length) {
      const want = Math.min(block.length, info.dataBytes - off);
      const { bytesRead } = await fh.read(block, 0, want, info.dataOffset + off);
      const samples = bytesRead >> 1;
      for (let s = 0; s < samples; s += frameSamples) {
        const n = Math.min(frameSamples, samples - s);
        let sum = 0;
        for (let i = 0; i < n; i++) {
          const v = block.readInt16LE((s + i) * 2) / 32768;
          sum += v * v;
        }
        const rms = Math.sqrt(sum / n);
        levels[frame++] = rms > 1e-5 ? 20 * Math.log10(rms) : -100;
      }
      if (bytesRead < want) break;
    }
  } finally {
    await fh.close();
  }
  return levels;
}

/** Writes samples [startFrame, endFrame) of `src` into a new WAV file `dest`. */
export async function writeWavSlice(src: string, info: WavInfo, startFrame: number, endFrame: number, dest: string): Promise<void> {
  const frameBytes = info.channels * (info.bitsPerSample / 8);
  const from = Math.max(0, Math.min(startFrame, info.frames));
  const to = Math.max(from, Math.min(endFrame, info.frames));
  const bytes = (to - from) * frameBytes;
  const inp = await fs.open(src, 'r');
  const out = await fs.open(dest, 'w');
  try {
    await out.write(wavHeader(bytes, info.sampleRate, info.channels, info.bitsPerSample));
    const buf = Buffer.alloc(1 << 20);
    for (let done = 0; done < bytes;) {
      const want = Math.min(buf.length, bytes - done);
      const { bytesRead } = await inp.read(buf, 0, want, info.dataOffset + from * frameBytes + done);
      if (bytesRead === 0) throw new WavFormatError(`${src} ended early`);
      await out.write(buf, 0, bytesRead);
      done += bytesRead;
    }
  } finally {
    await inp.close();
    await out.close();
  }
}
