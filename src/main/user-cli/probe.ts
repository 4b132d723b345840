import { execFile } from 'node:child_process';

/**
 * The duration in seconds of a local video, measured with ffprobe before anything is uploaded; undefined
 * when ffprobe is not on the PATH (`env.PATH`, the CLI's environment) or cannot read the file — the
 * service measures it anyway, so the CLI then simply goes on.
 */
export function probeDuration(file: string, env: Readonly<Record<string, string | undefined>>, timeoutMs = 30_000): Promise<number | undefined> {
  const args = ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', file];
  return new Promise((resolve) => {
    execFile('ffprobe', args, { env: { ...env }, timeout: timeoutMs, windowsHide: true }, (err, stdout) => {
      if (err) return resolve(undefined);
      const seconds = Number(String(stdout).trim().split('\n')[0]);
      resolve(Number.isFinite(seconds) && seconds > 0 ? seconds : undefined);
    });
  });
}
