import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SileroVad } from '../../src/adapters/vad/silero.vad.js';
import { createTestApp } from '../../test/helpers/app.js';
import { speechCacheDir } from '../../test/helpers/speech-fixtures.js';
import { evalAsr, type AsrEvalResult, type RateRange } from './asr.eval.js';
import { evalClips, type ClipsEvalResult } from './clips.eval.js';
import { evalDiarization, type DerResult } from './diarization.eval.js';

/**
 * `npm run eval`: the quality of what the service hears and picks, on every speech set the machine
 * can make (docs/quality.md explains each number). Prints the numbers, writes bench/results/eval.json
 * and the tables of docs/quality.md between its `eval:begin` / `eval:end` markers.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const span = (r: RateRange) => `${pct(r.wer)} (${pct(r.min)}–${pct(r.max)})`;

function tables(asr: AsrEvalResult, der: DerResult[], clips: ClipsEvalResult): string {
  const lines: string[] = [];
  lines.push(
    `Human recordings of pocketsphinx-testdata (${asr.human.words} words), each decoded at ${asr.human.shifts.length} sub-frame shifts (${asr.human.shifts.join(', ')} samples): word error rate over all shifts (lowest–highest shift).`,
    '',
  );
  lines.push(
    '| set | engine (VAD + batch decode) | `pocketsphinx_batch`, whole files | `pocketsphinx_continuous`, whole files (the engine before) |',
    '|---|---|---|---|',
  );
  for (const [set, r] of Object.entries(asr.human.sets)) lines.push(`| ${set} | ${span(r.engine)} | ${span(r.batch)} | ${span(r.continuous)} |`);
  lines.push(
    '',
    `The five librivox clips joined with 1 s gaps and looped to ${asr.looped.seconds} s (${asr.looped.words} words): engine ${pct(asr.looped.engine)}. Engine speed on the human recordings: RTF ${asr.engine_rtf.toFixed(2)}.`,
    '',
  );
  lines.push(
    'espeak-ng voices, the nine talk sentences (`TALK_SENTENCES`) with 1.2 s pauses:',
    '',
    '| voice | words | engine | `pocketsphinx_continuous` |',
    '|---|---|---|---|',
  );
  for (const e of asr.espeak) lines.push(`| ${e.voice} | ${e.words} | ${pct(e.engine)} | ${pct(e.continuous)} |`);
  const c = asr.confidence;
  lines.push(
    '',
    `Confidence as an error signal (engine, human recordings, ${c.content_words} content words): ${c.low} under ${c.threshold}; wrong under it ${pct(c.wrong_when_low)}, wrong at or above it ${pct(c.wrong_when_high)}; ${pct(c.wrong_flagged)} of the wrong content words are under it.`,
    '',
  );
  lines.push(
    'Diarization error rate of the speaker labels (POST /transcriptions with `speaker_labels`, 0.25 s collar):',
    '',
    '| conversation | seconds | speakers | labels | DER | missed | false alarm | confusion |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const d of der)
    lines.push(
      `| ${d.conversation} | ${d.seconds} | ${d.speakers} | ${d.labels} | ${pct(d.der)} | ${pct(d.missed)} | ${pct(d.false_alarm)} | ${pct(d.confusion)} |`,
    );
  lines.push(
    '',
    `Clip picks on the labelled talk (${clips.seconds} s, ${clips.highlights} highlight passages among narration, default strategy):`,
    '',
    '| transcript | clips | recall@3 | recall with a prompt (synonyms) | boundary precision | titles all different | opening-word titles | best three titles |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const r of clips.runs)
    lines.push(
      `| ${r.transcript} | ${r.clips} | ${pct(r.recall_at_3)} | ${r.prompted_recall === undefined ? '–' : pct(r.prompted_recall)} | ${pct(r.boundary_precision)} | ` +
        `${r.unique_titles ? 'yes' : 'no'} | ${r.opening_word_titles} | ${r.top_titles.map((t) => t.replace(/\|/g, '\\|')).join(' · ')} |`,
    );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(speechCacheDir(), 'eval-'));
  const log = (line: string) => console.info(line);
  const vad = new SileroVad();
  try {
    console.info('Word error rate (human recordings, espeak-ng voices) …');
    const asr = await evalAsr(dir, vad, log);
    console.info('Diarization through the API …');
    const t = await createTestApp({ workers: true });
    let der: DerResult[];
    try {
      der = await evalDiarization(t, dir, log);
    } finally {
      await t.close();
    }
    console.info('Clip picks on a labelled talk …');
    const clips = await evalClips(dir, vad, log);

    const at = new Date().toISOString();
    const machine = { cores: os.availableParallelism(), load_average: os.loadavg().map((l) => Number(l.toFixed(2))), node: process.version };
    const results = { at, seconds: Math.round((Date.now() - started) / 1000), machine, asr, diarization: der, clips };
    const json = path.join(ROOT, 'bench/results/eval.json');
    fs.mkdirSync(path.dirname(json), { recursive: true });
    fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);

    const body = tables(asr, der, clips);
    console.info(`\n${body}\n`);
    const doc = path.join(ROOT, 'docs/quality.md');
    const text = fs.readFileSync(doc, 'utf8');
    const begin = '<!-- eval:begin -->';
    const end = '<!-- eval:end -->';
    const a = text.indexOf(begin);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error(`${doc} has no ${begin} … ${end} block`);
    const stamp = `Last run: ${at.slice(0, 10)}, ${machine.cores} cores, load ${machine.load_average[0]}, ${results.seconds} s.`;
    fs.writeFileSync(doc, `${text.slice(0, a + begin.length)}\n${stamp}\n\n${body}\n${text.slice(b)}`);
    console.info(`Wrote ${path.relative(ROOT, json)} and the numbers of ${path.relative(ROOT, doc)}.`);
  } finally {
    await vad.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
