import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(
      `Another Cutroom process (pid ${pid}) is using the data directory ${path.dirname(lockPath)}. ` +
        'The embedded database allows one process at a time: stop it first, use another CUTROOM_DATA_DIR, ' +
        'or set DATABASE_URL to run several processes on PostgreSQL.',
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<dir>/cutroom.lock` for this process; a lock left by a dead process is taken over. */
export function acquireDataDirLock(dir: string): { release(): void } {
  const lockPath = path.join(dir, 'cutroom.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirLockedError(lockPath, pid);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not take the lock ${lockPath}`);
}
