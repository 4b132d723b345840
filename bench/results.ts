import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where every benchmark writes its JSON: bench/results/<name>.json (one file per benchmark, the last run). */
export const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

/** Writes `bench/results/<name>.json` with the machine and the time of the run beside `results`; returns the file. */
export function writeResults(name: string, results: unknown): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  const machine = { cores: os.cpus().length, memory_gib: Number((os.totalmem() / 2 ** 30).toFixed(1)), node: process.version, load_average: os.loadavg() };
  fs.writeFileSync(file, `${JSON.stringify({ bench: name, at: new Date().toISOString(), machine, results }, null, 2)}\n`);
  return file;
}
