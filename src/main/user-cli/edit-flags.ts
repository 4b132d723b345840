import { InvalidArgumentError } from 'commander';

/** Parsers of `cutroom edits derive`'s flags: pure, a usage error (InvalidArgumentError) for a malformed value. */

const NUMBER = '(\\d+(?:\\.\\d+)?)';

/** `--trim START-END`: seconds on each side (`12.4-41`), the start before the end. */
export function parseTrim(raw: string): { start: number; end: number } {
  const m = new RegExp(`^${NUMBER}-${NUMBER}$`).exec(raw.trim());
  if (!m) throw new InvalidArgumentError('expected <start>-<end> in seconds, such as 12.4-41');
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (end <= start) throw new InvalidArgumentError('the end must come after the start');
  return { start, end };
}

/** `--fix INDEX=TEXT` (repeatable): added to the fixes so far; an empty TEXT hides the word; a later fix of an index replaces the earlier. */
export function parseFix(raw: string, previous: Array<{ index: number; text: string }>): Array<{ index: number; text: string }> {
  const m = /^(\d+)=([\s\S]*)$/.exec(raw);
  if (!m) throw new InvalidArgumentError('expected INDEX=TEXT, such as 17=Kubernetes (17= hides the word)');
  const index = Number(m[1]);
  return [...previous.filter((f) => f.index !== index), { index, text: m[2] }];
}

/** `--remove-words 3,4,9`: word indices, sorted, without repeats. */
export function parseIndexList(raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) throw new InvalidArgumentError('expected word indices separated by commas, such as 3,4,9');
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/** A number flag within [min, max] (`--min-silence 0.8`, `--zoom 1.5`). */
function numberIn(raw: string, min: number, max: number, what: string): number {
  const m = new RegExp(`^${NUMBER}$`).exec(raw.trim());
  const v = m ? Number(m[1]) : NaN;
  if (!(v >= min && v <= max)) throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}`);
  return v;
}

/** `--min-silence S`: pauses longer than S seconds are cut down (0.3 to 10, as the API takes). */
export function parseMinSilence(raw: string): number {
  return numberIn(raw, 0.3, 10, 'seconds');
}

/** `--zoom Z`: the punch-in factor, 1 (none) to 3, or `subtle` (eased punch-ins on emphasised words) or `none`. */
export function parseZoom(raw: string): number | 'subtle' | 'none' {
  const word = raw.trim().toLowerCase();
  if (word === 'subtle' || word === 'none') return word;
  return numberIn(raw, 1, 3, 'subtle, none or a factor');
}
