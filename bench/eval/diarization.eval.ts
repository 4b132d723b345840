import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from '../../test/helpers/app.js';
import { makeSpeechWav, talkScript, type PlacedPart, type SpeechPart } from '../../test/helpers/speech-fixtures.js';

/**
 * Diarization error rate of the speaker labels the service gives (POST /transcriptions with
 * `speaker_labels`, through its public wiring: upload, transcription job, transcript cues), on
 * conversations of known speakers.
 *
 * DER = (missed speech + false alarm + speaker confusion) / reference speech, counted in 10 ms frames,
 * with the usual 0.25 s collar around every reference boundary left out, after the one-to-one mapping
 * of labels to speakers that agrees on the most frames. A cue stands for its whole span.
 */

export interface Turn {
  start: number;
  end: number;
  speaker: string;
}

export interface DerResult {
  conversation: string;
  seconds: number;
  speakers: number;
  labels: number;
  der: number;
  missed: number;
  false_alarm: number;
  confusion: number;
}

const STEP = 0.01;

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** DER of `hyp` turns against `ref` turns over [0, duration] (pure). */
export function diarizationErrorRate(ref: readonly Turn[], hyp: readonly Turn[], duration: number, collar = 0.25): Omit<DerResult, 'conversation' | 'seconds'> {
  const n = Math.ceil(duration / STEP);
  const at = (turns: readonly Turn[], t: number) => turns.find((u) => u.start <= t && t < u.end)?.speaker;
  const edges = ref.flatMap((u) => [u.start, u.end]);
  const speakers = [...new Set(ref.map((u) => u.speaker))];
  const labels = [...new Set(hyp.map((u) => u.speaker))];
  const frames: Array<[string | undefined, string | undefined]> = [];
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) * STEP;
    if (edges.some((e) => Math.abs(e - t) < collar)) continue;
    frames.push([at(ref, t), at(hyp, t)]);
  }
  // The mapping of labels to speakers agreeing on the most frames (labels beyond the speakers map to none).
  const slots = [...speakers, ...Array(Math.max(0, labels.length - speakers.length)).fill(undefined)];
  let best = new Map<string, string | undefined>();
  let bestAgree = -1;
  for (const p of permutations(slots).slice(0, 50_000)) {
    const map = new Map(labels.map((l, i) => [l, p[i]]));
    const agree = frames.filter(([r, h]) => r !== undefined && h !== undefined && map.get(h) === r).length;
    if (agree > bestAgree) [best, bestAgree] = [map, agree];
  }
  let speech = 0;
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  for (const [r, h] of frames) {
    if (r !== undefined) speech++;
    if (r !== undefined && h === undefined) missed++;
    else if (r === undefined && h !== undefined) falseAlarm++;
    else if (r !== undefined && h !== undefined && best.get(h) !== r) confusion++;
  }
  const rate = (x: number) => (speech ? x / speech : 0);
  return {
    speakers: speakers.length,
    labels: labels.length,
    der: rate(missed + falseAlarm + confusion),
    missed: rate(missed),
    false_alarm: rate(falseAlarm),
    confusion: rate(confusion),
  };
}

const SENTENCES = [
  'Good morning, and welcome to the weekly planning meeting.',
  'Thanks. I want to start with the budget for the next quarter.',
  'Sure. We spent a little more than expected on travel last month.',
  'That is fine, as long as the conference brought us new customers.',
  'It did. We signed three new contracts in the first week.',
  'Great. Then let us keep the travel budget as it is for now.',
];

/**
 * A longer meeting of three voices (about four minutes): turns of one to four sentences in an uneven
 * order, as people talk, so a speaker comes back after minutes and says different things each time.
 */
const MEETING: Array<[speaker: 'm3' | 'f3' | 'klatt', text: string]> = [
  ['m3', 'Let us get started. We have three things to decide today, and not much time.'],
  ['f3', 'First the launch date. The team thinks the end of next month is realistic.'],
  ['f3', 'The design work is done, and the last tests run this week.'],
  ['klatt', 'I am not so sure. The supplier still has not confirmed the packaging.'],
  ['klatt', 'Without the boxes we cannot ship anything, whatever the software says.'],
  ['m3', 'How late could the boxes be, in the worst case?'],
  ['klatt', 'Two weeks, maybe three. They had a fire at one of their plants.'],
  ['f3', 'Then we should plan for the middle of the month after, and say so now.'],
  ['m3', 'Agreed. Moving a date once is fine. Moving it twice looks careless.'],
  ['m3', 'Second point: the price. Marketing wants to start low and raise it later.'],
  ['f3', 'I think that is a mistake. People remember the first price they saw.'],
  ['f3', 'If we start low, every later change feels like a loss to them.'],
  ['f3', 'We should start at the real price and offer a discount to early customers.'],
  ['klatt', 'A discount has an end date, so nobody feels cheated when it stops.'],
  ['m3', 'That makes sense to me. Can finance live with it?'],
  ['klatt', 'Yes, as long as the discount is not more than fifteen percent.'],
  ['klatt', 'Above that, the first year does not pay for the shipping costs.'],
  ['f3', 'Fifteen percent is plenty. Ten would probably work just as well.'],
  ['m3', 'Let us say twelve and look at the numbers again after a month.'],
  ['m3', 'Third point, and the hardest one: hiring for the support team.'],
  ['klatt', 'We need at least two more people before the launch, better three.'],
  ['f3', 'Do we? Last time the first weeks were quiet. The rush came later.'],
  ['klatt', 'Last time we sold a tenth of what we expect now.'],
  ['klatt', 'And the new product has more parts that can go wrong.'],
  ['klatt', 'I would rather have people waiting for calls than calls waiting for people.'],
  ['m3', 'What does it take to train someone? How long before they are useful?'],
  ['f3', 'About three weeks for the basics. The hard cases take months.'],
  ['f3', 'So if we hire in two weeks, they are ready just in time.'],
  ['m3', 'Then let us open two positions now and decide on the third in a month.'],
  ['klatt', 'Fine with me. I will write the job posts today.'],
  ['f3', 'Please mention that we can work from home two days a week. It helps.'],
  ['m3', 'Good. Anything else before we close?'],
  ['klatt', 'Only that the office is closed on Friday for the electricians.'],
  ['f3', 'Then I will book the small meeting room downstairs for the review.'],
  ['m3', 'Thank you both. Same time next week, and send me the notes tonight.'],
];

