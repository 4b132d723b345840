import readline from 'node:readline';
import { InvalidArgumentError } from 'commander';
import { CliFailure, USER_EXIT } from './failure.js';
import type { OutStream } from './progress.js';

/** Where the question is asked: the CLI's stdin (a terminal or not). */
export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

/** What the caller accepted on the command line: --yes, --max-credits N. */
export interface ChargeConsent {
  yes?: boolean;
  maxCredits?: number;
}

/** What a command is about to charge, and how sure the CLI is of it. */
export interface Quote {
  credits: number;
  /** The workspace's balance now. */
  balance: number;
  /** Free usage: the price is shown, nothing is taken. */
  waived?: boolean;
  /** Why the price is only an estimate (said on the quote line); exact when absent. */
  estimate?: string;
  /** How the price is made (`2 started minutes × 2 credits`), in parentheses. */
  detail?: string;
  /** Set when the price cannot be known before the work (what is known instead): `credits` is then a rate. */
  unknown?: string;
}

interface ConsentIo {
  stdin?: InStream;
  stderr: OutStream;
}

/** `--max-credits <n>`: a whole number of credits, 0 or more. */
export function parseMaxCredits(raw: string): number {
  if (!/^\d{1,9}$/.test(raw.trim())) throw new InvalidArgumentError('expected a whole number of credits (0 or more)');
  return Number(raw.trim());
}

/** "1 credit", "0 credits", "12 credits" */
export function credits(n: number): string {
  return `${n} credit${n === 1 ? '' : 's'}`;
}

function askable(io: ConsentIo): boolean {
  return io.stdin?.isTTY === true && io.stderr.isTTY === true;
}

/**
 * Checked before anything is uploaded or charged: a command that charges needs `--yes` or
 * `--max-credits N` when there is no terminal to ask on (exit 2).
 */
export function requireConsent(io: ConsentIo, consent: ChargeConsent): void {
  if (consent.yes || consent.maxCredits !== undefined || askable(io)) return;
  throw new CliFailure(
    'this command charges credits and there is no terminal to ask on: add --yes to accept the price, or --max-credits N to accept it up to N credits (nothing was uploaded or charged)',
    USER_EXIT.usage,
  );
}

/** The quote line: `This will cost 2 credits (…); balance after: 8`. */
export function quoteLine(q: Quote): string {
  if (q.unknown)
    return `The price cannot be known before the upload: ${q.unknown}; balance now: ${q.balance}${q.waived ? ' (free usage: nothing is taken)' : ''}`;
  const price = `${q.estimate ? 'about ' : ''}${credits(q.credits)}`;
  const detail = q.detail ? ` (${q.detail})` : '';
  const after = q.waived
    ? `${q.balance} (free usage: nothing is taken)`
    : q.credits > q.balance
      ? `not enough, the balance is ${q.balance}`
      : `${q.balance - q.credits}`;
  const estimate = q.estimate ? `; an estimate: ${q.estimate}` : '';
  return `This will cost ${price}${detail}; balance after: ${after}${estimate}`;
}

async function ask(io: ConsentIo, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: io.stdin!, output: io.stderr as unknown as NodeJS.WritableStream, terminal: false });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
      io.stderr.write(question);
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/**
 * Prints the quote on stderr and goes on only when it is accepted: `--max-credits` refuses a higher
 * price, `--yes` accepts, else the question is asked on the terminal (y/N). A refusal is exit 2, and
 * nothing has been charged.
 */
export async function confirmCharge(io: ConsentIo, quote: Quote, consent: ChargeConsent): Promise<void> {
  io.stderr.write(`${quoteLine(quote)}\n`);
  if (consent.maxCredits !== undefined && quote.unknown && !quote.waived) {
    throw new CliFailure(
      `the price cannot be checked against --max-credits ${consent.maxCredits} before the upload: nothing was uploaded or charged (use --yes)`,
      USER_EXIT.usage,
    );
  }
  if (consent.maxCredits !== undefined && quote.credits > consent.maxCredits && !quote.waived) {
    throw new CliFailure(`the price, ${credits(quote.credits)}, is above --max-credits ${consent.maxCredits}: nothing was charged`, USER_EXIT.usage, {
      code: 'PRICE_ABOVE_MAX_CREDITS',
      status: null,
      reason: 'The price is above --max-credits.',
      extra: { credits: quote.credits, max_credits: consent.maxCredits },
    });
  }
  if (consent.yes || consent.maxCredits !== undefined) return;
  requireConsent(io, consent);
  if (!(await ask(io, 'Go ahead? [y/N] '))) throw new CliFailure('not accepted: nothing was charged', USER_EXIT.usage);
}
