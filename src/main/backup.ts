import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config/env.js';
import { openDatabase } from '../adapters/db/database.js';
import { acquireDataDirLock, DataDirLockedError } from './lockfile.js';
import { DATA_FILES } from './serve.js';

/**
 * `cutroom backup <dir>` and `cutroom restore <dir>` for the embedded mode (docs/operations.md):
 * a consistent dump of the PGlite database plus a copy of the local files and the generated secrets.
 *
 * Stopped service: the backup takes the data directory's lock, opens the database and dumps it.
 * Running service (the lock is held): the database is dumped by the running process itself
 * (GET /admin/v1/backup/database, between two transactions), then the files are copied. Files are
 * written before the rows that point at them (temp file, then rename) and never changed afterwards, so
 * a file copied after the dump is there for every row of the dump; what an expiry sweep deletes in
 * between is missing from the backup and its row is marked expired by the next sweep after a restore.
 */

export const MANIFEST = 'manifest.json';
const DATABASE_FILE = 'database.tar.gz';
const FILES_DIR = 'files';
const SECRETS_DIR = 'secrets';
/** Work in progress of the local driver: not part of a backup. */
const SKIPPED_FILE_DIRS = new Set(['.tmp']);

export interface BackupManifest {
  format: 1;
  created_at: string;
  /** `online`: dumped by the running service; `offline`: by this command while the service was stopped. */
  mode: 'online' | 'offline';
  database: string;
  /** `local`: the files are in `files/`; `s3`: they stay in the bucket (bucket versioning covers them). */
  storage: 'local' | 's3';
  files: { count: number; bytes: number };
  secrets: string[];
}

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupIo {
  /** The running service's dump (GET /admin/v1/backup/database); asked only while the data directory is locked. */
  fetchDump(): Promise<Uint8Array>;
  log(line: string): void;
}

function assertEmbedded(config: Config, command: string): void {
  if (config.databaseUrl) {
    throw new BackupError(
      `cutroom ${command} is for the embedded mode; with DATABASE_URL use pg_dump/pg_restore and the bucket's versioning (docs/operations.md, "Backups")`,
    );
  }
}

function copyTree(from: string, to: string, skip: (rel: string) => boolean): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  if (!fs.existsSync(from)) return { count, bytes };
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      if (rel && skip(rel)) return false;
      const st = fs.statSync(src);
      if (st.isFile()) {
        count++;
        bytes += st.size;
      }
      return true;
    },
  });
  return { count, bytes };
}

const skipWork = (rel: string) => SKIPPED_FILE_DIRS.has(rel.split(path.sep)[0]);

/** Writes a backup of the embedded installation of `config` into `dir` (created; it must not exist or be empty). */
export async function backup(config: Config, dir: string, io: BackupIo): Promise<BackupManifest> {
  assertEmbedded(config, 'backup');
  const pgdata = path.join(config.dataDir, 'pgdata');
  if (!fs.existsSync(pgdata)) throw new BackupError(`no database in ${config.dataDir} (CUTROOM_DATA_DIR): nothing to back up`);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new BackupError(`${dir} is not empty: back up into a new folder`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  let lock: { release(): void } | undefined;
  let mode: BackupManifest['mode'];
  let dump: Uint8Array;
  try {
    lock = acquireDataDirLock(config.dataDir);
    mode = 'offline';
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    mode = 'online';
  }
  try {
    if (lock) {
      const database = await openDatabase({ dataDir: pgdata });
      try {
        dump = await database.dump!();
      } finally {
        await database.close();
      }
    } else {
      io.log('the service is running: its database is dumped by the service itself');
      dump = await io.fetchDump();
    }
    fs.writeFileSync(path.join(dir, DATABASE_FILE), dump, { mode: 0o600 });

    const files =
      config.storage.driver === 'local' ? copyTree(path.join(config.dataDir, FILES_DIR), path.join(dir, FILES_DIR), skipWork) : { count: 0, bytes: 0 };
    const secrets = Object.values(DATA_FILES).filter((name) => fs.existsSync(path.join(config.dataDir, name)));
    if (secrets.length > 0) fs.mkdirSync(path.join(dir, SECRETS_DIR), { mode: 0o700 });
    for (const name of secrets) fs.copyFileSync(path.join(config.dataDir, name), path.join(dir, SECRETS_DIR, name));
    for (const name of secrets) fs.chmodSync(path.join(dir, SECRETS_DIR, name), 0o600);

    const manifest: BackupManifest = {
      format: 1,
      created_at: new Date().toISOString(),
      mode,
      database: DATABASE_FILE,
      storage: config.storage.driver,
      files,
      secrets,
    };
    fs.writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return manifest;
  } finally {
    lock?.release();
  }
}

function readManifest(dir: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${dir} is not a Cutroom backup (no readable ${MANIFEST})`);
  }
  if (manifest.format !== 1) throw new BackupError(`${dir}: backup format ${String(manifest.format)} is not known to this version`);
  return manifest;
}

/**
 * Restores the backup in `dir` into the data directory of `config`, which must hold no database yet
 * (a new CUTROOM_DATA_DIR, or the old `pgdata` moved away) and must not be in use. Migrations of this
 * version run on the restored database.
 */
export async function restore(config: Config, dir: string, io: Pick<BackupIo, 'log'>): Promise<BackupManifest> {
  assertEmbedded(config, 'restore');
  const manifest = readManifest(dir);
  const pgdata = path.join(config.dataDir, 'pgdata');
  if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0) {
    throw new BackupError(`${config.dataDir} already holds a database: restore into a new CUTROOM_DATA_DIR, or move ${pgdata} away first`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const tarball = fs.readFileSync(path.join(dir, manifest.database));
    const loaded = new PGlite(pgdata, { loadDataDir: new Blob([tarball]) });
    await loaded.waitReady;
    await loaded.close();
    // Migrations of this version, and a check that the database opens.
    const database = await openDatabase({ dataDir: pgdata });
    await database.ping();
    await database.close();

    if (manifest.storage === 'local') copyTree(path.join(dir, FILES_DIR), path.join(config.dataDir, FILES_DIR), () => false);
    for (const name of manifest.secrets) {
      const target = path.join(config.dataDir, name);
      fs.copyFileSync(path.join(dir, SECRETS_DIR, name), target);
      fs.chmodSync(target, 0o600);
    }
    if (manifest.storage === 's3') io.log('the files are in the bucket: restore them there (docs/operations.md, "Backups")');
    return manifest;
  } finally {
    lock.release();
  }
}
