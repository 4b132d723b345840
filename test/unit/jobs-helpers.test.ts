import { describe, expect, it } from 'vitest';
import { enqueueAfterCommit, QUEUE_UNAVAILABLE, sendJob } from '../../src/domain/jobs/enqueue.js';
import { attemptOf, retryOrFail, throwIfLost } from '../../src/domain/jobs/retry.js';
import { errorCodeOf, isRetryable } from '../../src/domain/errors.js';
import { failsWhenLost, JOB_NAMES, JOB_SCHEDULES, JOBS, jobSendOptions } from '../../src/shared/jobs.js';
import { FakeQueue } from '../helpers/fake-queue.js';

describe('the job table', () => {
  it('names every job once, in order, with the schedules of the cron jobs', () => {
    expect(JOB_NAMES).toEqual([
      'maintenance.purge',
      'submission.process',
      'render.process',
      'render.expire',
      'submission.expire',
      'transcription.process',
      'post.publish_item',
      'webhook.deliver',
      'webhook.dispatch',
      'monitor.poll',
      'monitor.revive',
      'monitor.batch',
      'generation.process',
      'persona.portrait',
      'persona.swap',
    ]);
    expect(JOB_SCHEDULES).toEqual([
      { name: 'maintenance.purge', cron: '*/10 * * * *' },
      { name: 'render.expire', cron: '* * * * *' },
      { name: 'submission.expire', cron: '*/5 * * * *' },
      { name: 'webhook.dispatch', cron: '* * * * *' },
      { name: 'monitor.revive', cron: '* * * * *' },
    ]);
  });

  it('sends a job with its options and its singleton key', () => {
    expect(jobSendOptions('render.process', { renderId: 'rnd_1' })).toEqual({
      expireInSeconds: 3600,
      retryLimit: 2,
      retryDelaySeconds: 5,
      singletonKey: 'render:rnd_1',
    });
    expect(jobSendOptions('post.publish_item', { itemId: 'item_1' })).toEqual({ retryLimit: 3, retryDelaySeconds: 2, expireInSeconds: 7200 });
    expect(jobSendOptions('render.expire', {})).toEqual({});
    expect(jobSendOptions('generation.process', { generationId: 'gen_1' })).toEqual({
      expireInSeconds: 7 * 3600,
      retryLimit: 2,
      retryDelaySeconds: 5,
      singletonKey: 'generation:gen_1',
    });
  });
});

describe('sendJob and enqueueAfterCommit', () => {
  it('sends with the table’s options, a start time when given', async () => {
    const queue = new FakeQueue();
    const at = new Date('2030-01-01T00:00:00Z');
    expect(await sendJob(queue, { name: 'post.publish_item', payload: { itemId: 'i1', token: 't' }, startAfter: at })).toBe('job-1');
    await sendJob(queue, { name: 'render.process', payload: { renderId: 'r1' }, startAfter: null });
    expect(queue.sent).toEqual([
      { name: 'post.publish_item', payload: { itemId: 'i1', token: 't' }, opts: { ...JOBS['post.publish_item'].options, startAfter: at } },
      { name: 'render.process', payload: { renderId: 'r1' }, opts: { ...JOBS['render.process'].options, singletonKey: 'render:r1' } },
    ]);
  });

  it('sends one job or several and marks nothing when the queue takes them', async () => {
    const queue = new FakeQueue();
    const marked: string[] = [];
    await enqueueAfterCommit(queue, { name: 'render.process', payload: { renderId: 'r1' } }, async (code) => void marked.push(code));
    await enqueueAfterCommit(
      queue,
      ['a', 'b'].map((itemId) => ({ name: 'post.publish_item' as const, payload: { itemId } })),
      async (code) => void marked.push(code),
    );
    expect(queue.sent.map((s) => s.payload)).toEqual([{ renderId: 'r1' }, { itemId: 'a' }, { itemId: 'b' }]);
    expect(marked).toEqual([]);
  });

  it('when the queue refuses: marks the records QUEUE_UNAVAILABLE once, then throws the queue’s error', async () => {
    const queue = new FakeQueue(2);
    const marked: string[] = [];
    const jobs = ['a', 'b', 'c'].map((itemId) => ({ name: 'post.publish_item' as const, payload: { itemId } }));
    await expect(enqueueAfterCommit(queue, jobs, async (code) => void marked.push(code))).rejects.toThrow('queue down');
    expect(marked).toEqual([QUEUE_UNAVAILABLE]);
    expect(QUEUE_UNAVAILABLE).toBe('QUEUE_UNAVAILABLE');
    expect(queue.sent.map((s) => s.payload)).toEqual([{ itemId: 'a' }]); // the third is never tried
  });

  it('a failure of the marking itself is what the caller sees', async () => {
    const queue = new FakeQueue(1);
    await expect(
      enqueueAfterCommit(queue, { name: 'render.process', payload: { renderId: 'r1' } }, async () => {
        throw new Error('database down too');
      }),
    ).rejects.toThrow('database down too');
  });
});

