/**
 * What `pocketsphinx_batch` reads and writes (pure): the control file that lists the utterances to
 * decode, and the CTM file of recognised words.
 *
 * Control file: one utterance a line, `<file> <first frame> <last frame> <utterance id>`; frames are
 * 10 ms (`-frate 100`), the file is named without its extension (the binary adds `-cepext`, `.wav`)
 * and relative to `-cepdir`.
 *
 * CTM (`-ctm`): one recognised word a line, `<utterance id> <channel> <start> <duration> <word> <confidence>`,
 * times in seconds from the start of the utterance with two decimals, the confidence the word's
 * posterior probability (0..1). The binary already leaves out `<s>`, `</s>`, `<sil>` and noise fillers
 * and writes alternate pronunciations as their base word (`read`, not `read(2)`); both are dropped or
 * stripped here again so that another build's output reads the same.
 */

/** Frames per second of the recogniser's front end (`-frate`). */
export const FRAME_RATE = 100;

export interface CtmWord {
  utterance: string;
  /** Seconds from the start of the utterance. */
  start: number;
  end: number;
  text: string;
  /** 0..1. */
  confidence: number;
}

/** `<s>`, `</s>`, `<sil>`, `[NOISE]`, `[SPEECH]`, `++BREATH++`, `+NSN+`: markers, not words. */
export function isFiller(token: string): boolean {
  return /^<.*>$/.test(token) || /^\[.*\]$/.test(token) || /^\+.*\+$/.test(token);
}

/** `read(2)` -> `read` (alternate pronunciations in the dictionary). */
export function stripAlternate(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
const round3 = (t: number) => Math.round(t * 1000) / 1000;

/**
 * Parses a CTM file (pure). A word's end is its start plus its duration plus one frame: the binary
 * writes the duration as last frame minus first frame, and the word lasts to the end of its last
 * frame. Lines that are not six fields with numbers where numbers belong are ignored; confidences
 * are clamped into 0..1 (the binary prints 1.000 for some words whose posterior rounds above 1).
 */
export function parseCtm(text: string): CtmWord[] {
  const words: CtmWord[] = [];
  for (const line of text.split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    if (f.length !== 6 || !NUMBER.test(f[2]) || !NUMBER.test(f[3]) || !NUMBER.test(f[5])) continue;
    if (isFiller(f[4])) continue;
    const word = stripAlternate(f[4]);
    if (word === '') continue;
    const start = Number(f[2]);
    const duration = Math.max(0, Number(f[3]));
    words.push({ utterance: f[0], start, end: round3(start + duration + 1 / FRAME_RATE), text: word, confidence: Math.min(1, Math.max(0, Number(f[5]))) });
  }
  return words;
}

/** A span of the file to decode as one utterance, in frames (first inclusive, last exclusive). */
export interface UtteranceFrames {
  id: string;
  first: number;
  last: number;
}

/** The control file listing `utterances` of the file `name` (pure). */
export function controlFile(name: string, utterances: readonly UtteranceFrames[]): string {
  if (/\s/.test(name)) throw new RangeError(`control file entries cannot hold spaces (${name})`);
  return utterances.map((u) => `${name} ${u.first} ${u.last} ${u.id}\n`).join('');
}
