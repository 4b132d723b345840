/** Argument helpers of `cutroom admin`: usage errors, negative numbers, typed flag values. */

/** A mistake on the command line or in the local configuration: exit status 2, usage printed. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Print the command's usage after the message. */
    readonly showUsage = true,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;
/** Marks a positional that starts with "-" so node:util parseArgs does not read it as an option. */
const ESCAPE = '\u0000';

/**
 * node:util parseArgs (Node 20 has no allowNegative for numbers) reads `-50` as the short option
 * `-5`. Before parsing, a negative number that follows a string option becomes `--opt=-50`, and
 * one in a positional place is escaped; `unescapePositional` restores it. Everything after `--`
 * is left alone (parseArgs already treats it as positional).
 */
export function protectNegativeNumbers(args: string[], options: Record<string, OptionSpec>): string[] {
  const out: string[] = [];
  let terminated = false;
  for (const arg of args) {
    if (terminated || !NEGATIVE_NUMBER.test(arg)) {
      if (arg === '--') terminated = true;
      out.push(arg);
      continue;
    }
    const prev = out[out.length - 1];
    const name = prev?.startsWith('--') && !prev.includes('=') ? prev.slice(2) : undefined;
    if (name && options[name]?.type === 'string') {
      out[out.length - 1] = `${prev}=${arg}`;
    } else {
      out.push(ESCAPE + arg);
    }
  }
  return out;
}

export function unescapePositional(arg: string): string {
  return arg.startsWith(ESCAPE) ? arg.slice(1) : arg;
}

/** True when `--help`/`-h` appears before a `--` terminator. */
export function wantsHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

export function parseNumberFlag(flag: string, raw: string, integer: boolean): number {
  const n = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} must be ${integer ? 'an integer' : 'a number'} (got "${raw}")`);
  }
  return n;
}

export function parseBooleanFlag(flag: string, raw: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new UsageError(`--${flag} must be true or false (got "${raw}")`);
}
