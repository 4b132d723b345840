import type { OutStream } from './progress.js';

/** What one look at a job says: its stage, how far it is (0 to 1) and the seconds left, when known. */
export interface JobState {
  stage: string;
  fraction?: number | null;
  secondsLeft?: number | null;
}

/** One job's progress on stderr: `update` on every poll, `done` at the end. */
export interface JobProgress {
  update(state: JobState): void;
  done(): void;
}

/** 80 → "1m20s", 3725 → "1h02m", 7 → "7s" */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The local time as HH:MM:SS. */
export function timestamp(at: Date = new Date()): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** `transcribing  42 %  ~1m20s left` (the parts known). */
export function describeState(s: JobState): string {
  const parts = [s.stage];
  if (typeof s.fraction === 'number' && Number.isFinite(s.fraction)) parts.push(`${Math.floor(Math.min(1, Math.max(0, s.fraction)) * 100)} %`);
  if (typeof s.secondsLeft === 'number' && Number.isFinite(s.secondsLeft) && s.secondsLeft > 0) parts.push(`~${formatEta(s.secondsLeft)} left`);
  return parts.join('  ');
}

/**
 * Progress of a job labelled `label` (`submission sub_…`): on a terminal one line redrawn in place; on
 * anything else (a pipe, a file, CI logs) a timestamped plain line each time what it says changes,
 * `[14:02:07] submission sub_…: transcribing  42 %  ~1m20s left`.
 */
export function jobProgress(out: OutStream, label: string, now: () => Date = () => new Date()): JobProgress {
  const tty = out.isTTY === true;
  let last = '';
  let open = false;
  return {
    update(state) {
      const text = `${label}: ${describeState(state)}`;
      if (text === last && !tty) return;
      last = text;
      const line = `[${timestamp(now())}] ${text}`;
      if (tty) {
        out.write(`\r\u001b[2K${line}`);
        open = true;
      } else out.write(`${line}\n`);
    },
    done() {
      if (open) out.write('\n');
      open = false;
    },
  };
}
