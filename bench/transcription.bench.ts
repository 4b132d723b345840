import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { transcriptions } from '../src/adapters/db/schema/index.js';
import type { TranscriptionProcessorDeps } from '../src/domain/transcriptions/transcriptions.processor.js';
import type { Cue } from '../src/domain/transcripts/cues.js';
import { createTestApp } from '../test/helpers/app.js';
import { makeTalkWav, speechCacheDir } from '../test/helpers/speech-fixtures.js';
import { childCpuSeconds } from './cpu.js';

/**
 * Standalone transcription speed (issue 6): wall time ÷ audio duration for a generated talk
 * (default 10 minutes: makeTalkWav, espeak-ng sentences in two voices, pocketsphinx-testdata read
 * speech and pauses, 16 kHz WAV), without and then with speaker labels.
 *
 * It runs the real service code in this process: an embedded container on an in-memory PGlite
 * (queue started, no workers), the WAV put into storage as an uploaded media, POST /transcriptions'
 * service call (probe, SHA-256, voice detection while the caller waits, the charge), then the
 * `transcription.process` job's `run(id)` called directly, so the queue's polling is not measured.
 * The job's steps (WAV extraction, Silero VAD, ASR, diarization) are timed by wrapping its
 * dependencies; CPU time of this process and of its finished children (ffmpeg, pocketsphinx) is
 * printed beside wall time, since wall time depends on the other load of the machine.
 *
 * CUTROOM_* settings of the environment (CUTROOM_ASR, CUTROOM_ASR_URL, CUTROOM_ASR_CONCURRENCY, ...)
 * are passed to the container, so other engines can be measured the same way.
 *
 *   npm run bench -- transcription     or     npx tsx bench/transcription.bench.ts
 *   BENCH_MINUTES=10 (shorter for a quick run, for example 2)
 */

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);

/** CPU seconds (user + system) of this process's finished children; null off Linux. */

interface Mark {
  wall: number;
  cpu: number;
  children: number | null;
}

function mark(): Mark {
  const u = process.cpuUsage();
  return { wall: performance.now() / 1000, cpu: (u.user + u.system) / 1e6, children: childCpuSeconds() };
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function cutroomEnv(): Record<string, string> {
  const skip = new Set(['CUTROOM_DATA_DIR', 'CUTROOM_ADMIN_TOKEN', 'CUTROOM_LOG_LEVEL']);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('CUTROOM_') && !skip.has(k) && v !== undefined) env[k] = v;
  return env;
}

/** Wraps `obj[name]` (an async function) so each call's wall time is added to `steps[label]`. */
function timeMethod<T extends object>(obj: T, name: keyof T & string, label: string, steps: Map<string, number>) {
  const fn = obj[name] as unknown;
  if (typeof fn !== 'function') throw new Error(`${label}: ${name} is not a function any more; update bench/transcription.bench.ts`);
  (obj as Record<string, unknown>)[name] = async (...args: unknown[]) => {
    const t0 = performance.now();
    try {
      return await (fn as (...a: unknown[]) => Promise<unknown>).apply(obj, args);
    } finally {
      steps.set(label, (steps.get(label) ?? 0) + (performance.now() - t0) / 1000);
    }
  };
}

