/**
 * The `subtle` punch-in (pure): a short zoom of PUNCH_IN_ZOOM eased in on an emphasised word and out
 * again. A word is emphasised when its second (the analysis measures loudness, LUFS, and the voice's
 * pitch, Hz, once a second) is a loudness peak — at least PUNCH_IN_LOUDER LU above the median of the
 * stretch and not below its neighbours' — or a pitch peak — at least PUNCH_IN_HIGHER semitones above
 * the stretch's median voiced pitch, not below its neighbours', and not quieter than the median less
 * PUNCH_IN_LOUDER (a raised voice, not a murmur); at most one punch-in every PUNCH_IN_GAP seconds,
 * and none within PUNCH_IN_CLEAR seconds of a layout change.
 */

export const PUNCH_IN_ZOOM = 1.12;
/** Ease in and out, seconds. */
export const PUNCH_IN_EASE = 0.25;
/** LU above the stretch's median loudness. */
export const PUNCH_IN_LOUDER = 3;
/** Semitones above the stretch's median voiced pitch. */
export const PUNCH_IN_HIGHER = 3;
/** Seconds from one punch-in's start to the next's at least. */
export const PUNCH_IN_GAP = 4;
/** Seconds kept clear of a layout change on both sides. */
export const PUNCH_IN_CLEAR = 1;

export interface PunchIn {
  /** Source seconds: the zoom eases in from `start` and is back to none at `end`. */
  start: number;
  end: number;
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The punch-ins of the kept stretches `ranges` (source seconds, ascending; one range for an edit
 * without cuts): on emphasised words, from a quarter second before the word to 0.6 s after it (eases
 * included), inside the word's stretch, clear of `changes` (layout changes, source seconds). `pitch`
 * (Hz per source second, 0 unvoiced; absent on analyses made before it was measured) adds the pitch peaks.
 */
export function punchIns(
  words: ReadonlyArray<{ start: number; end: number }>,
  loudness: readonly number[],
  ranges: ReadonlyArray<{ start: number; end: number }> | { start: number; end: number },
  changes: readonly number[] = [],
  pitch: readonly number[] = [],
): PunchIn[] {
  const stretches = Array.isArray(ranges) ? ranges : [ranges as { start: number; end: number }];
  if (stretches.length === 0) return [];
  const first = stretches[0].start;
  const last = stretches[stretches.length - 1].end;
  const secs = loudness.slice(Math.max(0, Math.floor(first)), Math.ceil(last)).filter((v) => v > -70);
  if (secs.length === 0) return [];
  const sorted = [...secs].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  const at = (s: number) => loudness[s] ?? -70;
  const voiced = pitch
    .slice(Math.max(0, Math.floor(first)), Math.ceil(last))
    .filter((v) => v > 0)
    .sort((a, b) => a - b);
  const pitchMedian = voiced.length >= 3 ? voiced[voiced.length >> 1] : 0;
  const hz = (s: number) => pitch[s] ?? 0;
  const higher = (s: number) =>
    pitchMedian > 0 && hz(s) >= pitchMedian * 2 ** (PUNCH_IN_HIGHER / 12) && hz(s) >= hz(s - 1) && hz(s) >= hz(s + 1) && at(s) >= median - PUNCH_IN_LOUDER;
  const out: PunchIn[] = [];
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    const mid = w.start + (w.end - w.start) / 2;
    const range = stretches.find((r) => mid >= r.start && mid < r.end);
    if (!range) continue;
    const s = Math.floor(mid);
    const l = at(s);
    const louder = l >= median + PUNCH_IN_LOUDER && l >= at(s - 1) && l >= at(s + 1);
    if (!louder && !higher(s)) continue;
    const p = { start: r3(Math.max(range.start, w.start - PUNCH_IN_EASE)), end: r3(Math.min(range.end, w.end + 0.6)) };
    if (p.end - p.start < 2 * PUNCH_IN_EASE) continue;
    if (changes.some((c) => c > p.start - PUNCH_IN_CLEAR && c < p.end + PUNCH_IN_CLEAR)) continue;
    const prev = out[out.length - 1];
    if (prev && p.start - prev.start < PUNCH_IN_GAP) continue;
    out.push(p);
  }
  return out;
}

/** The zoom at output second `t` of punch-ins given in output seconds: eased (smoothstep) in and out. */
export function punchInZoom(ps: readonly PunchIn[], t: number): number {
  for (const p of ps) {
    if (t < p.start || t > p.end) continue;
    const ease = Math.min(PUNCH_IN_EASE, (p.end - p.start) / 2);
    const f = Math.min(1, (t - p.start) / ease, (p.end - t) / ease);
    const s = f * f * (3 - 2 * f);
    return 1 + (PUNCH_IN_ZOOM - 1) * s;
  }
  return 1;
}
