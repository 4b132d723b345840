import fs from 'node:fs/promises';
import { assertAsrWav, readWavInfo, type WavInfo } from '../asr/wav.js';

/**
 * Audio features for the embedded diarizer, in plain TypeScript: MFCCs (pre-emphasis, Hann window,
 * FFT power spectrum, mel filterbank, log, DCT-II) and pitch (F0) from the window-corrected
 * autocorrelation (Boersma 1993), both on 10 ms hops. Also reads 16-bit PCM WAV ranges as floats.
 */

export const FEATURE_HOP_SECONDS = 0.01;

export interface FrameFeatures {
  /** Frames in this block. */
  count: number;
  /** Cepstral coefficients c0..c(nCeps-1) per frame, row-major (`count * nCeps`). */
  mfcc: Float32Array;
  nCeps: number;
  /** F0 in Hz per frame, 0 where unvoiced. */
  f0: Float32Array;
}

export interface FeatureOptions {
  /** Default 20 (c0..c19). */
  nCeps?: number;
  /** Default 40. */
  nMels?: number;
  /** Pitch search range, default 60..400 Hz. */
  minF0?: number;
  maxF0?: number;
}

// ---------------------------------------------------------------- WAV reading

/** Samples [start, end) seconds of a 16-bit mono PCM WAV as floats in -1..1. */
export async function readWavRange(path: string, info: WavInfo, start = 0, end = info.duration): Promise<Float32Array> {
  assertAsrWav(info, info.sampleRate);
  const from = Math.max(0, Math.min(info.frames, Math.round(start * info.sampleRate)));
  const to = Math.max(from, Math.min(info.frames, Math.round(end * info.sampleRate)));
  const buf = Buffer.alloc((to - from) * 2);
  const fh = await fs.open(path, 'r');
  try {
    let done = 0;
    while (done < buf.length) {
      const { bytesRead } = await fh.read(buf, done, buf.length - done, info.dataOffset + from * 2 + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return pcm16ToFloat(buf);
}

/** The whole file (16-bit mono PCM WAV) as floats, with its header. */
export async function readWavMono(path: string): Promise<{ info: WavInfo; samples: Float32Array }> {
  const info = await readWavInfo(path);
  return { info, samples: await readWavRange(path, info) };
}

/** Little-endian signed 16-bit PCM to floats in -1..1 (pure). */
export function pcm16ToFloat(buf: Buffer, bytes = buf.length): Float32Array {
  const n = bytes >> 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = buf.readInt16LE(i * 2) / 32768;
  return out;
}

// ---------------------------------------------------------------- FFT

interface FftTables {
  rev: Uint32Array;
  cos: Float64Array;
  sin: Float64Array;
}
const fftTables = new Map<number, FftTables>();

function tablesFor(n: number): FftTables {
  let t = fftTables.get(n);
  if (!t) {
    if (n < 2 || (n & (n - 1)) !== 0) throw new RangeError(`FFT length must be a power of two (got ${n})`);
    const rev = new Uint32Array(n);
    const bits = Math.log2(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      rev[i] = r;
    }
    const cos = new Float64Array(n / 2);
    const sin = new Float64Array(n / 2);
    for (let k = 0; k < n / 2; k++) {
      cos[k] = Math.cos((-2 * Math.PI * k) / n);
      sin[k] = Math.sin((-2 * Math.PI * k) / n);
    }
    t = { rev, cos, sin };
    fftTables.set(n, t);
  }
  return t;
}

/** In-place iterative radix-2 FFT of (re, im); the length must be a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  const { rev, cos, sin } = tablesFor(n);
  for (let i = 0; i < n; i++) {
    const j = rev[i];
    if (i < j) {
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const stride = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const a = i + k;
        const b = a + half;
        const cr = cos[k * stride];
        const ci = sin[k * stride];
        const xr = re[b] * cr - im[b] * ci;
        const xi = re[b] * ci + im[b] * cr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

// ---------------------------------------------------------------- MFCC

const hzToMel = (f: number) => 2595 * Math.log10(1 + f / 700);
const melToHz = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Triangular mel filters over the bins 0..nfft/2 (pure). */
export function melFilterbank(nMels: number, nfft: number, sampleRate: number, lowHz = 20, highHz = sampleRate / 2 - 200): Float64Array[] {
  const bins = nfft / 2 + 1;
  const lo = hzToMel(lowHz);
  const hi = hzToMel(highHz);
  const points = Array.from({ length: nMels + 2 }, (_, i) => (melToHz(lo + ((hi - lo) * i) / (nMels + 1)) * nfft) / sampleRate);
  return Array.from({ length: nMels }, (_, m) => {
    const w = new Float64Array(bins);
    const [l, c, r] = [points[m], points[m + 1], points[m + 2]];
    for (let k = Math.floor(l); k <= Math.ceil(r) && k < bins; k++) {
      if (k > l && k <= c) w[k] = (k - l) / (c - l);
      else if (k > c && k < r) w[k] = (r - k) / (r - c);
    }
    return w;
  });
}

const hannCache = new Map<number, Float64Array>();
function hann(n: number): Float64Array {
  let w = hannCache.get(n);
  if (!w) {
    w = new Float64Array(n);
    for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
    hannCache.set(n, w);
  }
  return w;
}

/**
 * MFCCs and F0 of `samples` on 10 ms hops (frame i is centred at i * hop + 12.5 ms). 25 ms analysis
 * windows for MFCC, 40 ms for pitch. Pure.
 */
export function frameFeatures(samples: Float32Array, sampleRate: number, opts: FeatureOptions = {}): FrameFeatures {
  const nCeps = opts.nCeps ?? 20;
  const nMels = opts.nMels ?? 40;
  const hop = Math.round(sampleRate * FEATURE_HOP_SECONDS);
  const win = Math.round(sampleRate * 0.025);
  let nfft = 1;
  while (nfft < win) nfft <<= 1;
  const count = samples.length >= win ? 1 + Math.floor((samples.length - win) / hop) : 0;
  const mfcc = new Float32Array(count * nCeps);
  const filters = melFilterbank(nMels, nfft, sampleRate).map((w) => {
    let from = 0;
    while (from < w.length && w[from] === 0) from++;
    let to = w.length;
    while (to > from && w[to - 1] === 0) to--;
    return { from, weights: w.slice(from, to) };
  });
  const window = hann(win);
  const re = new Float64Array(nfft);
  const im = new Float64Array(nfft);
  const logMel = new Float64Array(nMels);
  const dct = Array.from({ length: nCeps }, (_, c) =>
    Float64Array.from({ length: nMels }, (_, m) => Math.cos((Math.PI * c * (m + 0.5)) / nMels) * Math.sqrt((c === 0 ? 1 : 2) / nMels)),
  );
  for (let f = 0; f < count; f++) {
    const off = f * hop;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < win; i++) {
      const prev = off + i > 0 ? samples[off + i - 1] : 0;
      re[i] = (samples[off + i] - 0.97 * prev) * window[i];
    }
    fft(re, im);
    for (let m = 0; m < nMels; m++) {
      const { from, weights } = filters[m];
      let e = 0;
      for (let k = 0; k < weights.length; k++) {
        const b = from + k;
        e += weights[k] * (re[b] * re[b] + im[b] * im[b]);
      }
      logMel[m] = Math.log(e + 1e-10);
    }
    for (let c = 0; c < nCeps; c++) {
      let s = 0;
      const d = dct[c];
      for (let m = 0; m < nMels; m++) s += d[m] * logMel[m];
      mfcc[f * nCeps + c] = s;
    }
  }
  const f0 = pitchTrack(samples, sampleRate, count, hop, win, opts.minF0 ?? 60, opts.maxF0 ?? 400);
  return { count, mfcc, nCeps, f0 };
}

// ---------------------------------------------------------------- pitch

/** Low-pass (windowed sinc, cutoff 0.45 of the new Nyquist band) and keep every other sample. */
export function decimate2(samples: Float32Array): Float32Array {
  const taps = 31;
  const h = new Float64Array(taps);
  const fc = 0.225; // cycles per input sample
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const m = i - (taps - 1) / 2;
    const sinc = m === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * m) / (Math.PI * m);
    h[i] = sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (taps - 1)));
    sum += h[i];
  }
  for (let i = 0; i < taps; i++) h[i] /= sum;
  const out = new Float32Array(Math.floor(samples.length / 2));
  const half = (taps - 1) / 2;
  for (let o = 0; o < out.length; o++) {
    const c = o * 2;
    let acc = 0;
    for (let i = 0; i < taps; i++) {
      const j = c + i - half;
      if (j >= 0 && j < samples.length) acc += h[i] * samples[j];
    }
    out[o] = acc;
  }
  return out;
}

