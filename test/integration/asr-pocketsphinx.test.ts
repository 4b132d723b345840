import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAsrEngine } from '../../src/adapters/asr/asr.factory.js';
import { transcribeLong } from '../../src/adapters/asr/chunking.js';
import { PocketsphinxEngine } from '../../src/adapters/asr/pocketsphinx.asr.js';
import { extractAudio } from '../../src/adapters/media/audio-extract.js';
import { loadAsrConfig } from '../../src/config/asr.env.js';
import { AsrError, type AsrEngine, type AsrResult, type AsrWord } from '../../src/ports/asr.js';
import { makeSpeechWav, makeTalkVideo, TALK_SENTENCES, TESTDATA_CLIPS, VOICES, wordErrorRate, type SpeechPart } from '../helpers/speech-fixtures.js';

// Real recognition with Debian's pocketsphinx + pocketsphinx-en-us on generated speech.

const STOP = new Set(['a', 'an', 'and', 'the', 'to', 'of', 'i', 'is', 'we', 'you', 'do', 'this', 'it', 'in', 'have', 'what']);
const contentWords = (s: string) => s.split(/\s+/).filter((w) => w && !STOP.has(w));
const hypText = (r: AsrResult) => r.words.map((w) => w.text).join(' ');

function expectSaneTimes(words: AsrWord[], duration: number) {
  expect(words.length).toBeGreaterThan(0);
  for (let i = 0; i < words.length; i++) {
    expect(words[i].start).toBeGreaterThanOrEqual(0);
    expect(words[i].end).toBeGreaterThanOrEqual(words[i].start);
    expect(words[i].end).toBeLessThanOrEqual(duration + 0.05);
    if (i) expect(words[i].start).toBeGreaterThanOrEqual(words[i - 1].start);
  }
}

function report(what: string, seconds: number, ms: number, extra = '') {
  console.info(`[asr-pocketsphinx] ${what}: ${seconds.toFixed(1)} s of audio in ${(ms / 1000).toFixed(1)} s, RTF ${(ms / 1000 / seconds).toFixed(2)}${extra}`);
}