const MEETING_VOICES = {
  m3: { voice: 'en-us+m3', speed: 150 },
  f3: { voice: 'en-us+f3', speed: 150 },
  klatt: { voice: 'en-us+klatt', pitch: 20, speed: 150 },
} as const;

/** The meeting as speech parts: a pause of 0.4 s inside a turn, 0.7 s between turns. */
function meeting(): SpeechPart[] {
  const parts: SpeechPart[] = [{ silence: 0.6 }];
  MEETING.forEach(([speaker, say], i) => {
    const next = MEETING[i + 1]?.[0];
    parts.push({ say, ...MEETING_VOICES[speaker], speaker }, { silence: next === speaker ? 0.4 : 0.7 });
  });
  return parts;
}

/** The conversations: two synthetic voices, then two synthetic voices and a human reader. */
export function conversations(): Array<{ name: string; parts: SpeechPart[] }> {
  const two: SpeechPart[] = [{ silence: 0.6 }];
  SENTENCES.forEach((say, i) => two.push({ say, voice: i % 2 ? 'en-us+f3' : 'en-us+m3', speed: 150, speaker: i % 2 ? 'f3' : 'm3' }, { silence: 0.5 }));
  const three: SpeechPart[] = [{ silence: 0.6 }];
  const readers = ['austen0870', 'austen0890', 'austen0920'];
  SENTENCES.forEach((say, i) => {
    three.push({ say, voice: i % 2 ? 'en-us+f3' : 'en-us+m3', speed: 150, speaker: i % 2 ? 'f3' : 'm3' }, { silence: 0.5 });
    if (i % 2 === 1) three.push({ testdata: readers[(i - 1) / 2], speaker: 'reader' }, { silence: 0.5 });
  });
  return [
    { name: 'two espeak-ng voices (m3, f3)', parts: two },
    { name: 'two espeak-ng voices and a human reader (librivox)', parts: three },
    { name: 'a meeting of three espeak-ng voices (m3, f3, klatt)', parts: meeting() },
    { name: 'the 4.6-minute talk: two espeak-ng voices and the librivox reader', parts: talkScript(276) },
  ];
}

const turnsOf = (parts: readonly PlacedPart[]): Turn[] =>
  parts.filter((p) => p.kind !== 'silence').map((p) => ({ start: p.start, end: p.end, speaker: p.speaker! }));

export async function evalDiarization(t: TestApp, dir: string, log: (line: string) => void): Promise<DerResult[]> {
  const ws = await t.workspace({ credits: 1000 });
  const out: DerResult[] = [];
  for (const [i, conv] of conversations().entries()) {
    const fx = await makeSpeechWav(path.join(dir, `conversation-${i}.wav`), conv.parts);
    const bytes = fs.readFileSync(fx.path);
    const up = await t.api(ws.key, 'POST', '/transcriptions/upload', {
      file_name: `conversation-${i}.wav`,
      file_size: bytes.length,
      content_type: 'audio/wav',
    });
    const u = new URL(up.body.upload_url);
    await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': 'audio/wav' }, payload: bytes });
    const created = await t.api(ws.key, 'POST', '/transcriptions', { media_id: up.body.media_id, source_language: 'en', speaker_labels: true });
    if (created.status !== 202 && created.status !== 200) throw new Error(`POST /transcriptions answered ${created.status}: ${created.text}`);
    let row = created.body;
    for (const deadline = Date.now() + 600_000; row.status === 'processing' && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 500));
      row = (await t.api(ws.key, 'GET', `/transcriptions/${created.body.id}`)).body;
    }
    if (row.status !== 'ready') throw new Error(`transcription ${row.id} ended ${row.status} (${row.error_code})`);
    const cues: Turn[] = (await t.api(ws.key, 'GET', `/transcriptions/${row.id}/transcript`)).body.cues;
    const r = { conversation: conv.name, seconds: Math.round(fx.duration), ...diarizationErrorRate(turnsOf(fx.parts), cues, fx.duration) };
    out.push(r);
    log(`  ${conv.name}: DER ${(100 * r.der).toFixed(1)} % (${r.labels} labels for ${r.speakers} speakers)`);
  }
  return out;
}
