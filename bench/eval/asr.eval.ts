import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createAsrEngine } from '../../src/adapters/asr/asr.factory.js';
import { mapLimit } from '../../src/adapters/asr/chunking.js';
import { parseCtm } from '../../src/adapters/asr/pocketsphinx.ctm.js';
import type { SileroVad } from '../../src/adapters/vad/silero.vad.js';
import { loadAsrConfig } from '../../src/config/asr.env.js';
import { STOPWORDS } from '../../src/domain/highlights/lexicon.js';
import type { AsrWord } from '../../src/ports/asr.js';
import {
  makeSpeechWav,
  TALK_SENTENCES,
  TESTDATA_CLIPS,
  TESTDATA_SETS,
  VOICES,
  type SpeechPart,
  type TestdataClipName,
  type Voice,
} from '../../test/helpers/speech-fixtures.js';
import { correctWords, errorRate, wordErrors, type WordErrors } from '../../test/helpers/wer.js';

/**
 * Word error rate of the embedded engine on every speech set the machine can make, beside the two
 * ways of running pocketsphinx it replaces or copies: `pocketsphinx_continuous` on each file (the
 * engine before) and `pocketsphinx_batch` on each whole file (what the engine copies).
 */

const exec = promisify(execFile);
const RATE = 16000;
const FRAME = 160;
/** Sub-frame shifts (samples) the human recordings are decoded at: pocketsphinx hears a shift of a fraction of a frame. */
export const SHIFTS = [0, 40, 80, 120];
const CLIPS = Object.values(TESTDATA_SETS).flat();
const SETS = Object.keys(TESTDATA_SETS) as Array<keyof typeof TESTDATA_SETS>;

type Decoder = 'engine' | 'batch' | 'continuous';
export interface RateRange {
  /** Errors / words over every shift together. */
  wer: number;
  min: number;
  max: number;
}
export interface AsrEvalResult {
  human: { words: number; shifts: number[]; sets: Record<string, Record<Decoder, RateRange>> };
  looped: { seconds: number; words: number; engine: number };
  espeak: Array<{ voice: string; words: number; engine: number; continuous: number }>;
  confidence: { threshold: number; content_words: number; low: number; wrong_when_low: number; wrong_when_high: number; wrong_flagged: number };
  engine_rtf: number;
}

const hyp = (words: readonly { text: string }[]) => words.map((w) => w.text).join(' ');

/** pocketsphinx_continuous's hypothesis of a file: the text lines of its stdout. */
async function continuous(file: string): Promise<string> {
  const { stdout } = await exec('pocketsphinx_continuous', ['-infile', file], { maxBuffer: 1 << 26 });
  return stdout
    .split('\n')
    .filter((l) => l.trim() && !/^INFO|^ERROR|^WARN/.test(l))
    .join(' ');
}

/** pocketsphinx_batch on whole files (44-byte WAV headers) of one folder: words per file. */
async function batch(folder: string, names: readonly string[]): Promise<Map<string, string>> {
  fs.writeFileSync(path.join(folder, 'ctl'), names.map((n) => `${n}\n`).join(''));
  await exec(
    'pocketsphinx_batch',
    ['-adcin', 'yes', '-adchdr', '44', '-cepdir', folder, '-cepext', '.wav', '-ctl', path.join(folder, 'ctl'), '-ctm', path.join(folder, 'ctm')],
    { maxBuffer: 1 << 26 },
  );
  const out = new Map(names.map((n) => [n, [] as string[]]));
  for (const w of parseCtm(fs.readFileSync(path.join(folder, 'ctm'), 'utf8'))) out.get(w.utterance)?.push(w.text);
  return new Map([...out].map(([n, ws]) => [n, ws.join(' ')]));
}

const range = (parts: WordErrors[][]): RateRange => {
  const each = parts.map((p) => errorRate(p));
  return { wer: errorRate(parts.flat()), min: Math.min(...each), max: Math.max(...each) };
};

