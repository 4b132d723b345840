/**
 * The `subtle` punch-in (pure): a short zoom of PUNCH_IN_ZOOM eased in on an emphasised word and out
 * again. A word is emphasised when the loudness of its second (the analysis measures one value a
 * second, LUFS) is at least PUNCH_IN_LOUDER LU above the median of the stretch and not below its
 * neighbours'; at most one punch-in every PUNCH_IN_GAP seconds, and none within PUNCH_IN_CLEAR
 * seconds of a layout change.
 */

export const PUNCH_IN_ZOOM = 1.12;
/** Ease in and out, seconds. */
export const PUNCH_IN_EASE = 0.25;
/** LU above the stretch's median loudness. */
export const PUNCH_IN_LOUDER = 3;
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
 * included), inside the word's stretch, clear of `changes` (layout changes, source seconds).
 */
export function punchIns(
  words: ReadonlyArray<{ start: number; end: number }>,
  loudness: readonly number[],
  ranges: ReadonlyArray<{ start: number; end: number }> | { start: number; end: number },
  changes: readonly number[] = [],
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
  const out: PunchIn[] = [];
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    const mid = w.start + (w.end - w.start) / 2;
    const range = stretches.find((r) => mid >= r.start && mid < r.end);
    if (!range) continue;
    const s = Math.floor(mid);
    const l = at(s);
    if (!(l >= median + PUNCH_IN_LOUDER && l >= at(s - 1) && l >= at(s + 1))) continue;
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
