import path from 'node:path';
import type { SileroVad } from '../../src/adapters/vad/silero.vad.js';
import { createAsrEngine } from '../../src/adapters/asr/asr.factory.js';
import { loadAsrConfig } from '../../src/config/asr.env.js';
import { WordNetLexicon } from '../../src/adapters/lexicon/wordnet.lexicon.js';
import { isOpeningWords } from '../../src/domain/highlights/explain.js';
import { pickHighlights } from '../../src/domain/highlights/highlight-engine.js';
import { promptSynonyms } from '../../src/domain/highlights/matching.js';
import type { HighlightClip, TimedWord } from '../../src/ports/highlights.js';
import { makeSpeechWav, VOICES, type PlacedPart, type SpeechPart } from '../../test/helpers/speech-fixtures.js';
import { FILLER, STRONG } from '../../test/unit/highlights-fixture.js';

/**
 * Clip-pick quality on a talk the harness builds: two known highlight passages (hooks, numbers,
 * emotion, a payoff) among plain narration, spoken by espeak-ng, transcribed by the embedded engine,
 * then picked by the highlight engine (src/domain/highlights) with the default strategy. The same
 * talk's exact words (each sentence's words spread over its stretch) give the engine's ceiling.
 *
 * - recall@3: share of the highlight passages that one of the three best-rated clips covers (the
 *   clip and the passage share at least half of the shorter of the two);
 * - boundary precision: share of clip starts and ends that fall between sentences (not inside a
 *   spoken sentence, 0.3 s of slack at each end of it);
 * - prompted recall: for each highlight passage, a prompt naming its topic only in other words (WordNet
 *   synonyms: "eateries" for the restaurant story, "slumber" for the sleep one): share of passages the
 *   top-rated clip of that prompt covers;
 * - titles: whether every clip of a run has its own title, and how many titles are the clip's opening words.
 */

/** Per highlight passage: a prompt naming its topic in words the speech never uses. */
const PROMPTS: Record<string, string> = { 'highlight-1': 'the moments about eateries', 'highlight-2': 'find the part about slumber' };

const SECOND = [
  'What if everything you know about sleep is wrong?',
  'Nobody tells you that the biggest mistake is your alarm clock.',
  'I was exhausted for ten years and it nearly destroyed my career.',
  'Then I tried one simple rule, and the results were incredible.',
  'Go to bed at the same time every single night, even on weekends.',
  'Within three weeks my energy doubled, and I have never felt better.',
  'That is the secret, and it costs absolutely nothing.',
];

export interface PickQuality {
  transcript: string;
  clips: number;
  recall_at_3: number;
  boundary_precision: number;
  top_titles: string[];
  /** Share of highlight passages the top clip of their prompt covers. */
  prompted_recall?: number;
  /** Every clip has a title no other clip of the run has. */
  unique_titles: boolean;
  /** Titles that are the clip's opening words. */
  opening_word_titles: number;
}

export interface ClipsEvalResult {
  seconds: number;
  highlights: number;
  runs: PickQuality[];
}

function talk(): SpeechPart[] {
  const parts: SpeechPart[] = [{ silence: 0.5 }];
  const say = (sentences: string[], label: string) => sentences.forEach((s) => parts.push({ say: s, ...VOICES.male, speaker: label }, { silence: 0.8 }));
  say(FILLER.slice(0, 8), 'filler');
  say(STRONG, 'highlight-1');
  say(FILLER.slice(8, 16), 'filler');
  say(SECOND, 'highlight-2');
  say(FILLER.slice(0, 6), 'filler');
  return parts;
}

/** The exact words of the talk, each sentence's words spread evenly over its stretch. */
function referenceWords(parts: readonly PlacedPart[]): TimedWord[] {
  return parts
    .filter((p) => p.kind === 'say')
    .flatMap((p) => {
      const words = p.text!.split(/\s+/);
      const step = (p.end - p.start) / words.length;
      return words.map((text, i) => ({ start: p.start + i * step, end: p.start + (i + 0.9) * step, text }));
    });
}

