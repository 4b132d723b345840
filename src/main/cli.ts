#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, type Role } from '../config/env.js';
import { openDatabase } from '../adapters/db/database.js';
import { serve } from './serve.js';
import { runAdmin } from './admin-cli.js';

const USAGE = `Usage: cutroom <command>

Commands:
  serve [--role all|api|worker]   Start the service (default role: all = API + workers + scheduler)
  migrate                         Apply database migrations and exit
  admin <resource> <action> ...   Operator commands over the admin API (cutroom admin --help)
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { role: { type: 'string', default: 'all' } } });
      const role = values.role as Role;
      if (!['all', 'api', 'worker'].includes(role)) {
        process.stderr.write('cutroom: --role must be all, api or worker\n');
        return 2;
      }
      await serve(role);
      return -1; // keeps running
    }
    case 'migrate': {
      const config = loadConfig();
      const db = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pgdata` });
      await db.close();
      process.stdout.write(`migrations applied (${db.kind})\n`);
      return 0;
    }
    case 'admin':
      return runAdmin(rest);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`cutroom: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`cutroom: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
