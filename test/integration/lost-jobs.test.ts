import { afterEach, describe, expect, it } from 'vitest';
import { registerHandlers, type HandlerMap } from '../../src/jobs/registry.js';
import { JOB_NAMES, type JobName } from '../../src/shared/jobs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';

/**
 * A run lost with its process (here: jobs left `active` by a process that is gone, returned by the
 * embedded start's recoverOrphans before the handlers are registered). A job marked `failsWhenLost`
 * whose lost run was its last goes to its handler once more with `lost` set (the handler records the
 * failure: test/http/transcriptions.routes.test.ts shows the record failed JOB_LOST and refunded); one
 * with retries left simply runs again; a job without that mark is not handed back.
 */
describe.each(DB_KINDS)('on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('hands a job lost on its last run to its handler once with lost set; retries the others; leaves unmarked jobs alone', async () => {
    t = await createTestApp({ db: kind, startQueue: true });
    const q = t.c.queue;
    const last = (await q.send('transcription.process', { transcriptionId: 'trn_last' }, { retryLimit: 0 }))!;
    const again = (await q.send('transcription.process', { transcriptionId: 'trn_again' }, { retryLimit: 1 }))!;
    const unmarked = (await q.send('webhook.deliver', { deliveryId: 'dlv_last' }, { retryLimit: 0 }))!;
    // Taken by a process that then died: active, nobody running them.
    await t.c.database.sql.executeSql(`update pgboss.job set state = 'active', started_on = now() where id = any($1::uuid[])`, [[last, again, unmarked]]);
    expect(await q.recoverOrphans()).toBe(3);

    const calls: Array<{ name: JobName; payload: unknown; lost: boolean }> = [];
    const handlers = Object.fromEntries(
      JOB_NAMES.map((name) => [
        name,
        async (payload: unknown, ctx: { lost?: boolean }) => {
          calls.push({ name, payload, lost: ctx.lost === true });
        },
      ]),
    ) as unknown as HandlerMap;
    await registerHandlers(q, handlers, 1);

    const ids = (c: { payload: unknown }) => Object.values(c.payload as object)[0] as string;
    const until = Date.now() + 20_000;
    while (!(calls.some((c) => ids(c) === 'trn_last') && calls.some((c) => ids(c) === 'trn_again'))) {
      if (Date.now() > until) throw new Error(`calls so far: ${JSON.stringify(calls)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1500));
    const ours = calls.filter((c) => ['trn_last', 'trn_again', 'dlv_last'].includes(ids(c)));
    expect(ours).toHaveLength(2);
    expect(ours).toContainEqual({ name: 'transcription.process', payload: { transcriptionId: 'trn_last' }, lost: true });
    expect(ours).toContainEqual({ name: 'transcription.process', payload: { transcriptionId: 'trn_again' }, lost: false });
    const states = await t.c.database.sql.executeSql(`select id, state from pgboss.job where id = any($1::uuid[])`, [[last, again, unmarked]]);
    const state = Object.fromEntries((states.rows as Array<{ id: string; state: string }>).map((r) => [r.id, r.state]));
    expect(state).toEqual({ [last]: 'failed', [again]: 'completed', [unmarked]: 'failed' });
  });
});
