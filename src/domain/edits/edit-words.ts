import type { Edit } from './edit.js';
import { clipDuration } from './edit.js';
import { editSegments, type Segment } from './edit-timeline.js';

/**
 * The words of an edit as a document shows them (pure). A lineage of edits (a clip's versions, or an
 * edit of no clip and the edits derived from it) shares one word list: `index` names a word in every
 * version, `text` is what the captions show (`""`: hidden, its sound kept), times are source seconds.
 */
export interface EditWord {
  index: number;
  text: string;
  /** Source seconds. */
  start: number;
  end: number;
  speaker: string | null;
}

/** The word list of an edit the service made: its caption words, numbered in order, speaker unknown. */
export function wordsOfSpec(spec: Edit): EditWord[] {
  return (spec.captions?.words ?? []).map((w, index) => ({ index, text: w.text, start: w.start, end: w.end, speaker: null }));
}

/**
 * Whether a stretch holds a word: they overlap, or a zero-length word sits inside it (the test the
 * renderer's `keptWords` uses, so the document lists the words the captions show).
 */
function holds(s: Segment, w: { start: number; end: number }): boolean {
  const overlap = Math.min(w.end, s.end) - Math.max(w.start, s.start);
  return overlap > 0 || (w.start === w.end && w.start >= s.start && w.start < s.end);
}

/** The words inside the kept stretches, in order. */
export function wordsInSegments<W extends { start: number; end: number }>(words: readonly W[], segments: readonly Segment[]): W[] {
  return words.filter((w) => segments.some((s) => holds(s, w)));
}

/** GET /edits/{id}: the edit as a document. */
export interface EditDocument {
  id: string;
  parent_edit_id: string | null;
  video_id: string | null;
  clip_id: string | null;
  created_at: string;
  duration: number;
  aspect_ratio: string;
  reframe: string;
  /** The punch-in factor: 1 (none) to 3. */
  zoom: number;
  /** `subtle`: eased punch-ins on emphasised words (layout.punchIn). */
  punch_in: 'none' | 'subtle';
  /** The layout each shot gets (source seconds, in order, from `in` to `out`; documentShots). */
  shots: DocumentShot[];
  template_id: string | null;
  segments: Segment[];
  words: EditWord[];
  captions_enabled: boolean;
  title: { text: string } | null;
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

export interface DocumentShot {
  start: number;
  end: number;
  reframe: string;
}

/**
 * The layout chosen per shot: an `auto` edit's shots; else one shot from `in` to `out` with the layout
 * rendered (`speaker` for a `split` without two faces and for an `auto` without shots, as the renderer does).
 */
export function documentShots(spec: Edit): DocumentShot[] {
  const { layout } = spec;
  if (layout.reframe === 'auto' && layout.shots?.length) return layout.shots.map((s) => ({ start: s.start, end: s.end, reframe: s.reframe }));
  const rendered = (layout.reframe === 'split' && !layout.splitPaths) || layout.reframe === 'auto' ? 'speaker' : layout.reframe;
  return [{ start: spec.in, end: spec.out, reframe: rendered }];
}

/** An edit's output seconds as its document and events show them (milliseconds). */
export function documentDuration(spec: Edit): number {
  return r3(clipDuration(spec));
}

/** The document of a stored edit; `words` null means the spec's caption words are the lineage's list. */
export function editDocument(row: {
  id: string;
  parentEditId: string | null;
  videoId: string | null;
  clipId: string | null;
  createdAt: Date;
  templateId: string | null;
  spec: unknown;
  words: unknown;
}): EditDocument {
  const spec = row.spec as Edit;
  const segments = editSegments(spec).map((s) => ({ start: s.start, end: s.end }));
  const all = row.words ? (row.words as EditWord[]) : wordsOfSpec(spec);
  return {
    id: row.id,
    parent_edit_id: row.parentEditId,
    video_id: row.videoId,
    clip_id: row.clipId,
    created_at: row.createdAt.toISOString(),
    duration: documentDuration(spec),
    aspect_ratio: spec.layout.aspect,
    reframe: spec.layout.reframe,
    zoom: spec.layout.zoom ?? 1,
    shots: documentShots(spec),
    punch_in: spec.layout.punchIn ?? 'none',
    template_id: row.templateId,
    segments,
    words: wordsInSegments(all, segments).map((w) => ({ index: w.index, text: w.text, start: w.start, end: w.end, speaker: w.speaker ?? null })),
    captions_enabled: spec.captions !== null,
    title: spec.title ? { text: spec.title.text } : null,
  };
}
