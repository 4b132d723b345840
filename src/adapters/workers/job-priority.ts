import type { ChildProcess } from 'node:child_process';
import os from 'node:os';

/**
 * The scheduling priority (nice value) of job work: the compute pool's threads and the processes the
 * jobs start (ffmpeg, pocketsphinx). Below the event loop's, so that when the cores are short an
 * embedded process answers requests first and the jobs take what is left.
 */
export const JOB_PRIORITY = os.constants.priority.PRIORITY_BELOW_NORMAL;

/**
 * Runs a tool's process at JOB_PRIORITY. Called right after spawn: the process has just been
 * exec'd and has not started its own threads yet, and the threads it starts inherit the value.
 * Where the system refuses (not Linux, a sandbox), the process keeps the service's priority.
 */
export function runAtJobPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    os.setPriority(child.pid, JOB_PRIORITY);
  } catch {
    // Already gone, or not allowed: it runs at the service's priority.
  }
}
