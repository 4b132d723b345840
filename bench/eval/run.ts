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
import { evalPortraits, type PortraitEvalResult } from './portrait.eval.js';

/**
 * `npm run eval`: the quality of what the service hears and picks, on every speech set the machine
 * can make, and of the own-face portraits (docs/quality.md explains each number). Prints the numbers,
 * writes bench/results/eval.json and the tables of docs/quality.md between its `eval:begin` / `eval:end`
 * markers (the portraits' between `eval:portraits:begin` / `eval:portraits:end`). `npm run eval -- --only
 * portraits` runs the portrait check alone (a minute) and writes bench/results/eval-portraits.json.
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
    '| conversation | seconds | speakers | labels | speaker count error | DER | missed | false alarm | confusion |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const d of der)
    lines.push(
      `| ${d.conversation} | ${d.seconds} | ${d.speakers} | ${d.labels} | ${d.labels - d.speakers} | ${pct(d.der)} | ${pct(d.missed)} | ${pct(d.false_alarm)} | ${pct(d.confusion)} |`,
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

function portraitTable(p: PortraitEvalResult): string {
  const lines = [
    `Own-face portraits from the six synthetic faces as they are (each fills its frame, so the crop runs past it), vibe \`friendly\`: ${p.with_streaks} with border streaks, ${p.over_clipped} with more clipped face pixels than the photo's share plus 2 points.`,
    '',
    '| face | clipped face pixels, photo | clipped face pixels, portrait | border streaks (longest) | tone shift (levels) |',
    '|---|---|---|---|---|',
  ];
  for (const f of p.faces)
    lines.push(`| face-${f.face} | ${pct(f.photo_clipped)} | ${pct(f.portrait_clipped)} | ${f.streaks} (${f.longest_streak} px) | ${f.tone_shift} |`);
  return lines.join('\n');
}

/** Replaces the text between `<!-- <name>:begin -->` and `<!-- <name>:end -->` in docs/quality.md. */
function writeBlock(name: string, stamp: string, body: string): void {
  const doc = path.join(ROOT, 'docs/quality.md');
  const text = fs.readFileSync(doc, 'utf8');
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${doc} has no ${begin} … ${end} block`);
  fs.writeFileSync(doc, `${text.slice(0, a + begin.length)}\n${stamp}\n\n${body}\n${text.slice(b)}`);
}

function machineNow() {
  return { cores: os.availableParallelism(), load_average: os.loadavg().map((l) => Number(l.toFixed(2))), node: process.version };
}

/** `--only portraits`: the portrait check alone. */
async function portraitsOnly(): Promise<void> {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-eval-'));
  try {
    console.info('Own-face portraits …');
    const portraits = await evalPortraits(dir, (line) => console.info(line));
    const at = new Date().toISOString();
    const machine = machineNow();
    const seconds = Math.round((Date.now() - started) / 1000);
    const json = path.join(ROOT, 'bench/results/eval-portraits.json');
    fs.mkdirSync(path.dirname(json), { recursive: true });
    fs.writeFileSync(json, `${JSON.stringify({ at, seconds, machine, portraits }, null, 2)}\n`);
    const body = portraitTable(portraits);
    console.info(`\n${body}\n`);
    writeBlock('eval:portraits', `Last run: ${at.slice(0, 10)}, ${machine.cores} cores, load ${machine.load_average[0]}, ${seconds} s.`, body);
    console.info(`Wrote ${path.relative(ROOT, json)} and the portrait numbers of docs/quality.md.`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const only = process.argv
    .slice(2)
    .join(' ')
    .match(/--only[= ](\S+)/)?.[1];
  if (only === 'portraits') return portraitsOnly();
  if (only) throw new Error(`--only ${only}: only \`portraits\` runs alone`);
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
    console.info('Own-face portraits …');
    const portraits = await evalPortraits(dir, log);

    const at = new Date().toISOString();
    const machine = { cores: os.availableParallelism(), load_average: os.loadavg().map((l) => Number(l.toFixed(2))), node: process.version };
    const results = { at, seconds: Math.round((Date.now() - started) / 1000), machine, asr, diarization: der, clips, portraits };
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
    const portraitBody = portraitTable(portraits);
    console.info(`\n${portraitBody}\n`);
    writeBlock('eval:portraits', stamp, portraitBody);
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
