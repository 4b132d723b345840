import { parseArgs } from 'node:util';
import { UsageError, protectNegativeNumbers, unescapePositional, wantsHelp, type OptionSpec } from './admin-cli/args.js';
import { AdminApiError, AdminClient, ConnectionError, resolveConnection, type Env } from './admin-cli/client.js';
import { COMMANDS, type Command, type Values } from './admin-cli/commands.js';
import { errorExtra } from './admin-cli/format.js';

/** Where `cutroom admin` writes and which environment it reads; the process's by default. */
export interface AdminIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  env: Env;
}

/** Exit statuses of `cutroom admin`. */
export const EXIT = { ok: 0, apiError: 1, usage: 2, connection: 3 } as const;

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
};

const GLOBAL_HELP = `Connection and output options (every command):
  --url URL        Server base URL (default: $CUTROOM_URL, else $PUBLIC_BASE_URL, else http://localhost:$PORT, port 8080)
  --token T        Admin token (default: $CUTROOM_ADMIN_TOKEN, else the file <$CUTROOM_DATA_DIR or ./data>/admin-token)
  --json           Print the API's JSON answer instead of text (errors: the error body on stdout)
  -h, --help       Show help`;

const RESOURCES = [...new Set(COMMANDS.map((c) => c.resource))];

function usageLine(c: Command): string {
  return ['cutroom admin', c.resource, c.action, ...c.args.map((a) => `<${a}>`), c.synopsis].filter(Boolean).join(' ');
}

function listing(commands: Command[]): string {
  return commands.map((c) => `  ${usageLine(c).slice('cutroom admin '.length)}\n      ${c.summary}`).join('\n');
}

export const ADMIN_USAGE = `Usage: cutroom admin <resource> <action> [arguments] [options]

Operator commands over the admin API (/admin/v1) of a running Cutroom server.

Commands:
${listing(COMMANDS)}

${GLOBAL_HELP}

Run "cutroom admin <resource> <action> --help" for one command's options.
Exit status: 0 done; 1 the API refused (its error code is printed); 2 usage or configuration error;
3 the server could not be reached or did not answer like Cutroom.
`;

function resourceUsage(resource: string): string {
  const commands = listing(COMMANDS.filter((c) => c.resource === resource));
  return `Usage: cutroom admin ${resource} <action> ...\n\nCommands:\n${commands}\n\n${GLOBAL_HELP}\n`;
}

function commandUsage(c: Command): string {
  const options = c.optionHelp.length ? `Options:\n${c.optionHelp.map((l) => `  ${l}`).join('\n')}\n\n` : '';
  return `Usage: ${usageLine(c)}\n\n${c.summary}.\n\n${options}${GLOBAL_HELP}\n\nExample:\n  ${c.example}\n`;
}

/**
 * `cutroom admin …`: a thin client of /admin/v1. Returns the exit status; `io` replaces the
 * process's streams and environment (tests).
 */
export async function runAdmin(args: string[], io: Partial<AdminIo> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;

  const [resource, action, ...rest] = args;
  if (resource === undefined) {
    stderr.write(ADMIN_USAGE);
    return EXIT.usage;
  }
  if (resource === '--help' || resource === '-h' || resource === 'help') {
    stdout.write(ADMIN_USAGE);
    return EXIT.ok;
  }
  if (!RESOURCES.includes(resource)) {
    stderr.write(`cutroom admin: unknown resource "${resource}"\n\n${ADMIN_USAGE}`);
    return EXIT.usage;
  }
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
    (action === undefined ? stderr : stdout).write(resourceUsage(resource));
    return action === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.resource === resource && c.action === action);
  if (!command) {
    stderr.write(`cutroom admin: unknown command "${resource} ${action}"\n\n${resourceUsage(resource)}`);
    return EXIT.usage;
  }
  if (wantsHelp(rest)) {
    stdout.write(commandUsage(command));
    return EXIT.ok;
  }

  let json = false;
  let tokenSource: string | undefined;
  try {
    const options = { ...GLOBAL_OPTIONS, ...command.options };
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({ args: protectNegativeNumbers(rest, options), options, allowPositionals: true, strict: true }) as typeof parsed;
    } catch (err) {
      const e = err as Error & { code?: string };
      const option = /'([^']+)'/.exec(e.message)?.[1];
      if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) throw new UsageError(`unknown option ${option}`);
      throw new UsageError(e.message.split('\n')[0]);
    }
    json = parsed.values.json === true;
    const positionals = parsed.positionals.map(unescapePositional);
    if (positionals.length < command.args.length) {
      throw new UsageError(
        `missing ${command.args
          .slice(positionals.length)
          .map((a) => `<${a}>`)
          .join(' ')}`,
      );
    }
    if (positionals.length > command.args.length) {
      throw new UsageError(`unexpected argument "${positionals[command.args.length]}"`);
    }
    const named = Object.fromEntries(command.args.map((a, i) => [a, positionals[i]]));
    const flags = { url: parsed.values.url as string | undefined, token: parsed.values.token as string | undefined };
    const client = new AdminClient(() => {
      const conn = resolveConnection(flags, env);
      tokenSource = conn.tokenSource;
      return conn;
    });
    await command.run({
      client,
      values: parsed.values,
      args: named,
      output(answer, human) {
        stdout.write(json ? `${JSON.stringify(answer, null, 2)}\n` : human());
      },
    });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) {
      stderr.write(`cutroom admin: ${err.message}\n`);
      if (err.showUsage) stderr.write(`\nUsage: ${usageLine(command)}\n(cutroom admin ${resource} ${action} --help for details)\n`);
      return EXIT.usage;
    }
    if (err instanceof AdminApiError) {
      if (json) stdout.write(`${JSON.stringify(err.body, null, 2)}\n`);
      stderr.write(`cutroom admin: ${err.code} (HTTP ${err.status})\n${errorExtra(err.extra)}`);
      if (err.code === 'UNAUTHORIZED') {
        stderr.write(`The server refused the admin token (from ${tokenSource}).\n`);
      }
      return EXIT.apiError;
    }
    if (err instanceof ConnectionError) {
      stderr.write(`cutroom admin: ${err.message}\n`);
      return EXIT.connection;
    }
    throw err;
  }
}
