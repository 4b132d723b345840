import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AsrError, type AsrEngine, type AsrResult, type AsrSegment, type AsrTranscribeOptions, type AsrWord } from '../../ports/asr.js';
import { groupWords } from './asr-result.js';
import { normalizeLanguage } from './languages.js';
import { assertAsrWav, readWavInfo, WavFormatError } from './wav.js';

/**
 * The embedded engine: CMU PocketSphinx from Debian (`pocketsphinx` + `pocketsphinx-en-us`), run as
 * `pocketsphinx_continuous -infile <wav> -time yes`. English only. Its output (stdout) is, per
 * utterance found by its voice activity detector, the hypothesis line and then one line per word:
 *
 *   and mister john ...
 *   <s> 0.000 0.140 0.999400
 *   and(2) 0.150 0.360 0.260057
 *   <sil> 3.910 3.930 0.553348
 *   </s> 7.050 7.080 1.000000
 *
 * (`word start end posterior`, times in seconds from the start of the file).
 */

export interface PocketsphinxOptions {
  /** Default `pocketsphinx_continuous` (from PATH). */
  binary?: string;
  /** Acoustic model folder, language model and dictionary; default: the binary's (the en-us model). */
  hmm?: string;
  lm?: string;
  dict?: string;
  extraArgs?: string[];
  /** Kills the process after this long. Default: 4 x the audio duration + 60 s. */
  timeoutMs?: number;
}

const WORD_LINE = /^(\S+)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)$/;

/** `<s>`, `</s>`, `<sil>`, `[NOISE]`, `[SPEECH]`, `++BREATH++`, `+NSN+`: markers, not words. */
export function isFiller(token: string): boolean {
  return /^<.*>$/.test(token) || /^\[.*\]$/.test(token) || /^\+.*\+$/.test(token);
}

/** `read(2)` -> `read` (alternate pronunciations in the dictionary). */
export function stripAlternate(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

/**
 * Parses `pocketsphinx_continuous -time yes` stdout (pure). Each utterance becomes one segment, split
 * further at pauses of `gapSeconds` (default 1 s) or past `maxSegmentSeconds` (default 30 s).
 */
export function parsePocketsphinxOutput(stdout: string, opts: { gapSeconds?: number; maxSegmentSeconds?: number } = {}): { words: AsrWord[]; segments: AsrSegment[] } {
  const utterances: AsrWord[][] = [];
  let cur: AsrWord[] = [];
  const flush = () => {
    if (cur.length) utterances.push(cur);
    cur = [];
  };
  for (const raw of stdout.split(/\r?\n/)) {
    const m = WORD_LINE.exec(raw.trim());
    if (!m) continue; // hypothesis lines, blank lines
    const token = m[1];
    if (token === '<s>' || token === '</s>') {
      flush();
      continue;
    }
    if (isFiller(token)) continue;
    const text = stripAlternate(token);
    if (text === '') continue;
    const start = Number(m[2]);
    const end = Math.max(start, Number(m[3]));
    const p = Number(m[4]);
    const word: AsrWord = { start, end, text };
    if (Number.isFinite(p)) word.confidence = Math.min(1, Math.max(0, p));
    cur.push(word);
  }
  flush();
  const segments = utterances.flatMap((u) => groupWords(u, { gapSeconds: opts.gapSeconds ?? 1, maxSeconds: opts.maxSegmentSeconds ?? 30, minWords: Number.MAX_SAFE_INTEGER }));
  return { words: segments.flatMap((s) => s.words), segments };
}

/** The argv after the binary (pure). `wavPath` must end in `.wav` so the binary checks the header. */
export function buildPocketsphinxArgs(wavPath: string, opts: PocketsphinxOptions = {}): string[] {
  const args = ['-infile', wavPath, '-time', 'yes'];
  if (opts.hmm) args.push('-hmm', opts.hmm);
  if (opts.lm) args.push('-lm', opts.lm);
  if (opts.dict) args.push('-dict', opts.dict);
  return [...args, ...(opts.extraArgs ?? [])];
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('transcription aborted', 'AbortError');
}

export class PocketsphinxEngine implements AsrEngine {
  readonly name = 'pocketsphinx';

  constructor(private readonly opts: PocketsphinxOptions = {}) {}

  supportsLanguage(lang: string): boolean {
    const l = normalizeLanguage(lang);
    return l === undefined || l === 'en';
  }

  async transcribe(wavPath: string, opts: AsrTranscribeOptions = {}): Promise<AsrResult> {
    if (opts.language !== undefined && !this.supportsLanguage(opts.language)) {
      throw new AsrError('ASR_LANGUAGE_UNSUPPORTED', `pocketsphinx transcribes English only (asked: ${opts.language})`);
    }
    if (opts.signal?.aborted) throw abortError(opts.signal);
    let duration: number;
    try {
      const info = await readWavInfo(wavPath);
      assertAsrWav(info);
      duration = info.duration;
    } catch (err) {
      if (err instanceof WavFormatError) throw new AsrError('ASR_BAD_AUDIO', `${path.basename(wavPath)}: ${err.message}`);
      throw err;
    }
    if (duration === 0) return { language: 'en', words: [], segments: [] };

    // The binary treats any name not ending in .wav as headerless raw audio.
    let input = wavPath;
    let tmp: string | undefined;
    if (!wavPath.endsWith('.wav')) {
      tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'cutroom-ps-'));
      input = path.join(tmp, 'audio.wav');
      await fs.symlink(path.resolve(wavPath), input);
    }
    try {
      const stdout = await this.run(buildPocketsphinxArgs(input, this.opts), this.opts.timeoutMs ?? duration * 4000 + 60_000, opts.signal);
      const { words, segments } = parsePocketsphinxOutput(stdout);
      return { language: 'en', words, segments };
    } finally {
      if (tmp) await fs.rm(tmp, { recursive: true, force: true });
    }
  }

  private run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
    const bin = this.opts.binary ?? 'pocketsphinx_continuous';
    return new Promise<string>((resolve, reject) => {
      // stdin closed: the binary would otherwise also read it.
      const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const errTail: string[] = [];
      let why: 'timeout' | 'aborted' | undefined;
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (c: string) => {
        for (const line of c.split('\n')) {
          if (/ERROR|FATAL/.test(line)) errTail.push(line.trim());
        }
        if (errTail.length > 10) errTail.splice(0, errTail.length - 10);
      });
      const kill = (reason: 'timeout' | 'aborted') => {
        why ??= reason;
        child.kill('SIGKILL');
      };
      const onAbort = () => kill('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => kill('timeout'), timeoutMs);
      let spawnError: NodeJS.ErrnoException | undefined;
      child.on('error', (err) => (spawnError = err));
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (spawnError) {
          const hint = spawnError.code === 'ENOENT' ? ' (install the Debian packages pocketsphinx and pocketsphinx-en-us: scripts/setup.sh)' : '';
          return reject(new AsrError('ASR_ENGINE_FAILED', `${bin} could not start: ${spawnError.message}${hint}`));
        }
        if (why === 'aborted' && signal) return reject(abortError(signal));
        if (why === 'timeout') return reject(new AsrError('ASR_ENGINE_FAILED', `${bin} timed out after ${timeoutMs} ms`, true));
        if (code !== 0) return reject(new AsrError('ASR_ENGINE_FAILED', `${bin} exited with ${code ?? sig}: ${errTail.join(' | ') || 'no error message'}`));
        resolve(Buffer.concat(out).toString('utf8'));
      });
    });
  }
}
