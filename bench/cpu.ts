import fs from 'node:fs';

/** CPU seconds (user + system) of the child processes this process waited for (ffmpeg, pocketsphinx…); null off Linux. */
export function childCpuSeconds(): number | null {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, cutime and cstime are fields 16 and 17 (1-based).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a running process has used so far (an api process under load); null off Linux. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 (1-based), in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Busy and total clock ticks of the whole machine so far (all cores, /proc/stat); null off Linux. */
export function machineTicks(): { busy: number; total: number } | null {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    // idle and iowait are fields 4 and 5 of the line.
    return { busy: total - cpu[3] - (cpu[4] ?? 0), total };
  } catch {
    return null;
  }
}
