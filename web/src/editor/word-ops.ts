/**
 * The clip editor's word operations, pure: a draft of changes to one edit (fixed words, cut words,
 * trims, switches, layout), the steps that change it, undo, and the POST /edits body it makes.
 * Times are source seconds, as the edit's words and segments are (docs/edits.md).
 */

export interface Word {
  /** The word's number in its clip's word list: the same word in every version. */
  index: number;
  text: string;
  start: number;
  end: number;
}

export interface Segment {
  start: number;
  end: number;
}

/** What the editor knows of the edit it changes. */
export interface BaseEdit {
  id: string;
  words: readonly Word[];
  segments: readonly Segment[];
  aspect_ratio: string;
  /** How the picture is framed (`auto` picks per shot). */
  reframe: string;
  template_id: string | null;
}

export type AspectRatio = '9:16' | '1:1' | '16:9';
export type Reframe = 'auto' | 'speaker' | 'split' | 'screen' | 'center' | 'fit';

export interface Draft {
  /** Corrected caption text by word index (`''` hides the word from the captions, its sound kept). */
  fixes: Readonly<Record<number, string>>;
  /** Indices of words whose time is cut out, ascending. */
  cut: readonly number[];
  /** Source second the edit starts at (a word's start), or null for the base's start. */
  trimStart: number | null;
  /** Source second the edit ends at (a word's end), or null for the base's end. */
  trimEnd: number | null;
  removeFillers: boolean;
  removeSilences: boolean;
  /** null: the base's. */
  aspectRatio: AspectRatio | null;
  /** null: the base's. */
  reframe: Reframe | null;
  /** null: the base's. */
  templateId: string | null;
}

export const EMPTY_DRAFT: Draft = {
  fixes: {},
  cut: [],
  trimStart: null,
  trimEnd: null,
  removeFillers: false,
  removeSilences: false,
  aspectRatio: null,
  reframe: null,
  templateId: null,
};

/** Corrects word `index` to `text` (trimmed); the word's own text again drops the correction. */
export function fixWord(draft: Draft, base: BaseEdit, index: number, text: string): Draft {
  const word = base.words.find((w) => w.index === index);
  if (!word) return draft;
  const clean = text.trim();
  const fixes = { ...draft.fixes };
  if (clean === word.text) delete fixes[index];
  else fixes[index] = clean;
  return { ...draft, fixes };
}

/** Cuts the words out (their time is removed from the edit). */
export function cutWords(draft: Draft, indices: readonly number[]): Draft {
  if (indices.length === 0) return draft;
  const cut = [...new Set([...draft.cut, ...indices])].sort((a, b) => a - b);
  return { ...draft, cut };
}

/** Keeps words that were cut in this draft. */
export function keepWords(draft: Draft, indices: readonly number[]): Draft {
  const drop = new Set(indices);
  return { ...draft, cut: draft.cut.filter((i) => !drop.has(i)) };
}

/** The edit starts at this word; an end before it is dropped. */
export function trimStartAt(draft: Draft, word: Word): Draft {
  const trimEnd = draft.trimEnd !== null && draft.trimEnd <= word.start ? null : draft.trimEnd;
  return { ...draft, trimStart: word.start, trimEnd };
}

/** The edit ends after this word; a start after it is dropped. */
export function trimEndAt(draft: Draft, word: Word): Draft {
  const trimStart = draft.trimStart !== null && draft.trimStart >= word.end ? null : draft.trimStart;
  return { ...draft, trimEnd: word.end, trimStart };
}

export function setSwitch(draft: Draft, name: 'removeFillers' | 'removeSilences', on: boolean): Draft {
  return { ...draft, [name]: on };
}

export function setLayout(draft: Draft, change: { aspectRatio?: AspectRatio | null; reframe?: Reframe | null; templateId?: string | null }): Draft {
  return { ...draft, ...change };
}

/** How a word stands in the draft: kept, cut, or outside the trim. */
export function wordState(draft: Draft, word: Word): 'kept' | 'cut' | 'outside' {
  if (draft.cut.includes(word.index)) return 'cut';
  if (draft.trimStart !== null && word.end <= draft.trimStart) return 'outside';
  if (draft.trimEnd !== null && word.start >= draft.trimEnd) return 'outside';
  return 'kept';
}

/** The text the captions will show for a word. */
export function shownText(draft: Draft, word: Word): string {
  return draft.fixes[word.index] ?? word.text;
}

