import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AsrError, type AsrEngine, type AsrResult, type AsrTranscribeOptions, type AsrWord } from '../../ports/asr.js';
import { VadError, type Vad } from '../../ports/vad.js';
import { runAtJobPriority } from '../workers/job-priority.js';
import { groupWords } from './asr-result.js';
import { mapLimit } from './chunking.js';
import { normalizeLanguage } from './languages.js';
import { controlFile, FRAME_RATE, parseCtm, type UtteranceFrames } from './pocketsphinx.ctm.js';
import { groupUtterances, planUtterances } from './utterances.js';
import { assertAsrWav, frameLevels, readWavInfo, WavFormatError, type WavInfo } from './wav.js';

/**
 * The embedded engine: CMU PocketSphinx from Debian (`pocketsphinx` + `pocketsphinx-en-us`), English
 * only, decoding as `pocketsphinx_batch` does. The voice detector (Silero) finds the utterances; each
 * is decoded on its own with its own cepstral mean (the model's `-cmn batch`: the mean over the
 * utterance, where `pocketsphinx_continuous` starts every utterance from a fixed default and adapts
 * as it goes, which costs about a third more word errors on read speech, docs/asr.md). The binary
 * reads the utterances straight out of the WAV through a control file (`file first last id`, in
 * 10 ms frames) and writes word times and posteriors as CTM; a word's absolute time is its
 * utterance's first frame plus its time in the CTM. Utterances are shared between a few processes
 * (one per core at most), each loading the model once.
 */

export interface PocketsphinxOptions {
  /** Finds the utterances. */
  vad: Vad;
  /** Default `pocketsphinx_batch` (from PATH). */
  binary?: string;
  /** Acoustic model folder, language model and dictionary; default: the binary's (the en-us model). */
  hmm?: string;
  lm?: string;
  dict?: string;
  extraArgs?: string[];
  /** Processes at once; at most os.availableParallelism(). Default 2. */
  concurrency?: number;
  /** Longer speech segments are split (utterances.ts). Default 30 s. */
  maxUtteranceSeconds?: number;
  /** Kills a process after this long. Default: 4 x its audio + 60 s. */
  timeoutMs?: number;
  /** Where the control and CTM files go (a temporary folder inside it). Default: the OS temp dir. */
  tmpDir?: string;
}

/** The argv after the binary (pure): decode the utterances of `<dir>/<name>.wav` listed in `ctl`, words to `ctm`. */
export function buildPocketsphinxArgs(
  files: { dir: string; ctl: string; ctm: string; headerBytes: number },
  opts: Pick<PocketsphinxOptions, 'hmm' | 'lm' | 'dict' | 'extraArgs'> = {},
): string[] {
  const args = ['-adcin', 'yes', '-adchdr', String(files.headerBytes), '-cepdir', files.dir, '-cepext', '.wav', '-ctl', files.ctl, '-ctm', files.ctm];
  if (opts.hmm) args.push('-hmm', opts.hmm);
  if (opts.lm) args.push('-lm', opts.lm);
  if (opts.dict) args.push('-dict', opts.dict);
  return [...args, ...(opts.extraArgs ?? [])];
}

/**
 * Words of a CTM in absolute time (pure): each word moved by its utterance's first frame, then the
 * words of each utterance grouped into segments at pauses of a second or more (or past 30 s).
 */
export function wordsFromCtm(ctm: string, utterances: readonly UtteranceFrames[]): AsrResult {
  const firstFrame = new Map(utterances.map((u) => [u.id, u.first]));
  const byUtterance = new Map<string, AsrWord[]>();
  for (const w of parseCtm(ctm)) {
    const first = firstFrame.get(w.utterance);
    if (first === undefined) continue;
    const offset = first / FRAME_RATE;
    const list = byUtterance.get(w.utterance) ?? [];
    list.push({ start: Math.round((offset + w.start) * 1000) / 1000, end: Math.round((offset + w.end) * 1000) / 1000, text: w.text, confidence: w.confidence });
    byUtterance.set(w.utterance, list);
  }
  const segments = utterances.flatMap((u) => {
    const words = (byUtterance.get(u.id) ?? []).sort((a, b) => a.start - b.start);
    return words.length ? groupWords(words, { gapSeconds: 1, maxSeconds: 30, minWords: Number.MAX_SAFE_INTEGER }) : [];
  });
  return { language: 'en', segments, words: segments.flatMap((s) => s.words) };
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('transcription aborted', 'AbortError');
}

