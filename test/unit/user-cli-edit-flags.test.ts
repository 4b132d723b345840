import { describe, expect, it } from 'vitest';
import { deriveBody } from '../../src/main/user-cli/commands.js';
import { parseFix, parseIndexList, parseMinSilence, parseTrim, parseZoom } from '../../src/main/user-cli/edit-flags.js';

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

  it('--min-silence S (0.3 to 10) and --zoom Z (1 to 3)', () => {
    expect(parseMinSilence('0.8')).toBe(0.8);
    expect(parseMinSilence(' 10 ')).toBe(10);
    for (const bad of ['0.1', '11', 'soon', '-1', '']) expect(() => parseMinSilence(bad), bad).toThrow('seconds from 0.3 to 10');
    expect(parseZoom('1.5')).toBe(1.5);
    expect(parseZoom('3')).toBe(3);
    for (const bad of ['0.5', '3.5', 'x', '1,5']) expect(() => parseZoom(bad), bad).toThrow('subtle, none or a factor from 1 to 3');
    expect(parseZoom('subtle')).toBe('subtle');
    expect(parseZoom('None')).toBe('none');
  });

  it('deriveBody: --remove-silences is true, --min-silence asks for its length (and implies it), --zoom is sent as zoom', () => {
    const none = { snap: true, captions: true };
    expect(deriveBody('edit_1', none)).toEqual({ base_edit_id: 'edit_1' });
    expect(deriveBody('edit_1', { ...none, removeSilences: true })).toEqual({ base_edit_id: 'edit_1', remove_silences: true });
    expect(deriveBody('edit_1', { ...none, removeSilences: true, minSilence: 1.2 })).toEqual({ base_edit_id: 'edit_1', remove_silences: { min_seconds: 1.2 } });
    expect(deriveBody('edit_1', { ...none, minSilence: 2 })).toEqual({ base_edit_id: 'edit_1', remove_silences: { min_seconds: 2 } });
    expect(deriveBody('edit_1', { ...none, zoom: 1.5 })).toEqual({ base_edit_id: 'edit_1', zoom: 1.5 });
    expect(deriveBody('edit_1', { ...none, zoom: 'subtle', reframe: 'split' })).toEqual({ base_edit_id: 'edit_1', zoom: 'subtle', reframe: 'split' });
  });
});
