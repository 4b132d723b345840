import { configDefaults, defineConfig } from 'vitest/config';

/** Runs that take minutes inside one test process (an in-process app with its workers, local fake
 * servers): the clipping pipeline, generation chains, feed monitors. Nothing in them kills a process or
 * measures a time, so they share the two workers of the first group with the short files (project `flows`). */
const FLOWS = [
  'test/integration/clipping-pipeline.test.ts',
  'test/integration/measured-duration.test.ts',
  'test/integration/monitor-feed.test.ts',
  'test/integration/generations-chain.test.ts',
];

/** End-to-end runs with real server processes, kills, shutdown limits or a broadcast aired in real time:
 * one at a time, after everything else, so their timings are their own. */
const E2E = [
  'test/integration/pipeline-restart.test.ts',
  'test/integration/server-process.test.ts',
  'test/integration/asr-pocketsphinx.test.ts',
  'test/integration/sdk-pipeline.test.ts',
  'test/integration/shutdown.test.ts',
  'test/integration/scale-out-faults.test.ts',
  'test/integration/monitor-live.test.ts',
];

// `npx vitest run` runs every project; `npx vitest run --project unit` (or http, integration, flows, e2e) one of them.
// Vitest's default is one file at a time on a 2-core machine (cores - 1): most files wait on child
// processes (ffmpeg, pocketsphinx) or sockets, so the unit, http, integration and flows files run two
// at a time (vitest starts a group's files by project name: the flows first, so no long file is left
// running alone at the end); the e2e files (real server processes, kills, timings) run after them, one at a time.
const PARALLEL = { maxWorkers: 2, sequence: { groupOrder: 0 } };
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      // Pure functions only (no module mocks, no global state): files share workers, so the project takes seconds.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, ...PARALLEL } },
      { extends: true, test: { name: 'http', include: ['test/http/**/*.test.ts'], ...PARALLEL } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: [...configDefaults.exclude, ...FLOWS, ...E2E], ...PARALLEL } },
      { extends: true, test: { name: 'flows', include: FLOWS, ...PARALLEL } },
      { extends: true, test: { name: 'e2e', include: E2E, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
