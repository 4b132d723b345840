import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPocketsphinxArgs, PocketsphinxEngine, wordsFromCtm } from '../../src/adapters/asr/pocketsphinx.asr.js';
import { controlFile, isFiller, parseCtm, stripAlternate } from '../../src/adapters/asr/pocketsphinx.ctm.js';
import type { Vad } from '../../src/ports/vad.js';

// Real CTM of `pocketsphinx_batch -adcin yes -ctl … -ctm …` (Debian 0.8+5prealpha) on the librivox
// clips 0870 and 0880 joined with a second of silence, decoded as the utterances u0000 = frames
// 8..674 and u0001 = frames 818..1110 (what the engine's control file lists for that file).
const ctm = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/asr/pocketsphinx-librivox.ctm'), 'utf8');
const UTTERANCES = [
  { id: 'u0000', first: 8, last: 674 },
  { id: 'u0001', first: 818, last: 1110 },
];
const noVad: Vad = { name: 'none', detect: async () => [], close: async () => {} };

describe('parseCtm on captured output', () => {
  it('reads every word with its utterance, times from the utterance start and posterior', () => {
    const words = parseCtm(ctm);
    expect(words).toHaveLength(31);
    expect(
      words
        .filter((w) => w.utterance === 'u0001')
        .map((w) => w.text)
        .join(' '),
    ).toBe('he was not until this blows young man');
    // `u0001 1 0.14 0.10 he 1.000`: the word lasts to the end of its last frame
    expect(words.find((w) => w.utterance === 'u0001')).toEqual({ utterance: 'u0001', start: 0.14, end: 0.25, text: 'he', confidence: 1 });
    expect(words.find((w) => w.text === 'blows')!.confidence).toBe(0.007);
    for (const w of words) {
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
  });
});

describe('parseCtm edge cases', () => {
  it('drops fillers, strips alternates, clamps confidences, survives CRLF and stray lines', () => {
    const out = [
      'INFO: something the binary printed',
      '',
      'u1 1 0.00 0.10 <s> 1.000',
      'u1 1 0.11 0.20 [NOISE] 0.5',
      'u1 1 0.32 0.10 ++BREATH++ 0.5\r',
      'u1 1 0.43 0.30 read(2) 1.0002\r',
      'u1 1 0.74 0.30 ten 2.5e-1',
      'u1 1 abc 0.30 broken 0.5',
      'u1 1 1.05 0.30 too many fields 0.5',
    ].join('\n');
    expect(parseCtm(out)).toEqual([
      { utterance: 'u1', start: 0.43, end: 0.74, text: 'read', confidence: 1 },
      { utterance: 'u1', start: 0.74, end: 1.05, text: 'ten', confidence: 0.25 },
    ]);
    expect(parseCtm('')).toEqual([]);
  });

  it('classifies tokens', () => {
    for (const t of ['<s>', '</s>', '<sil>', '[NOISE]', '[SPEECH]', '++UH++', '+NSN+']) expect(isFiller(t)).toBe(true);
    for (const t of ['hello', "don't", 's.', 'read(2)']) expect(isFiller(t)).toBe(false);
    expect(stripAlternate('read(2)')).toBe('read');
    expect(stripAlternate('to(12)')).toBe('to');
    expect(stripAlternate('hello')).toBe('hello');
  });
});

describe('wordsFromCtm', () => {
  it('puts words at absolute times: utterance first frame + CTM time', () => {
    const r = wordsFromCtm(ctm, UTTERANCES);
    expect(r.language).toBe('en');
    expect(r.words).toHaveLength(31);
    expect(r.segments.map((s) => s.text)).toEqual([
      'but mr john guess would have been at leisure to consider how much there might be prickly in his power to do for',
      'he was not until this blows young man',
    ]);
    // u0001 starts at frame 818 = 8.18 s; "he" at 0.14 s into it
    expect(r.segments[1].words[0]).toEqual({ start: 8.32, end: 8.43, text: 'he', confidence: 1 });
    for (let i = 1; i < r.words.length; i++) expect(r.words[i].start).toBeGreaterThanOrEqual(r.words[i - 1].end - 1e-9);
  });

  it('splits an utterance at a pause of a second or more and ignores unknown utterances', () => {
    const out = ['a 1 0.20 0.30 one 0.9', 'a 1 0.60 0.30 two 0.9', 'a 1 2.00 0.30 three 0.9', 'zz 1 0.00 0.10 ghost 0.9'].join('\n');
    const r = wordsFromCtm(out, [{ id: 'a', first: 100, last: 500 }]);
    expect(r.segments.map((s) => [s.start, s.end, s.text])).toEqual([
      [1.2, 1.91, 'one two'],
      [3, 3.31, 'three'],
    ]);
  });

  it('answers nothing for a CTM without words', () => {
    expect(wordsFromCtm('', UTTERANCES)).toEqual({ language: 'en', words: [], segments: [] });
  });
});

describe('PocketsphinxEngine', () => {
  it('writes the control file and builds the argv', () => {
    expect(controlFile('audio', UTTERANCES)).toBe('audio 8 674 u0000\naudio 818 1110 u0001\n');
    expect(() => controlFile('my audio', UTTERANCES)).toThrow(RangeError);
    const files = { dir: '/tmp/x', ctl: '/tmp/x/0.ctl', ctm: '/tmp/x/0.ctm', headerBytes: 78 };
    expect(buildPocketsphinxArgs(files)).toEqual([
      '-adcin',
      'yes',
      '-adchdr',
      '78',
      '-cepdir',
      '/tmp/x',
      '-cepext',
      '.wav',
      '-ctl',
      '/tmp/x/0.ctl',
      '-ctm',
      '/tmp/x/0.ctm',
    ]);
    expect(buildPocketsphinxArgs(files, { hmm: '/m', lm: '/m.lm', dict: '/m.dic', extraArgs: ['-beam', '1e-60'] }).slice(12)).toEqual([
      '-hmm',
      '/m',
      '-lm',
      '/m.lm',
      '-dict',
      '/m.dic',
      '-beam',
      '1e-60',
    ]);
  });

  it('supports English only, auto meaning English', () => {
    const e = new PocketsphinxEngine({ vad: noVad });
    for (const l of ['en', 'EN', 'en-US', 'en_GB', 'auto', '']) expect(e.supportsLanguage(l)).toBe(true);
    for (const l of ['fr', 'de-DE', 'es', 'pt']) expect(e.supportsLanguage(l)).toBe(false);
  });
});
