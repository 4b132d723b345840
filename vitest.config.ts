import { defineConfig } from 'vitest/config';

// `npx vitest run` runs every project; `npx vitest run --project unit` (or http, integration, flows, e2e) one of them.
// A test's folder is its project: how it runs, not what it tests, decides where it is filed.
// - test/unit: pure functions only (no module mocks, no global state): files share workers, so the project takes seconds.
// - test/http: the API through the app; test/integration: databases, queue, storage, media, engines, publishers.
// - test/flows: runs of minutes inside one test process (an in-process app with its workers, local fake servers):
//   the clipping pipeline, generation chains, feed monitors. Nothing in them kills a process or measures a time.
// - test/browser: the Studio in a real browser against a real server process; nothing timed or killed.
// - test/e2e: real server processes, kills, shutdown limits, long transcriptions, a broadcast aired in real time.
// Vitest's default is one file at a time on a 2-core machine (cores - 1): most files wait on child processes
// (ffmpeg, pocketsphinx) or sockets, so the unit, http, integration and flows files run two at a time (vitest
// starts a group's files by project name: the flows first, so no long file is left running alone at the end);
// then the browser files, two at a time (each waits on its own server, clipping and browser in turn); the e2e files
// run last, one at a time, so their timings are their own.
const PARALLEL = { maxWorkers: 2, sequence: { groupOrder: 0 } };
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, ...PARALLEL } },
      { extends: true, test: { name: 'http', include: ['test/http/**/*.test.ts'], ...PARALLEL } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], ...PARALLEL } },
      { extends: true, test: { name: 'flows', include: ['test/flows/**/*.test.ts'], ...PARALLEL } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'], maxWorkers: 2, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
