import { describe, expect, it } from 'vitest';
import { parseKeywords, parseLength, parsePrompt } from '../../src/main/user-cli/clip-flags.js';

describe('cutroom clip steering flags', () => {
  it('--prompt: trimmed, 1 to 500 characters', () => {
    expect(parsePrompt('  the moments about pricing ')).toBe('the moments about pricing');
    expect(() => parsePrompt('   ')).toThrow('what to look for');
    expect(() => parsePrompt('x'.repeat(501))).toThrow('500');
  });

  it('--keywords a,b: trimmed, repeats (any case) dropped, none empty, at most 20', () => {
    expect(parseKeywords(' price, free  trial ,Price')).toEqual(['price', 'free trial']);
    expect(() => parseKeywords('a,,b')).toThrow('commas');
    expect(() => parseKeywords(Array.from({ length: 21 }, (_, i) => `k${i}`).join(','))).toThrow('20');
  });

  it('--length MIN-MAX within 10–180, or one number', () => {
    expect(parseLength('20-45')).toEqual({ min: 20, max: 45 });
    expect(parseLength(' 30 ')).toEqual({ min: 30, max: 30 });
    expect(() => parseLength('5-30')).toThrow('10 to 180');
    expect(() => parseLength('20-200')).toThrow('10 to 180');
    expect(() => parseLength('50-30')).toThrow('minimum');
    expect(() => parseLength('long')).toThrow('<min>-<max>');
  });
});