export class PocketsphinxEngine implements AsrEngine {
  readonly name = 'pocketsphinx';

  constructor(private readonly opts: PocketsphinxOptions) {}

  supportsLanguage(lang: string): boolean {
    const l = normalizeLanguage(lang);
    return l === undefined || l === 'en';
  }

  async transcribe(wavPath: string, opts: AsrTranscribeOptions = {}): Promise<AsrResult> {
    if (opts.language !== undefined && !this.supportsLanguage(opts.language)) {
      throw new AsrError('ASR_LANGUAGE_UNSUPPORTED', `pocketsphinx transcribes English only (asked: ${opts.language})`);
    }
    if (opts.signal?.aborted) throw abortError(opts.signal);
    let info: WavInfo;
    try {
      info = await readWavInfo(wavPath);
      assertAsrWav(info);
    } catch (err) {
      if (err instanceof WavFormatError) throw new AsrError('ASR_BAD_AUDIO', `${path.basename(wavPath)}: ${err.message}`);
      throw err;
    }
    const empty: AsrResult = { language: 'en', words: [], segments: [] };
    if (info.duration === 0) return empty;

    const speech = await this.opts.vad.detect(wavPath, { signal: opts.signal }).catch((err: unknown) => {
      throw err instanceof VadError ? new AsrError('ASR_ENGINE_FAILED', `voice detection failed: ${err.message}`) : err;
    });
    const maxSeconds = this.opts.maxUtteranceSeconds ?? 30;
    const levels = speech.some((s) => s.end - s.start > maxSeconds) ? await frameLevels(wavPath, info, 1 / FRAME_RATE) : undefined;
    const utterances = planUtterances(speech, info.duration, { maxSeconds, levels });
    if (!utterances.length) return empty;
    const workers = Math.max(1, Math.min(this.opts.concurrency ?? 2, os.availableParallelism()));
    const groups = groupUtterances(utterances, workers);

    const dir = await fs.mkdtemp(path.join(this.opts.tmpDir ?? os.tmpdir(), 'cutroom-ps-'));
    try {
      // The binary appends `.wav` to the name in the control file and reads it under -cepdir.
      await fs.symlink(path.resolve(wavPath), path.join(dir, 'audio.wav'));
      const ctms = await mapLimit(
        groups,
        workers,
        async (group, i) => {
          const ctl = path.join(dir, `${i}.ctl`);
          const ctm = path.join(dir, `${i}.ctm`);
          await fs.writeFile(ctl, controlFile('audio', group));
          const seconds = group.reduce((n, u) => n + (u.last - u.first), 0) / FRAME_RATE;
          await this.run(
            buildPocketsphinxArgs({ dir, ctl, ctm, headerBytes: info.dataOffset }, this.opts),
            this.opts.timeoutMs ?? seconds * 4000 + 60_000,
            opts.signal,
          );
          return fs.readFile(ctm, 'utf8');
        },
        opts.signal,
      );
      return wordsFromCtm(ctms.join('\n'), utterances);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  private run(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const bin = this.opts.binary ?? 'pocketsphinx_batch';
    return new Promise<void>((resolve, reject) => {
      const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      runAtJobPriority(child);
      const errTail: string[] = [];
      let why: 'timeout' | 'aborted' | undefined;
      child.stderr.setEncoding('utf8');
      let partial = '';
      child.stderr.on('data', (c: string) => {
        const lines = (partial + c).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (/^(ERROR|FATAL)/.test(line)) errTail.push(line.trim());
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
        // The binary exits 0 after an utterance it could not read; its error line tells.
        if (code !== 0 || errTail.length)
          return reject(new AsrError('ASR_ENGINE_FAILED', `${bin} exited with ${code ?? sig}: ${errTail.join(' | ') || 'no error message'}`));
        resolve();
      });
    });
  }
}