/** Whether the draft changes anything: Save version needs one change, or it would only copy the base. */
export function hasChanges(draft: Draft, base: BaseEdit): boolean {
  return (
    Object.keys(draft.fixes).length > 0 ||
    draft.cut.length > 0 ||
    draft.trimStart !== null ||
    draft.trimEnd !== null ||
    draft.removeFillers ||
    draft.removeSilences ||
    (draft.aspectRatio !== null && draft.aspectRatio !== base.aspect_ratio) ||
    (draft.reframe !== null && draft.reframe !== base.reframe) ||
    (draft.templateId !== null && draft.templateId !== base.template_id)
  );
}

/** The body of POST /edits: the base and exactly the draft's changes (`remove_silences` only when switched on). */
export interface DeriveBody {
  base_edit_id: string;
  trim?: { start: number; end: number };
  remove_words?: number[];
  word_text?: Array<{ index: number; text: string }>;
  remove_fillers?: boolean;
  remove_silences?: boolean;
  aspect_ratio?: AspectRatio;
  reframe?: Reframe;
  template_id?: string;
}

export function deriveBody(base: BaseEdit, draft: Draft): DeriveBody {
  const body: DeriveBody = { base_edit_id: base.id };
  if (draft.trimStart !== null || draft.trimEnd !== null) {
    const first = base.segments[0];
    const last = base.segments[base.segments.length - 1];
    body.trim = { start: draft.trimStart ?? first.start, end: draft.trimEnd ?? last.end };
  }
  if (draft.cut.length > 0) body.remove_words = [...draft.cut];
  const fixes = Object.entries(draft.fixes)
    .map(([index, text]) => ({ index: Number(index), text }))
    .sort((a, b) => a.index - b.index);
  if (fixes.length > 0) body.word_text = fixes;
  if (draft.removeFillers) body.remove_fillers = true;
  if (draft.removeSilences) body.remove_silences = true;
  if (draft.aspectRatio !== null && draft.aspectRatio !== base.aspect_ratio) body.aspect_ratio = draft.aspectRatio;
  if (draft.reframe !== null && draft.reframe !== base.reframe) body.reframe = draft.reframe;
  if (draft.templateId !== null && draft.templateId !== base.template_id) body.template_id = draft.templateId;
  return body;
}

/** Undo: the drafts before the present one. Saving a version starts a new history. */
export interface History {
  past: readonly Draft[];
  present: Draft;
}

export const newHistory = (draft: Draft = EMPTY_DRAFT): History => ({ past: [], present: draft });

/** The next draft; a step that changes nothing is not an undo step. */
export function push(h: History, next: Draft): History {
  if (next === h.present) return h;
  return { past: [...h.past, h.present], present: next };
}

export function undo(h: History): History {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1] };
}

/** The words from `anchor` to `to` (both included, either order), by position in `words`. */
export function selectRange(words: readonly Word[], anchor: number, to: number): number[] {
  const a = words.findIndex((w) => w.index === anchor);
  const b = words.findIndex((w) => w.index === to);
  if (a < 0 || b < 0) return b < 0 ? [] : [to];
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  return words.slice(lo, hi + 1).map((w) => w.index);
}

/**
 * Output seconds of source second `t` in media that plays `segments` one after another, or null when
 * `t` is in none of them (a joint belongs to the later stretch).
 */
export function sourceToMedia(segments: readonly Segment[], t: number): number | null {
  let offset = 0;
  let found: number | null = null;
  for (const s of segments) {
    if (t >= s.start && t <= s.end) found = offset + (t - s.start);
    offset += s.end - s.start;
  }
  return found;
}

/** Source second at output second `t` of media that plays `segments` one after another. */
export function mediaToSource(segments: readonly Segment[], t: number): number {
  let offset = 0;
  for (const s of segments) {
    const len = s.end - s.start;
    if (t < offset + len) return s.start + Math.max(0, t - offset);
    offset += len;
  }
  const last = segments[segments.length - 1];
  return last ? last.end : t;
}

/** The word being said at source second `t`: the last word that started at or before it (null before the first). */
export function wordAt(words: readonly Word[], t: number): Word | null {
  let current: Word | null = null;
  for (const w of words) {
    if (w.start <= t + 1e-3) current = w;
    else break;
  }
  return current;
}