describe('retryOrFail', () => {
  const retryableError = Object.assign(new Error('try later'), { retryable: true });
  const permanentError = new Error('never');

  async function outcome(err: unknown, attempt: { retryCount: number; retryLimit: number }, retryable?: (e: unknown) => boolean) {
    const events: string[] = [];
    try {
      await retryOrFail(err, attempt, {
        retryable,
        onRetry: () => void events.push('retry'),
        fail: async (e) => void events.push(`fail:${(e as Error).message}`),
      });
      events.push('returned');
    } catch (thrown) {
      events.push(thrown === err ? 'rethrown' : 'other');
    }
    return events;
  }

  it('throws a retryable error again while retries are left, then fails the record', async () => {
    expect(await outcome(retryableError, { retryCount: 0, retryLimit: 2 })).toEqual(['retry', 'rethrown']);
    expect(await outcome(retryableError, { retryCount: 1, retryLimit: 2 })).toEqual(['retry', 'rethrown']);
    expect(await outcome(retryableError, { retryCount: 2, retryLimit: 2 })).toEqual(['fail:try later', 'returned']);
  });

  it('fails at once on an error that is not retryable (default rule: `retryable: true` on the error)', async () => {
    expect(await outcome(permanentError, { retryCount: 0, retryLimit: 2 })).toEqual(['fail:never', 'returned']);
    expect(isRetryable(retryableError)).toBe(true);
    expect(isRetryable(permanentError)).toBe(false);
    expect(isRetryable({ retryable: 'yes' })).toBe(false);
    expect(isRetryable(null)).toBe(false);
  });

  it('follows the caller’s rule when given', async () => {
    expect(await outcome(permanentError, { retryCount: 0, retryLimit: 3 }, () => true)).toEqual(['retry', 'rethrown']);
    expect(await outcome(retryableError, { retryCount: 0, retryLimit: 3 }, () => false)).toEqual(['fail:try later', 'returned']);
  });

  it("a lost last run records JOB_LOST through the run's own fail, whatever its retry rule", async () => {
    const attempt = attemptOf('post.publish_item', { retryCount: 3, lost: true });
    expect(attempt.lost).toBe(true);
    const events: string[] = [];
    try {
      throwIfLost(attempt);
      events.push('worked');
    } catch (err) {
      await retryOrFail(err, attempt, { retryable: () => true, fail: async (e) => void events.push(`fail:${errorCodeOf(e)}`) });
    }
    expect(events).toEqual(['fail:JOB_LOST']);
    expect(() => throwIfLost(attemptOf('post.publish_item', { retryCount: 3 }))).not.toThrow();
  });

  it('marks the jobs with a record a lost last run would leave unfinished', () => {
    expect(JOB_NAMES.filter(failsWhenLost)).toEqual([
      'submission.process',
      'render.process',
      'transcription.process',
      'post.publish_item',
      'monitor.batch',
      'generation.process',
      'persona.portrait',
      'persona.swap',
    ]);
  });

  it('takes the retry limit from the job table', () => {
    expect(attemptOf('render.process', { retryCount: 1 })).toEqual({ retryCount: 1, retryLimit: 2 });
    expect(attemptOf('post.publish_item', { retryCount: 0 })).toEqual({ retryCount: 0, retryLimit: 3 });
    expect(attemptOf('submission.process', { retryCount: 2 })).toEqual({ retryCount: 2, retryLimit: 2 });
  });
});