export async function evalAsr(dir: string, vad: SileroVad, log: (line: string) => void): Promise<AsrEvalResult> {
  const engine = createAsrEngine(loadAsrConfig({}), { vad });
  const errs: Record<Decoder, Array<Map<TestdataClipName, WordErrors>>> = { engine: [], batch: [], continuous: [] };
  const sure: Array<{ right: boolean; confidence: number }> = [];
  let engineSeconds = 0;
  let engineMs = 0;
  for (const shift of SHIFTS) {
    const folder = path.join(dir, `human-${shift}`);
    fs.mkdirSync(folder, { recursive: true });
    // Each recording alone, `shift` samples of silence before it; and all of them in one file, each
    // starting `shift` samples after a 10 ms frame boundary.
    const lengths: number[] = [];
    for (const c of CLIPS)
      lengths.push(Math.round((await makeSpeechWav(path.join(folder, `${c}.wav`), [{ silence: shift / RATE }, { testdata: c }])).duration * RATE) - shift);
    const joined = await makeSpeechWav(path.join(folder, 'all.wav'), [
      { silence: 0.5 + shift / RATE },
      ...CLIPS.flatMap((c, i): SpeechPart[] => [{ testdata: c }, { silence: 1 + ((FRAME - (lengths[i] % FRAME)) % FRAME) / RATE }]),
    ]);
    const t0 = Date.now();
    const r = await engine.transcribe(joined.path, { language: 'en' });
    engineMs += Date.now() - t0;
    engineSeconds += joined.duration;
    const spans = joined.parts.filter((p) => p.kind === 'testdata');
    const engineErrs = new Map<TestdataClipName, WordErrors>();
    CLIPS.forEach((c, i) => {
      const said = r.words.filter((w) => (w.start + w.end) / 2 >= spans[i].start - 0.3 && (w.start + w.end) / 2 < spans[i].end + 0.3);
      engineErrs.set(c, wordErrors(TESTDATA_CLIPS[c].text, hyp(said)));
      const right = correctWords(
        TESTDATA_CLIPS[c].text,
        said.map((w) => w.text),
      );
      said.forEach((w, k) => {
        if (!STOPWORDS.has(w.text) && w.confidence !== undefined) sure.push({ right: right[k], confidence: w.confidence });
      });
    });
    errs.engine.push(engineErrs);
    const b = await batch(folder, CLIPS);
    errs.batch.push(new Map(CLIPS.map((c) => [c, wordErrors(TESTDATA_CLIPS[c].text, b.get(c)!)])));
    const cont = await mapLimit(CLIPS, 2, (c) => continuous(path.join(folder, `${c}.wav`)));
    errs.continuous.push(new Map(CLIPS.map((c, i) => [c, wordErrors(TESTDATA_CLIPS[c].text, cont[i])])));
    log(`  human recordings, shift ${shift} samples: engine ${(100 * errorRate([...engineErrs.values()])).toFixed(1)} %`);
  }
  const sets: AsrEvalResult['human']['sets'] = {};
  for (const set of [...SETS, 'all'] as const) {
    const names = set === 'all' ? CLIPS : TESTDATA_SETS[set];
    const of = (d: Decoder) => range(errs[d].map((m) => names.map((n) => m.get(n)!)));
    sets[set] = { engine: of('engine'), batch: of('batch'), continuous: of('continuous') };
  }

  // The upload: the five librivox clips joined with 1 s gaps and looped to 89 s.
  const librivox: SpeechPart[] = TESTDATA_SETS.librivox.flatMap((c): SpeechPart[] => [{ testdata: c }, { silence: 1 }]);
  const loopedFile = await makeSpeechWav(path.join(dir, 'looped.wav'), [...librivox, ...librivox, ...librivox]);
  const loopedRef = Array(3)
    .fill(TESTDATA_SETS.librivox.map((c) => TESTDATA_CLIPS[c].text).join(' '))
    .join(' ');
  const looped = await engine.transcribe(loopedFile.path, { language: 'en' });
  const loopedErr = wordErrors(loopedRef, hyp(looped.words));
  log(`  librivox looped (${loopedFile.duration.toFixed(0)} s): engine ${(100 * errorRate([loopedErr])).toFixed(1)} %`);

  const voices: Array<[string, Voice]> = [
    ['klatt male (VOICES.male)', VOICES.male],
    ['klatt2 female (VOICES.female)', VOICES.female],
    ['m3', VOICES.male3],
    ['f3', VOICES.female3],
    ['en-us', { voice: 'en-us', speed: 150 }],
  ];
  const espeak: AsrEvalResult['espeak'] = [];
  for (const [name, v] of voices) {
    const parts: SpeechPart[] = [
      { silence: 0.5 },
      ...TALK_SENTENCES.flatMap((say): SpeechPart[] => [{ say, voice: v.voice, pitch: v.pitch, speed: v.speed }, { silence: 1.2 }]),
    ];
    const fx = await makeSpeechWav(path.join(dir, `espeak-${v.voice.replace(/\W/g, '_')}.wav`), parts);
    const ref = TALK_SENTENCES.join(' ');
    const words: AsrWord[] = (await engine.transcribe(fx.path, { language: 'en' })).words;
    const e = wordErrors(ref, hyp(words));
    espeak.push({ voice: name, words: e.words, engine: errorRate([e]), continuous: errorRate([wordErrors(ref, await continuous(fx.path))]) });
    log(
      `  espeak-ng ${name}: engine ${(100 * espeak[espeak.length - 1].engine).toFixed(1)} %, continuous ${(100 * espeak[espeak.length - 1].continuous).toFixed(1)} %`,
    );
  }

  const threshold = 0.5;
  const low = sure.filter((w) => w.confidence < threshold);
  const high = sure.filter((w) => w.confidence >= threshold);
  const wrong = sure.filter((w) => !w.right);
  const share = (xs: typeof sure) => (xs.length ? xs.filter((w) => !w.right).length / xs.length : 0);
  return {
    human: { words: CLIPS.reduce((n, c) => n + errs.engine[0].get(c)!.words, 0), shifts: SHIFTS, sets },
    looped: { seconds: Math.round(loopedFile.duration), words: loopedErr.words, engine: errorRate([loopedErr]) },
    espeak,
    confidence: {
      threshold,
      content_words: sure.length,
      low: low.length,
      wrong_when_low: share(low),
      wrong_when_high: share(high),
      wrong_flagged: wrong.length ? wrong.filter((w) => w.confidence < threshold).length / wrong.length : 0,
    },
    engine_rtf: engineMs / 1000 / engineSeconds,
  };
}
