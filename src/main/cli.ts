#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, type Role } from '../config/env.js';
import { openDatabase } from '../adapters/db/database.js';
import { serve } from './serve.js';
import { runAdmin } from './admin-cli.js';
import { backup, BackupError, restore } from './backup.js';
import { ADMIN_PREFIX, resolveConnection } from './admin-cli/client.js';

const USAGE = `Usage: cutroom <command>

Commands:
  serve [--role all|api|worker]   Start the service (default role: all = API + workers + scheduler)
  migrate                         Apply database migrations and exit
  admin <resource> <action> ...   Operator commands over the admin API (cutroom admin --help)
  backup <dir>                    Embedded mode: the database (dumped by the running service when it runs)
                                  and the files into a new folder <dir>
  restore <dir>                   Embedded mode: a backup into CUTROOM_DATA_DIR, which must hold no database

For callers of the API (CUTROOM_URL, CUTROOM_API_KEY; cutroom <command> --help):
  clip <file|url>                 Upload (or analyse a link), quote, clip, list the clips, download their renders
  transcribe <file>               Quote, then transcribe audio or video into SRT, WebVTT or text
  clips list|show|render|download|review   A submission's clips
  edits get|versions|derive       A clip's edits
  templates list                  Caption templates and strategies
  renders list|get|create|download  Renders of edits
  transcriptions list|get|download  Transcriptions
  personas list|get|create|regenerate|swap|download  Personas, portraits, videos
  generations models|create|get|download  Images and videos made by models
  monitors list|get|create|start|stop  Channel and live monitors
  posts list|get|create|delete    Posts to connected accounts
  webhooks list|create|delete     Webhooks
  balance                         The workspace's credits
  jobs                            Submissions, renders and transcriptions not finished
  completion bash|zsh             A shell completion script
  mcp                             An MCP server over stdio for desktop assistants (docs/mcp.md)
`;

/** The running service's database dump, over the admin API (its URL and token as `cutroom admin` finds them). */
async function fetchDump(): Promise<Uint8Array> {
  const conn = resolveConnection({}, process.env);
  const res = await fetch(`${conn.baseUrl}${ADMIN_PREFIX}/backup/database`, { headers: { authorization: `Bearer ${conn.token}` } });
  if (!res.ok) throw new BackupError(`the running service refused the dump: HTTP ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function backupCommand(command: 'backup' | 'restore', args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    process.stderr.write(`cutroom: usage: cutroom ${command} <dir>\n`);
    return 2;
  }
  const dir = positionals[0];
  const log = (line: string) => process.stderr.write(`cutroom ${command}: ${line}\n`);
  try {
    const config = loadConfig();
    const m = command === 'backup' ? await backup(config, dir, { fetchDump, log }) : await restore(config, dir, { log });
    const files = m.storage === 'local' ? `${m.files.count} files (${m.files.bytes} bytes)` : 'files in the bucket';
    process.stdout.write(`${command === 'backup' ? 'backed up' : 'restored'}: database (${m.mode} dump of ${m.created_at}), ${files}\n`);
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      process.stderr.write(`cutroom ${command}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

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
    case 'backup':
    case 'restore':
      return backupCommand(command, rest);
    case 'clip':
    case 'transcribe':
    case 'clips':
    case 'edits':
    case 'templates':
    case 'renders':
    case 'transcriptions':
    case 'personas':
    case 'generations':
    case 'monitors':
    case 'posts':
    case 'webhooks':
    case 'balance':
    case 'jobs':
    case 'completion': {
      // Loaded only for these commands: they run on the SDK (sdk/, built by `npm run build`).
      const { runUserCli } = await import('./user-cli.js');
      return runUserCli(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
    }
    case 'mcp': {
      // Loaded only for this command: it runs on the SDK (sdk/) and the MCP SDK; stdout carries the protocol.
      const { runMcpStdio } = await import('./mcp/stdio.js');
      return runMcpStdio(process.env, process.stderr);
    }
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
