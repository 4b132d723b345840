import { describe, expect, it } from 'vitest';
import {
  EMPTY_DRAFT,
  cutWords,
  deriveBody,
  fixWord,
  hasChanges,
  keepWords,
  mediaToSource,
  newHistory,
  push,
  selectRange,
  setLayout,
  setSwitch,
  shownText,
  sourceToMedia,
  trimEndAt,
  trimStartAt,
  undo,
  wordAt,
  wordState,
  type BaseEdit,
} from '../../web/src/editor/word-ops.js';

// A clip's edit as GET /edits/{id} gives it: source seconds, word indices of the clip's word list (here from 10).
const base: BaseEdit = {
  id: 'edit_base',
  aspect_ratio: '9:16',
  reframe: 'speaker',
  template_id: 'tpl_bold',
  segments: [
    { start: 10, end: 14 },
    { start: 20, end: 23 },
  ],
  words: [
    { index: 10, text: 'we', start: 10.1, end: 10.4 },
    { index: 11, text: 'ship', start: 10.5, end: 11 },
    { index: 12, text: 'um', start: 11.2, end: 11.5 },
    { index: 13, text: 'kubernets', start: 11.6, end: 12.4 },
    { index: 14, text: 'daily', start: 20.2, end: 20.8 },
    { index: 15, text: 'now', start: 21, end: 21.4 },
  ],
};
const w = (index: number) => base.words.find((x) => x.index === index)!;

describe('the editor’s word operations → the body of POST /edits', () => {
  it('an untouched draft changes nothing and makes a body with the base only', () => {
    expect(hasChanges(EMPTY_DRAFT, base)).toBe(false);
    expect(deriveBody(base, EMPTY_DRAFT)).toEqual({ base_edit_id: 'edit_base' });
  });

  it('fix: corrects a word by its index, trimmed; its own text again drops the fix; "" hides it', () => {
    let d = fixWord(EMPTY_DRAFT, base, 13, '  Kubernetes ');
    expect(shownText(d, w(13))).toBe('Kubernetes');
    d = fixWord(d, base, 10, '');
    expect(deriveBody(base, d).word_text).toEqual([
      { index: 10, text: '' },
      { index: 13, text: 'Kubernetes' },
    ]);
    d = fixWord(d, base, 13, 'kubernets');
    expect(deriveBody(base, d).word_text).toEqual([{ index: 10, text: '' }]);
    expect(fixWord(d, base, 99, 'x')).toBe(d);
  });

  it('select + cut: a range in either order, cut once each, ascending in remove_words; keep takes words back', () => {
    expect(selectRange(base.words, 13, 11)).toEqual([11, 12, 13]);
    expect(selectRange(base.words, 11, 11)).toEqual([11]);
    expect(selectRange(base.words, 99, 12)).toEqual([12]);
    let d = cutWords(EMPTY_DRAFT, [13, 12]);
    d = cutWords(d, [12, 11]);
    expect(deriveBody(base, d).remove_words).toEqual([11, 12, 13]);
    expect(wordState(d, w(12))).toBe('cut');
    expect(cutWords(d, [])).toBe(d);
    d = keepWords(d, [12]);
    expect(deriveBody(base, d).remove_words).toEqual([11, 13]);
  });

  it('trim: start at a word’s start, end at a word’s end; the other side defaults to the base’s; words outside are marked', () => {
    const start = trimStartAt(EMPTY_DRAFT, w(11));
    expect(deriveBody(base, start).trim).toEqual({ start: 10.5, end: 23 });
    expect(wordState(start, w(10))).toBe('outside');
    expect(wordState(start, w(11))).toBe('kept');
    const both = trimEndAt(start, w(14));
    expect(deriveBody(base, both).trim).toEqual({ start: 10.5, end: 20.8 });
    expect(wordState(both, w(15))).toBe('outside');
    expect(deriveBody(base, trimEndAt(EMPTY_DRAFT, w(12))).trim).toEqual({ start: 10, end: 11.5 });
    // A start after the end (or an end before the start) replaces the other side rather than making an empty edit.
    expect(trimStartAt(both, w(15))).toMatchObject({ trimStart: 21, trimEnd: null });
    expect(trimEndAt(both, w(10))).toMatchObject({ trimStart: null, trimEnd: 10.4 });
  });

  it('switches and layout: sent only when on or different from the base', () => {
    let d = setSwitch(EMPTY_DRAFT, 'removeFillers', true);
    d = setSwitch(d, 'removeSilences', true);
    d = setLayout(d, { aspectRatio: '9:16', templateId: 'tpl_bold' });
    expect(deriveBody(base, d)).toEqual({ base_edit_id: 'edit_base', remove_fillers: true, remove_silences: true });
    d = setLayout(d, { aspectRatio: '1:1', templateId: 'tpl_clean' });
    d = setSwitch(d, 'removeSilences', false);
    expect(deriveBody(base, d)).toEqual({ base_edit_id: 'edit_base', remove_fillers: true, aspect_ratio: '1:1', template_id: 'tpl_clean' });
    expect(hasChanges(setLayout(EMPTY_DRAFT, { aspectRatio: '9:16' }), base)).toBe(false);
    expect(hasChanges(setLayout(EMPTY_DRAFT, { aspectRatio: '16:9' }), base)).toBe(true);
    expect(deriveBody(base, setLayout(EMPTY_DRAFT, { reframe: 'speaker' }))).toEqual({ base_edit_id: 'edit_base' });
    expect(hasChanges(setLayout(EMPTY_DRAFT, { reframe: 'speaker' }), base)).toBe(false);
    expect(deriveBody(base, setLayout(EMPTY_DRAFT, { reframe: 'split' }))).toEqual({ base_edit_id: 'edit_base', reframe: 'split' });
  });

  it('undo: steps back one change at a time to the untouched draft; a step that changes nothing is not one', () => {
    let h = newHistory();
    h = push(h, fixWord(h.present, base, 13, 'Kubernetes'));
    h = push(h, cutWords(h.present, [12]));
    h = push(h, h.present);
    h = push(h, trimStartAt(h.present, w(11)));
    expect(h.past).toHaveLength(3);
    expect(deriveBody(base, h.present)).toEqual({
      base_edit_id: 'edit_base',
      trim: { start: 10.5, end: 23 },
      remove_words: [12],
      word_text: [{ index: 13, text: 'Kubernetes' }],
    });
    h = undo(h);
    expect(deriveBody(base, h.present)).toEqual({ base_edit_id: 'edit_base', remove_words: [12], word_text: [{ index: 13, text: 'Kubernetes' }] });
    h = undo(undo(h));
    expect(h.present).toEqual(EMPTY_DRAFT);
    expect(undo(h)).toBe(h);
  });

  it('the playhead: media time ↔ source time across the segments, and the word being said', () => {
    expect(sourceToMedia(base.segments, 11)).toBeCloseTo(1);
    expect(sourceToMedia(base.segments, 20.5)).toBeCloseTo(4.5);
    expect(sourceToMedia(base.segments, 16)).toBeNull();
    expect(mediaToSource(base.segments, 1)).toBeCloseTo(11);
    expect(mediaToSource(base.segments, 4.5)).toBeCloseTo(20.5);
    expect(mediaToSource(base.segments, 99)).toBe(23);
    expect(wordAt(base.words, 10)).toBeNull();
    expect(wordAt(base.words, 10.45)?.index).toBe(10);
    expect(wordAt(base.words, 11.7)?.index).toBe(13);
    expect(wordAt(base.words, mediaToSource(base.segments, 4.2))?.index).toBe(14);
  });
});
