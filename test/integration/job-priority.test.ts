import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PocketsphinxEngine } from '../../src/adapters/asr/pocketsphinx.asr.js';
import { startFfmpeg } from '../../src/adapters/media/ffmpeg-run.js';
import { JOB_PRIORITY } from '../../src/adapters/workers/job-priority.js';
import type { Vad } from '../../src/ports/vad.js';
import { makeSpeechWav } from '../helpers/speech-fixtures.js';

/** The nice value of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceness(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/** This process's children running `command` (from /proc/<pid>/task/<tid>/children). */
function childrenNamed(command: string): number[] {
  const pids = fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  return pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === command;
    } catch {
      return false;
    }
  });
}

describe.runIf(process.platform === 'linux')('job tools run below the service’s priority', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-priority-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('ffmpeg, every one of its threads, while the test process keeps its own priority', async () => {
    expect(JOB_PRIORITY).toBeGreaterThan(os.getPriority());
    const before = new Set(childrenNamed('ffmpeg'));
    const ff = startFfmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'null', '-']);
    const done = ff.done.catch((err: unknown) => err);
    try {
      // Wait (up to 15 s on a busy machine) until it has started its encoder threads.
      let pid: number | undefined;
      let nice: number[] = [];
      for (const until = Date.now() + 15_000; Date.now() < until && nice.length < 2;) {
        await new Promise((r) => setTimeout(r, 200));
        pid = childrenNamed('ffmpeg').find((p) => !before.has(p));
        nice = pid ? threadNiceness(pid) : [];
      }
      expect(pid).toBeGreaterThan(0);
      expect(nice.length).toBeGreaterThan(1);
      expect(new Set(nice)).toEqual(new Set([JOB_PRIORITY]));
    } finally {
      ff.kill();
      await done;
    }
  });

  it('pocketsphinx', async () => {
    const wav = await makeSpeechWav(path.join(dir, 'speech.wav'), [{ silence: 0.2 }, { testdata: 'goforward' }]);
    const out = path.join(dir, 'nice.txt');
    // Stands in for pocketsphinx_batch: writes the niceness it runs at (after a moment, as the real one
    // has loaded its model by the time it decodes), then fails.
    const bin = path.join(dir, 'pocketsphinx_batch');
    fs.writeFileSync(bin, `#!/bin/sh\nsleep 0.3\nnice > '${out}'\nexit 1\n`, { mode: 0o755 });
    const vad: Vad = { name: 'one segment', detect: async () => [{ start: 0, end: 2 }] } as unknown as Vad;
    await expect(new PocketsphinxEngine({ vad, binary: bin, concurrency: 1 }).transcribe(wav.path, {})).rejects.toMatchObject({ code: 'ASR_ENGINE_FAILED' });
    expect(Number(fs.readFileSync(out, 'utf8').trim())).toBe(JOB_PRIORITY);
  });
});