async function main(): Promise<void> {
  if (!(MINUTES > 0)) throw new Error(`BENCH_MINUTES must be a positive number, got ${process.env.BENCH_MINUTES}`);
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average at start ${load()} (1, 5, 15 min)`);
  const t0 = performance.now();
  const wav = await makeTalkWav(path.join(speechCacheDir(), `bench-talk-${MINUTES}m.wav`), { minutes: MINUTES });
  const d = wav.duration;
  console.log(
    `audio: ${d.toFixed(1)} s talk WAV, ${(fs.statSync(wav.path).size / 2 ** 20).toFixed(1)} MiB, made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const t = await createTestApp({ startQueue: true, env: cutroomEnv() });
  try {
    const c = t.c;
    const deps = (c.transcriptionProcessor as unknown as { d?: TranscriptionProcessorDeps }).d;
    if (!deps) throw new Error('TranscriptionProcessor has no deps field `d` any more: update bench/transcription.bench.ts');
    const steps = new Map<string, number>();
    timeMethod(deps, 'extractAudio', 'extract WAV', steps);
    timeMethod(deps.vad, 'detect', 'voice detection', steps);
    timeMethod(deps.asr, 'transcribe', `ASR (${c.config.asr.engine})`, steps);
    timeMethod(deps.diarizer, 'diarize', 'diarization', steps);

    const ws = await t.workspace({ credits: 10_000 });
    const ctx = await c.workspaces.get(ws.id);
    const up = await c.transcriptions.createUpload(ctx, { file_name: 'talk.wav', file_size: fs.statSync(wav.path).size, content_type: 'audio/wav' });
    const m = await c.transcriptions.getMedia(ws.id, up.media_id);
    await c.storage.putFile(m.storageKey, wav.path, 'audio/wav');

    const num = (v: number, n: number, digits = 1) => v.toFixed(digits).padStart(n);
    const cpu = (a: Mark, b: Mark) =>
      `CPU ${(b.cpu - a.cpu).toFixed(1)} s node${a.children === null || b.children === null ? '' : ` + ${(b.children - a.children).toFixed(1)} s children`}`;
    const results: Array<{ labels: boolean; job: number; create: number }> = [];
    for (const labels of [false, true]) {
      steps.clear();
      const a = mark();
      const started = await c.transcriptions.create(ctx, { media_id: up.media_id, speaker_labels: labels, source_language: 'en' });
      const b = mark();
      if (started.transcription.status !== 'processing') throw new Error(`expected processing, got ${started.transcription.status}`);
      const createSteps = new Map(steps);
      steps.clear();
      await c.transcriptionProcessor.run(started.transcription.id, { retryCount: 0, retryLimit: 0 });
      const e = mark();
      const [row] = await c.database.db.select().from(transcriptions).where(eq(transcriptions.id, started.transcription.id));
      if (row.status !== 'ready') {
        console.log(`transcription ended ${row.status} (${row.errorCode ?? 'no error code'})`);
        process.exitCode = 1;
        return;
      }
      const cues = (row.cues ?? []) as Cue[];
      const speakers = new Set(cues.map((q) => q.speaker).filter(Boolean));
      console.log(`\nspeaker_labels: ${labels} (${started.transcription.credits_charged} credits)`);
      console.log(
        `  POST /transcriptions  ${num(b.wall - a.wall, 7)} s  ÷ audio ${num((b.wall - a.wall) / d, 6, 3)}  (${cpu(a, b)}; ` +
          `${[...createSteps].map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ') || 'probe and hash only'})`,
      );
      console.log(`  job                   ${num(e.wall - b.wall, 7)} s  ÷ audio ${num((e.wall - b.wall) / d, 6, 3)}  (${cpu(b, e)})`);
      for (const [k, v] of steps) console.log(`    ${k.padEnd(20)}${num(v, 7)} s  ÷ audio ${num(v / d, 6, 3)}`);
      console.log(`  ${cues.length} cues${labels ? `, ${speakers.size} speakers (${[...speakers].join(', ')})` : ''}, language ${row.language}`);
      results.push({ labels, job: e.wall - b.wall, create: b.wall - a.wall });
    }
    console.log(`\ntranscription wall time ÷ audio duration (${d.toFixed(0)} s of audio, job + creation):`);
    for (const r of results) {
      console.log(
        `  ${r.labels ? 'with speaker labels   ' : 'without speaker labels'}  ${num(r.job / d, 6, 3)} (job)  ${num((r.job + r.create) / d, 6, 3)} (job + POST)  = ${(d / (r.job + r.create)).toFixed(2)}x real time`,
      );
    }
  } finally {
    await t.close();
    console.log(`load average at end ${load()} (1, 5, 15 min)`);
  }
}

await main();
