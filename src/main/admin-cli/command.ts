import type { OptionSpec } from './args.js';
import type { AdminClient } from './client.js';

/** One `cutroom admin <resource> <action>` command (commands.ts and the resource modules it gathers). */

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface CommandContext {
  client: AdminClient;
  values: Values;
  /** The command's positional arguments, by the names in `args`. */
  args: Record<string, string>;
  /** Prints `json` as is under --json, else the text `human()` makes. */
  output(json: unknown, human: () => string): void;
}

export interface Command {
  resource: string;
  action: string;
  /** Names of the required positional arguments, in order. */
  args: string[];
  /** What follows `<resource> <action> <args>` in the usage line. */
  synopsis: string;
  summary: string;
  /** Option lines of the per-command help. */
  optionHelp: string[];
  example: string;
  options: Record<string, OptionSpec>;
  run(ctx: CommandContext): Promise<void>;
}
