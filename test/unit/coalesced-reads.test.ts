import { describe, expect, it } from 'vitest';
import { CoalescedReads } from '../../src/adapters/db/coalesced-reads.js';

/** A store whose values change on every query, so an answer tells which query produced it. */
function store(opts: { fail?: (keys: string[]) => boolean } = {}) {
  const calls: string[][] = [];
  let version = 0;
  const pending: Array<() => void> = [];
  const reads = new CoalescedReads<string, string>(async (keys) => {
    calls.push(keys);
    const v = ++version;
    await new Promise<void>((r) => pending.push(r));
    if (opts.fail?.(keys)) throw new Error(`query ${v} failed`);
    return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `${k}@${v}`]));
  }, 3);
  const finishNext = async () => {
    await new Promise((r) => setImmediate(r));
    pending.shift()!();
  };
  return { reads, calls, finishNext };
}

describe('CoalescedReads', () => {
  it('starts a read in the same turn of the event loop, with every key asked for in that turn', async () => {
    const { reads, calls } = store();
    void reads.get('a');
    void reads.get('b');
    void reads.get('a');
    expect(calls).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([['a', 'b']]);
  });

  it('answers the reads asked for while a query ran with one query, each key once, a missing key as undefined', async () => {
    const { reads, calls, finishNext } = store();
    const a = reads.get('a');
    await new Promise((r) => setImmediate(r));
    const later = [reads.get('b'), reads.get('c'), reads.get('b'), reads.get('missing')];
    await finishNext();
    expect(await a).toBe('a@1');
    await finishNext();
    expect(await Promise.all(later)).toEqual(['b@2', 'c@2', 'b@2', undefined]);
    expect(calls).toEqual([['a'], ['b', 'c', 'missing']]);
  });

  it('never hands a read the answer of a query that started before it was asked for', async () => {
    const { reads, finishNext } = store();
    const first = reads.get('a');
    await new Promise((r) => setImmediate(r));
    const second = reads.get('a');
    await finishNext();
    await finishNext();
    expect(await first).toBe('a@1');
    expect(await second).toBe('a@2');
  });

  it('splits more keys than one query takes', async () => {
    const { reads, calls, finishNext } = store();
    void reads.get('x');
    await new Promise((r) => setImmediate(r));
    const rest = ['a', 'b', 'c', 'd', 'e'].map((k) => reads.get(k));
    for (let i = 0; i < 3; i++) await finishNext();
    expect(await Promise.all(rest)).toEqual(['a@2', 'b@2', 'c@2', 'd@3', 'e@3']);
    expect(calls).toEqual([['x'], ['a', 'b', 'c'], ['d', 'e']]);
  });

  it('fails only the reads of a failed query and goes on with the next', async () => {
    const { reads, finishNext } = store({ fail: (keys) => keys.includes('bad') });
    const bad = reads.get('bad');
    await new Promise((r) => setImmediate(r));
    const next = reads.get('a');
    await finishNext();
    await expect(bad).rejects.toThrow('query 1 failed');
    await finishNext();
    expect(await next).toBe('a@2');
  });
});
