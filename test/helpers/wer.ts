/**
 * Word error rate with one documented normaliser (docs/quality.md), used by the ASR tests and the
 * evaluation harness (`npm run eval`). Both the reference and the hypothesis go through `normalizeWords`:
 *
 * 1. Lower case; curly apostrophes become straight ones.
 * 2. Numbers become words: `10` → `ten`, `1,500` → `one thousand five hundred`, `3.5` → `three point five`,
 *    `2nd` → `second`; `%` → `percent`, `$5` → `five dollars`.
 * 3. Punctuation goes: a hyphen or slash separates words (`cold-hearted` → `cold hearted`), apostrophes
 *    inside a word stay (`don't`), every other mark is dropped.
 * 4. Written-out abbreviations read as their words: `mr` → `mister`, `mrs` → `missus`, `dr` → `doctor`,
 *    `ok` → `okay`, `vs` → `versus`, `etc` → `etcetera`.
 *
 * WER = (substitutions + deletions + insertions) / reference words, by Levenshtein alignment of words.
 */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Array<[number, string]> = [
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
  [100, 'hundred'],
];
const ORDINALS: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

export const ABBREVIATIONS: Readonly<Record<string, string>> = { mr: 'mister', mrs: 'missus', dr: 'doctor', ok: 'okay', vs: 'versus', etc: 'etcetera' };

/** A whole number as English words (`1500` → `one thousand five hundred`). */
export function numberWords(n: number): string[] {
  if (!Number.isSafeInteger(n) || n < 0) return String(n).split('');
  if (n < 20) return [ONES[n]];
  if (n < 100) return n % 10 ? [TENS[Math.floor(n / 10)], ONES[n % 10]] : [TENS[n / 10]];
  for (const [size, name] of SCALES) {
    if (n >= size) {
      const rest = n % size;
      return [...numberWords(Math.floor(n / size)), name, ...(rest ? numberWords(rest) : [])];
    }
  }
  return [];
}

function ordinal(words: string[]): string[] {
  const last = words[words.length - 1];
  const o = ORDINALS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words.slice(0, -1), o];
}

/** The normalised words of `text` (see the rules above). */
export function normalizeWords(text: string): string[] {
  const spaced = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\$(\d[\d,]*(?:\.\d+)?)/g, '$1 dollars')
    .replace(/%/g, ' percent ')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[-–—/]/g, ' ');
  const out: string[] = [];
  for (const raw of spaced.split(/\s+/)) {
    const token = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (!token) continue;
    const decimal = /^(\d+)\.(\d+)$/.exec(token);
    const ord = /^(\d+)(st|nd|rd|th)$/.exec(token);
    if (decimal) out.push(...numberWords(Number(decimal[1])), 'point', ...decimal[2].split('').map((d) => ONES[Number(d)]));
    else if (ord) out.push(...ordinal(numberWords(Number(ord[1]))));
    else if (/^\d+$/.test(token)) out.push(...numberWords(Number(token)));
    else {
      const word = token.replace(/[^\p{L}\p{N}']+/gu, '');
      if (word) out.push(ABBREVIATIONS[word] ?? word);
    }
  }
  return out;
}

export interface WordErrors {
  /** Substitutions + deletions + insertions. */
  errors: number;
  /** Reference words. */
  words: number;
}

/** Edit distance in words between the normalised reference and hypothesis. */
export function wordErrors(ref: string, hyp: string): WordErrors {
  const r = normalizeWords(ref);
  const h = normalizeWords(hyp);
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = cur;
  }
  return { errors: prev[h.length], words: r.length };
}

/**
 * Which hypothesis words are right: aligns the normalised words as `wordErrors` counts them and marks
 * each hypothesis token matched to an equal reference word. `hyp` is a list of recognised words (one
 * entry each, which may normalise to several tokens; an entry is right when all its tokens are).
 */
export function correctWords(ref: string, hyp: readonly string[]): boolean[] {
  const r = normalizeWords(ref);
  const owner: number[] = [];
  const h: string[] = [];
  hyp.forEach((w, i) => normalizeWords(w).forEach((t) => (h.push(t), owner.push(i))));
  const d = Array.from({ length: r.length + 1 }, (_, i) => Array.from({ length: h.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= r.length; i++)
    for (let j = 1; j <= h.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
  const right = new Array<boolean>(h.length).fill(false);
  for (let i = r.length, j = h.length; i > 0 && j > 0;) {
    if (d[i][j] === d[i - 1][j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1)) {
      right[j - 1] = r[i - 1] === h[j - 1];
      i--;
      j--;
    } else if (d[i][j] === d[i - 1][j] + 1) i--;
    else j--;
  }
  const out = hyp.map(() => true);
  right.forEach((ok, k) => (out[owner[k]] &&= ok));
  hyp.forEach((w, i) => (normalizeWords(w).length === 0 ? (out[i] = false) : undefined));
  return out;
}

/** errors / words over several utterances (0 when there are no reference words and no hypothesis). */
export function errorRate(parts: readonly WordErrors[]): number {
  const errors = parts.reduce((n, p) => n + p.errors, 0);
  const words = parts.reduce((n, p) => n + p.words, 0);
  return words ? errors / words : errors ? 1 : 0;
}
