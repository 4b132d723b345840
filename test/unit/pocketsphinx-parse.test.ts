import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPocketsphinxArgs, isFiller, parsePocketsphinxOutput, PocketsphinxEngine, stripAlternate } from '../../src/adapters/asr/pocketsphinx.asr.js';

// Real stdout of `pocketsphinx_continuous -infile <wav> -time yes` (Debian 0.8+5prealpha), captured on
// a generated talk (espeak-ng + pocketsphinx-testdata) and on the five librivox clips concatenated.
const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../fixtures/asr', name), 'utf8');

describe('parsePocketsphinxOutput on captured output', () => {
  it('turns each utterance into a segment and drops markers and alternate-pronunciation suffixes', () => {
    const r = parsePocketsphinxOutput(fixture('pocketsphinx-talk.txt'));
    expect(r.segments.map((s) => s.text)).toEqual([
      'hello and welcome back to the show',
      'he was not until this blows young man',
      'why do most people never start',
    ]);
    expect(r.words).toHaveLength(7 + 8 + 6);
    expect(r.words.some((w) => /[<>()[\]]/.test(w.text))).toBe(false);
    expect(r.words[0]).toEqual({ start: 0.51, end: 0.83, text: 'hello', confidence: 0.194312 });
    // `and(2)` -> `and`, `to(3)` -> `to`
    expect(r.words[1]).toMatchObject({ text: 'and', start: 0.84, end: 1.04 });
    expect(r.segments[0]).toMatchObject({ start: 0.51, end: 2.56 });
    expect(r.segments[2]).toMatchObject({ start: 9.42, end: 11.57 });
  });

  it('keeps times increasing and confidences within 0..1 (the binary prints 1.0002)', () => {
    for (const name of ['pocketsphinx-talk.txt', 'pocketsphinx-librivox.txt']) {
      const { words } = parsePocketsphinxOutput(fixture(name));
      for (let i = 0; i < words.length; i++) {
        expect(words[i].end).toBeGreaterThanOrEqual(words[i].start);
        if (i) expect(words[i].start).toBeGreaterThanOrEqual(words[i - 1].end);
        expect(words[i].confidence).toBeGreaterThanOrEqual(0);
        expect(words[i].confidence).toBeLessThanOrEqual(1);
      }
      expect(words.find((w) => w.text === 'welcome')?.confidence ?? 1).toBe(1);
    }
  });

  it('reads the three librivox utterances, words like "s." included', () => {
    const r = parsePocketsphinxOutput(fixture('pocketsphinx-librivox.txt'));
    expect(r.segments).toHaveLength(3);
    expect(r.words).toHaveLength(73);
    expect(r.segments[0].text.startsWith('and mr john s. would')).toBe(true);
    expect(r.segments[1].text).toBe('he was not until this blows young man');
    expect(r.words.map((w) => w.text)).not.toContain('to(3)');
  });
});

describe('parsePocketsphinxOutput edge cases', () => {
  it('drops noise fillers, survives CRLF and blank hypothesis lines, ignores stray text', () => {
    const out = [
      'INFO: something the binary printed',
      '',
      '<s> 0.000 0.100 1.000000',
      '[NOISE] 0.110 0.400 0.500000',
      '++BREATH++ 0.410 0.500 0.500000',
      '+NSN+ 0.510 0.600 0.500000',
      '</s> 0.610 0.700 1.000000',
      'go forward ten meters',
      '<s> 1.000 1.100 1.0\r',
      'go 1.110 1.300 0.9\r',
      'forward(2) 1.310 1.800 0.8\r',
      '[SPEECH] 1.810 1.900 0.2\r',
      'ten 1.910 2.100 2.5e-1\r',
      'meters 2.110 2.600 0.7\r',
      '</s> 2.610 2.700 1.0\r',
    ].join('\n');
    const r = parsePocketsphinxOutput(out);
    expect(r.segments).toHaveLength(1);
    expect(r.segments[0]).toMatchObject({ text: 'go forward ten meters', start: 1.11, end: 2.6 });
    expect(r.words.map((w) => w.confidence)).toEqual([0.9, 0.8, 0.25, 0.7]);
  });

  it('splits a long utterance at a pause of a second or more', () => {
    const out = ['<s> 0 0.1 1', 'one 0.2 0.5 1', 'two 0.6 0.9 1', '<sil> 0.9 2.2 1', 'three 2.2 2.6 1', '</s> 2.6 2.7 1'].join('\n');
    expect(parsePocketsphinxOutput(out).segments.map((s) => s.text)).toEqual(['one two', 'three']);
  });

  it('answers nothing for output without words', () => {
    expect(parsePocketsphinxOutput('')).toEqual({ words: [], segments: [] });
    expect(parsePocketsphinxOutput('\n<s> 0.0 0.5 1.0\n</s> 0.5 1.0 1.0\n')).toEqual({ words: [], segments: [] });
  });

  it('classifies tokens', () => {
    for (const t of ['<s>', '</s>', '<sil>', '[NOISE]', '[SPEECH]', '++UH++', '+NSN+']) expect(isFiller(t)).toBe(true);
    for (const t of ['hello', "don't", 's.', 'read(2)']) expect(isFiller(t)).toBe(false);
    expect(stripAlternate('read(2)')).toBe('read');
    expect(stripAlternate('to(12)')).toBe('to');
    expect(stripAlternate('hello')).toBe('hello');
  });
});

describe('PocketsphinxEngine', () => {
  it('builds the argv', () => {
    expect(buildPocketsphinxArgs('/tmp/a.wav')).toEqual(['-infile', '/tmp/a.wav', '-time', 'yes']);
    expect(buildPocketsphinxArgs('/tmp/a.wav', { hmm: '/m', lm: '/m.lm', dict: '/m.dic', extraArgs: ['-beam', '1e-60'] })).toEqual([
      '-infile', '/tmp/a.wav', '-time', 'yes', '-hmm', '/m', '-lm', '/m.lm', '-dict', '/m.dic', '-beam', '1e-60',
    ]);
  });

  it('supports English only, auto meaning English', () => {
    const e = new PocketsphinxEngine();
    for (const l of ['en', 'EN', 'en-US', 'en_GB', 'auto', '']) expect(e.supportsLanguage(l)).toBe(true);
    for (const l of ['fr', 'de-DE', 'es']) expect(e.supportsLanguage(l)).toBe(false);
  });
});
