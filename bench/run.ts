import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [-- name...]`: runs every `bench/*.bench.ts` (or those whose file name contains one
 * of the given words) one after the other, each in its own Node process with tsx, and prints what
 * they print. Benchmarks measure; they never fail on a time. The exit code is 1 when a benchmark
 * crashed. Options after the names (`--name value` or `--name=value`) go to every benchmark run:
 * `npm run bench -- pipeline --concurrent 2`.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

/** The words that choose benchmarks, and the options passed on to them (`--name value`, `--name=value`, `--flag`). */
function splitArgs(args: string[]): { filters: string[]; options: string[] } {
  const filters: string[] = [];
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) filters.push(a);
    else {
      options.push(a);
      if (!a.includes('=') && i + 1 < args.length && !args[i + 1].startsWith('-')) options.push(args[++i]);
    }
  }
  return { filters, options };
}

function runOne(file: string, options: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...options], { stdio: 'inherit', env: process.env });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<void> {
  const { filters, options } = splitArgs(process.argv.slice(2));
  const files = fs
    .readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
    .sort();
  if (files.length === 0) {
    console.log(`no benchmark matches ${filters.join(' ') || '*.bench.ts'} in ${here}`);
    process.exitCode = 1;
    return;
  }
  const failed: string[] = [];
  for (const f of files) {
    console.log(`\n=== ${f} ===`);
    const t0 = performance.now();
    const code = await runOne(path.join(here, f), options);
    console.log(`=== ${f}: ${code === 0 ? 'done' : `exit ${code}`} in ${((performance.now() - t0) / 1000).toFixed(1)} s ===`);
    if (code !== 0) failed.push(f);
  }
  if (failed.length) {
    console.log(`\nfailed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