describe('pocketsphinx engine (real)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-asr-ps-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const engine = new PocketsphinxEngine();

  it('recognises espeak-ng sentences in two voices, each at the time it was said', async () => {
    const sentences = [TALK_SENTENCES[0], TALK_SENTENCES[2], TALK_SENTENCES[6], TALK_SENTENCES[7]];
    const parts: SpeechPart[] = [{ silence: 0.5 }];
    sentences.forEach((say, i) => parts.push({ say, ...(i % 2 ? VOICES.female : VOICES.male) }, { silence: 1.5 }));
    const fx = await makeSpeechWav(path.join(dir, 'espeak.wav'), parts);
    const t0 = Date.now();
    const r = await createAsrEngine(loadAsrConfig({})).transcribe(fx.path, { language: 'en' });
    report('espeak-ng sentences', fx.duration, Date.now() - t0, `, WER ${wordErrorRate(sentences.join(' '), hypText(r)).toFixed(2)}`);
    expect(r.language).toBe('en');
    expectSaneTimes(r.words, fx.duration);

    const expected = sentences.flatMap(contentWords);
    const heard = new Set(r.words.map((w) => w.text));
    const found = expected.filter((w) => heard.has(w));
    expect(found.length / expected.length).toBeGreaterThanOrEqual(0.6);
    expect(wordErrorRate(sentences.join(' '), hypText(r))).toBeLessThan(0.5);

    // each recognised content word of a sentence lies within that sentence's stretch
    const spoken = fx.parts.filter((p) => p.kind === 'say');
    for (const part of spoken) {
      for (const w of contentWords(part.text!)) {
        const hit = r.words.find((x) => x.text === w && x.start >= part.start - 0.3 && x.end <= part.end + 0.3);
        const anywhere = r.words.find((x) => x.text === w);
        if (anywhere && !fx.parts.some((p) => p !== part && p.text?.split(' ').includes(w))) expect(hit, `${w} in "${part.text}"`).toBeDefined();
      }
    }
    expect(r.segments.length).toBeGreaterThanOrEqual(sentences.length - 1);
  });

  it('recognises human read speech from pocketsphinx-testdata', async () => {
    const clips = ['austen0870', 'austen0880', 'austen0890', 'austen0920', 'austen0930'] as const;
    const parts: SpeechPart[] = clips.flatMap((c) => [{ testdata: c }, { silence: 1 }]);
    const fx = await makeSpeechWav(path.join(dir, 'human.wav'), parts);
    const t0 = Date.now();
    const r = await engine.transcribe(fx.path, {});
    const ref = clips.map((c) => TESTDATA_CLIPS[c].text).join(' ');
    const wer = wordErrorRate(ref, hypText(r));
    report('librivox clips', fx.duration, Date.now() - t0, `, WER ${wer.toFixed(2)}`);
    expectSaneTimes(r.words, fx.duration);
    expect(wer).toBeLessThan(0.5);
    const consider = r.words.find((w) => w.text === 'consider');
    expect(consider).toBeDefined();
    expect(consider!.start).toBeGreaterThan(fx.parts[0].start);
    expect(consider!.end).toBeLessThan(fx.parts[0].end);
  });

  it('goes through chunking on a file over 3 minutes and places a late marker at its absolute time', async () => {
    const fillers = TALK_SENTENCES.filter((s) => !s.includes('important'));
    const parts: SpeechPart[] = [{ silence: 1 }];
    for (let i = 0; i < 12; i++) parts.push({ say: fillers[i % fillers.length], ...(i % 2 ? VOICES.female : VOICES.male) }, { silence: 10 + (i % 3) * 2 });
    parts.push({ say: TALK_SENTENCES[2], ...VOICES.male, speaker: 'marker' }, { silence: 6 }, { testdata: 'austen0930' }, { silence: 3 });
    const fx = await makeSpeechWav(path.join(dir, 'long.wav'), parts);
    expect(fx.duration).toBeGreaterThanOrEqual(180);
    const marker = fx.parts.find((p) => p.speaker === 'marker')!;
    expect(marker.start).toBeGreaterThan(120); // beyond the first chunk

    const chunks: number[] = [];
    const counting: AsrEngine = { name: 'ps', supportsLanguage: () => true, transcribe: (p, o) => (chunks.push(1), engine.transcribe(p, o)) };
    const t0 = Date.now();
    const r = await transcribeLong(counting, fx.path, { concurrency: 2 });
    report('3-minute chunked file', fx.duration, Date.now() - t0, ` in ${chunks.length} chunks`);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expectSaneTimes(r.words, fx.duration);
    const important = r.words.filter((w) => w.text === 'important');
    expect(important).toHaveLength(1);
    expect(important[0].start).toBeGreaterThan(marker.start);
    expect(important[0].end).toBeLessThan(marker.end);
    // the human clip after it lands after it too
    const himself = r.words.find((w) => w.text === 'himself');
    if (himself) expect(himself.start).toBeGreaterThan(marker.end);
  }, 600_000);

  it('transcribes the sound of a generated talk video', async () => {
    const fx = await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 0.5 });
    const wav = path.join(dir, 'talk.wav');
    await extractAudio(fx.path, wav);
    const r = await engine.transcribe(wav, { language: 'auto' });
    expectSaneTimes(r.words, fx.duration + 0.1);
    const first = fx.parts.find((p) => p.kind === 'say')!;
    const welcome = r.words.find((w) => w.text === 'welcome');
    expect(welcome).toBeDefined();
    expect(welcome!.start).toBeGreaterThan(first.start - 0.3);
    expect(welcome!.end).toBeLessThan(first.end + 0.3);
  }, 300_000);

  it('refuses other languages, bad audio, and stops when aborted', async () => {
    expect(engine.supportsLanguage('fr')).toBe(false);
    const fx = await makeSpeechWav(path.join(dir, 'abort.wav'), [{ testdata: 'austen0870' }, { silence: 1 }, { testdata: 'austen0920' }]);
    await expect(engine.transcribe(fx.path, { language: 'fr' })).rejects.toMatchObject({ code: 'ASR_LANGUAGE_UNSUPPORTED' });

    const bad = path.join(dir, 'bad.wav');
    fs.writeFileSync(bad, 'not a wav');
    await expect(engine.transcribe(bad, {})).rejects.toBeInstanceOf(AsrError);

    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(new Error('stop now')), 200);
    await expect(engine.transcribe(fx.path, { signal: ac.signal })).rejects.toThrow('stop now');
    expect(Date.now() - t0).toBeLessThan(3000);

    const missing = new PocketsphinxEngine({ binary: '/nonexistent/pocketsphinx_continuous' });
    await expect(missing.transcribe(fx.path, {})).rejects.toMatchObject({ code: 'ASR_ENGINE_FAILED' });
  });
});