/**
 * F0 (Hz, 0 when unvoiced) of `count` frames of `samples`, frame f centred at sample
 * `f * hop + win / 2` (see pitchTrack). Pure.
 */
export function pitchFrames(samples: Float32Array, sampleRate: number, count: number, hop: number, win: number, minF0 = 60, maxF0 = 400): Float32Array {
  return pitchTrack(samples, sampleRate, count, hop, win, minF0, maxF0);
}

/**
 * F0 per hop from the autocorrelation of a 40 ms Hann-windowed frame divided by the window's own
 * autocorrelation (Boersma's correction), on the signal decimated to <= 8 kHz. The peak is the
 * shortest lag within 10 % of the highest one in [1/maxF0, 1/minF0] (avoids octave drops), refined
 * by parabolic interpolation. Voiced when that normalised peak is above 0.45 and the frame is not
 * near-silent; otherwise 0.
 */
function pitchTrack(input: Float32Array, inputRate: number, count: number, inputHop: number, inputWin: number, minF0: number, maxF0: number): Float32Array {
  const f0 = new Float32Array(count);
  let samples = input;
  let sampleRate = inputRate;
  while (sampleRate >= 16000) {
    samples = decimate2(samples);
    sampleRate /= 2;
  }
  const scale = sampleRate / inputRate;
  const pw = Math.round(sampleRate * 0.04);
  const minLag = Math.max(2, Math.floor(sampleRate / maxF0));
  const maxLag = Math.min(pw - 2, Math.ceil(sampleRate / minF0));
  let nfft = 1;
  while (nfft < pw + maxLag + 2) nfft <<= 1;
  const window = hann(pw);
  const rw = autocorrelation(window, pw, nfft, maxLag + 2);
  const re = new Float64Array(nfft);
  const im = new Float64Array(nfft);
  const r = new Float64Array(maxLag + 2);
  const frame = new Float64Array(pw);
  for (let f = 0; f < count; f++) {
    const off = Math.round((f * inputHop + inputWin / 2) * scale - pw / 2);
    let mean = 0;
    for (let i = 0; i < pw; i++) {
      const j = off + i;
      frame[i] = j >= 0 && j < samples.length ? samples[j] : 0;
      mean += frame[i];
    }
    mean /= pw;
    for (let i = 0; i < pw; i++) frame[i] = (frame[i] - mean) * window[i];
    const ac = autocorrelation(frame, pw, nfft, maxLag + 2, re, im);
    const r0 = ac[0];
    if (r0 / rw[0] < 1e-6) continue; // below about -60 dBFS: silence
    for (let lag = 0; lag < maxLag + 2; lag++) r[lag] = ac[lag] / r0 / (rw[lag] / rw[0]);
    let top = 0.45;
    for (let lag = minLag; lag <= maxLag; lag++) if (r[lag] > top && r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1]) top = r[lag];
    if (top <= 0.45) continue;
    let best = minLag;
    while (best <= maxLag && !(r[best] >= 0.9 * top && r[best] >= r[best - 1] && r[best] >= r[best + 1])) best++;
    const a = r[best - 1];
    const b = r[best];
    const c = r[best + 1];
    const denom = a - 2 * b + c;
    const shift = denom !== 0 ? (0.5 * (a - c)) / denom : 0;
    f0[f] = sampleRate / (best + Math.max(-0.5, Math.min(0.5, shift)));
  }
  return f0;
}

/** Linear autocorrelation of x[0..len) for lags 0..lags-1, through an FFT of size nfft >= len + lags. */
function autocorrelation(
  x: ArrayLike<number>,
  len: number,
  nfft: number,
  lags: number,
  re = new Float64Array(nfft),
  im = new Float64Array(nfft),
): Float64Array {
  re.fill(0);
  im.fill(0);
  for (let i = 0; i < len; i++) re[i] = x[i];
  fft(re, im);
  for (let k = 0; k < nfft; k++) {
    re[k] = re[k] * re[k] + im[k] * im[k];
    im[k] = 0;
  }
  // The power spectrum is real and even: a forward FFT gives n times the inverse.
  fft(re, im);
  const out = new Float64Array(lags);
  for (let k = 0; k < lags; k++) out[k] = re[k] / nfft;
  return out;
}