/** Recall@3 and boundary precision of `clips` (best first) on the talk `parts` (pure). */
export function pickQuality(transcript: string, clips: readonly HighlightClip[], parts: readonly PlacedPart[]): PickQuality {
  const said = parts.filter((p) => p.kind === 'say');
  const passages = [...new Set(said.map((p) => p.speaker!).filter((s) => s.startsWith('highlight')))].map((label) => {
    const ps = said.filter((p) => p.speaker === label);
    return { start: ps[0].start, end: ps[ps.length - 1].end };
  });
  const top = [...clips].sort((a, b) => b.rating - a.rating).slice(0, 3);
  const covers = (c: HighlightClip, h: { start: number; end: number }) =>
    Math.min(c.end, h.end) - Math.max(c.start, h.start) >= 0.5 * Math.min(c.end - c.start, h.end - h.start);
  const found = passages.filter((h) => top.some((c) => covers(c, h))).length;
  const edges = clips.flatMap((c) => [c.start, c.end]);
  const between = edges.filter((t) => !said.some((p) => t > p.start + 0.3 && t < p.end - 0.3)).length;
  return {
    transcript,
    clips: clips.length,
    recall_at_3: passages.length ? found / passages.length : 0,
    boundary_precision: edges.length ? between / edges.length : 0,
    top_titles: top.map((c) => c.title),
    unique_titles: new Set(clips.map((c) => c.title.toLowerCase())).size === clips.length,
    opening_word_titles: clips.filter((c) => isOpeningWords(c.title, c.text)).length,
  };
}

/** The passages (by label) of the talk `parts`. */
function passagesOf(parts: readonly PlacedPart[]): Record<string, { start: number; end: number }> {
  const out: Record<string, { start: number; end: number }> = {};
  for (const p of parts.filter((x) => x.kind === 'say' && x.speaker?.startsWith('highlight'))) {
    const s = (out[p.speaker!] ??= { start: p.start, end: p.end });
    s.start = Math.min(s.start, p.start);
    s.end = Math.max(s.end, p.end);
  }
  return out;
}

/** Share of passages whose prompt's top-rated clip covers them (at least half of the shorter of the two). */
export async function promptedRecall(words: readonly TimedWord[], duration: number, parts: readonly PlacedPart[], lexicon: WordNetLexicon): Promise<number> {
  const passages = passagesOf(parts);
  let found = 0;
  for (const [label, h] of Object.entries(passages)) {
    const prompt = PROMPTS[label];
    const [top] = pickHighlights({ words: [...words], duration, prompt, synonyms: await promptSynonyms(prompt, lexicon) });
    if (top && Math.min(top.end, h.end) - Math.max(top.start, h.start) >= 0.5 * Math.min(top.end - top.start, h.end - h.start)) found++;
  }
  return Object.keys(passages).length ? found / Object.keys(passages).length : 0;
}

export async function evalClips(dir: string, vad: SileroVad, log: (line: string) => void): Promise<ClipsEvalResult> {
  const fx = await makeSpeechWav(path.join(dir, 'labelled-talk.wav'), talk());
  const runs: PickQuality[] = [];
  const lexicon = new WordNetLexicon();
  const exact = referenceWords(fx.parts);
  runs.push({
    ...pickQuality('exact words', pickHighlights({ words: exact, duration: fx.duration }), fx.parts),
    prompted_recall: await promptedRecall(exact, fx.duration, fx.parts, lexicon),
  });
  const asr = await createAsrEngine(loadAsrConfig({}), { vad }).transcribe(fx.path, { language: 'en' });
  runs.push({
    ...pickQuality('pocketsphinx', pickHighlights({ words: asr.words, duration: fx.duration }), fx.parts),
    prompted_recall: await promptedRecall(asr.words, fx.duration, fx.parts, lexicon),
  });
  for (const r of runs)
    log(
      `  ${r.transcript}: recall@3 ${(100 * r.recall_at_3).toFixed(0)} %, with a prompt ${(100 * (r.prompted_recall ?? 0)).toFixed(0)} %, ` +
        `boundary precision ${(100 * r.boundary_precision).toFixed(0)} % (${r.clips} clips), titles ${r.unique_titles ? 'all different' : 'REPEATED'}, ` +
        `${r.opening_word_titles} opening-word titles; top: ${r.top_titles.join(' | ')}`,
    );
  return { seconds: Math.round(fx.duration), highlights: 2, runs };
}
