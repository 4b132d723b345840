import { afterEach, describe, expect, it } from 'vitest';
import { registerHandlers, type HandlerMap } from '../../src/jobs/registry.js';
import { JOB_NAMES } from '../../src/shared/jobs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * CUTROOM_WORKER_CONCURRENCY is how many jobs of one kind a process runs at once: six render jobs are
 * sent, every handler holds its job until released, and the most seen running together is the setting.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function mostAtOnce(setting: string | undefined): Promise<number> {
  t = await createTestApp({ startQueue: true, env: setting === undefined ? {} : { CUTROOM_WORKER_CONCURRENCY: setting } });
  let running = 0;
  let most = 0;
  let finished = 0;
  const release: Array<() => void> = [];
  const handlers = Object.fromEntries(JOB_NAMES.map((n) => [n, async () => {}])) as unknown as HandlerMap;
  handlers['render.process'] = async () => {
    running++;
    most = Math.max(most, running);
    await new Promise<void>((r) => release.push(r));
    running--;
    finished++;
  };
  await registerHandlers(t.c.queue, handlers, t.c.config.workerConcurrency);
  for (let i = 0; i < 6; i++) await t.c.queue.send('render.process', { renderId: `rnd_${i}` });
  // Release one job at a time once the loops have taken what they can; the next ones start as places free up.
  const until = Date.now() + 30_000;
  while (finished < 6) {
    if (Date.now() > until) throw new Error(`only ${finished} of 6 jobs ran within 30 s`);
    await new Promise((r) => setTimeout(r, 300));
    release.shift()?.();
  }
  return most;
}

describe('CUTROOM_WORKER_CONCURRENCY', () => {
  it('runs one job of a kind at a time when set to 1', async () => {
    expect(await mostAtOnce('1')).toBe(1);
  });

  it('runs up to three at once when set to 3', async () => {
    expect(await mostAtOnce('3')).toBe(3);
  });

  it('defaults to two', async () => {
    expect(await mostAtOnce(undefined)).toBe(2);
  });
});
