import { describe, expect, it } from 'vitest';
import { parseFix, parseIndexList, parseTrim } from '../../src/main/user-cli/edit-flags.js';

describe('user CLI edit flags', () => {
  it('--trim START-END in seconds', () => {
    expect(parseTrim('12.4-41')).toEqual({ start: 12.4, end: 41 });
    expect(parseTrim(' 0-7.25 ')).toEqual({ start: 0, end: 7.25 });
    expect(() => parseTrim('41-12.4')).toThrow('after the start');
    expect(() => parseTrim('12.4')).toThrow('<start>-<end>');
    expect(() => parseTrim('a-b')).toThrow('<start>-<end>');
    expect(() => parseTrim('-1-4')).toThrow('<start>-<end>');
  });

  it('--fix INDEX=TEXT, repeatable; an empty text hides the word; the last fix of an index wins', () => {
    const one = parseFix('17=Kubernetes', []);
    expect(one).toEqual([{ index: 17, text: 'Kubernetes' }]);
    expect(parseFix('3=', one)).toEqual([
      { index: 17, text: 'Kubernetes' },
      { index: 3, text: '' },
    ]);
    expect(parseFix('4=a=b c', [])).toEqual([{ index: 4, text: 'a=b c' }]);
    expect(parseFix('17=K8s', one)).toEqual([{ index: 17, text: 'K8s' }]);
    expect(() => parseFix('Kubernetes', [])).toThrow('INDEX=TEXT');
    expect(() => parseFix('x=Kubernetes', [])).toThrow('INDEX=TEXT');
    expect(() => parseFix('-1=a', [])).toThrow('INDEX=TEXT');
  });

  it('--remove-words 3,4,9', () => {
    expect(parseIndexList('3,4,9')).toEqual([3, 4, 9]);
    expect(parseIndexList(' 9, 3 ,3')).toEqual([3, 9]);
    expect(() => parseIndexList('')).toThrow('word indices');
    expect(() => parseIndexList('3,,4')).toThrow('word indices');
    expect(() => parseIndexList('3,x')).toThrow('word indices');
    expect(() => parseIndexList('1.5')).toThrow('word indices');
  });
});
