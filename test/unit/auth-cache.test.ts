import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/domain/auth/ttl-cache.js';
import { AuthCache } from '../../src/domain/auth/auth-cache.js';
import { ApiKeysService } from '../../src/domain/auth/api-keys.service.js';
import type { ApiKeysRepository, ApiKeyWithWorkspaces, NewApiKey } from '../../src/domain/auth/api-keys.records.js';
import type { WorkspaceWithPlan, WorkspacesRepository } from '../../src/domain/workspaces/workspaces.records.js';
import type { AuthChange, AuthChangeBus } from '../../src/ports/auth-changes.js';
import type { TransactionRunner, Tx } from '../../src/ports/transactions.js';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** A source that counts its reads; a read sees `data` as it is when it begins (held reads answer on `release()`). */
function countingSource<V>(data: Map<string, V>) {
  const source = {
    reads: 0,
    /** With `hold`, reads wait until `release()`. */
    hold: false,
    waiting: [] as Array<() => void>,
    load: async (id: string): Promise<V | undefined> => {
      source.reads++;
      const value = data.get(id);
      if (source.hold) await new Promise<void>((r) => source.waiting.push(r));
      return value;
    },
    release() {
      source.hold = false;
      for (const w of source.waiting.splice(0)) w();
    },
  };
  return source;
}

describe('TtlCache', () => {
  it('keeps a value ttlMs from the start of its read, then reads again', async () => {
    const clock = fakeClock();
    const data = new Map([['a', 1]]);
    const src = countingSource(data);
    const cache = new TtlCache(src.load, { ttlMs: 5000, now: clock.now, maxEntries: 10 });
    expect(await cache.get('a')).toBe(1);
    data.set('a', 2);
    clock.advance(4999);
    expect(await cache.get('a')).toBe(1);
    expect(src.reads).toBe(1);
    clock.advance(1);
    expect(await cache.get('a')).toBe(2);
    expect(src.reads).toBe(2);
  });

  it('shares one read between concurrent misses of an id', async () => {
    const clock = fakeClock();
    const src = countingSource(
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    );
    const cache = new TtlCache(src.load, { ttlMs: 5000, now: clock.now, maxEntries: 10 });
    src.hold = true;
    const answers = Promise.all([cache.get('a'), cache.get('a'), cache.get('a'), cache.get('b')]);
    await Promise.resolve();
    src.release();
    expect(await answers).toEqual([1, 1, 1, 2]);
    expect(src.reads).toBe(2);
  });

  it('does not keep what a read begun before a drop returned; later callers read again', async () => {
    const clock = fakeClock();
    const data = new Map([['a', 'old']]);
    const src = countingSource(data);
    const cache = new TtlCache(src.load, { ttlMs: 5000, now: clock.now, maxEntries: 10 });
    src.hold = true;
    const before = cache.get('a');
    data.set('a', 'new');
    cache.delete('a');
    const after = cache.get('a'); // not joined to the read begun before the drop
    // The later read answers first; the earlier one's late answer must not replace it.
    const [first, second] = src.waiting;
    second();
    expect(await after).toBe('new');
    first();
    expect(await before).toBe('old');
    expect(await cache.get('a')).toBe('new');
    expect(src.reads).toBe(2);
  });

  it('drops by predicate and clears, reads under way included', async () => {
    const clock = fakeClock();
    const data = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const src = countingSource(data);
    const cache = new TtlCache(src.load, { ttlMs: 5000, now: clock.now, maxEntries: 10 });
    for (const id of ['a', 'b', 'c']) await cache.get(id);
    data.set('a', 10);
    data.set('b', 20);
    data.set('c', 30);
    cache.deleteWhere((v) => v % 2 === 1);
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual([10, 2, 30]);
    cache.clear();
    expect(await cache.get('b')).toBe(20);
    expect(src.reads).toBe(6);
  });

  it('keeps nothing with ttlMs 0, never keeps "not found", and keeps at most maxEntries', async () => {
    const clock = fakeClock();
    const data = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const off = countingSource(data);
    const none = new TtlCache(off.load, { ttlMs: 0, now: clock.now, maxEntries: 10 });
    await none.get('a');
    await none.get('a');
    expect(off.reads).toBe(2);

    const src = countingSource(data);
    const cache = new TtlCache(src.load, { ttlMs: 5000, now: clock.now, maxEntries: 2 });
    expect(await cache.get('missing')).toBeUndefined();
    expect(await cache.get('missing')).toBeUndefined();
    expect(src.reads).toBe(2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('c'); // pushes out a, the one stored longest ago
    expect(src.reads).toBe(5);
    await cache.get('b');
    await cache.get('c');
    expect(src.reads).toBe(5);
    await cache.get('a');
    expect(src.reads).toBe(6);
  });

  it('reads now when asked fresh, and keeps that value for the next caller', async () => {
    const clock = fakeClock();
    const data = new Map([['a', 1]]);
    const src = countingSource(data);
    const cache = new TtlCache(src.load, { ttlMs: 5000, now: clock.now, maxEntries: 10 });
    await cache.get('a');
    data.set('a', 2);
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('a', true)).toBe(2);
    expect(await cache.get('a')).toBe(2);
    expect(src.reads).toBe(2);
  });
});

function workspace(id: string, plan: string): WorkspaceWithPlan {
  return { workspace: { id, planName: plan } as WorkspaceWithPlan['workspace'], plan: { name: plan } as WorkspaceWithPlan['plan'] };
}

function fakeBus() {
  const bus = {
    published: [] as AuthChange[],
    onChange: undefined as ((c: AuthChange) => void) | undefined,
    async publish(change: AuthChange) {
      bus.published.push(change);
    },
    async listen(onChange: (c: AuthChange) => void) {
      bus.onChange = onChange;
    },
    async close() {},
  } satisfies AuthChangeBus & Record<string, unknown>;
  return bus;
}

describe('AuthCache', () => {
  function setup() {
    const clock = fakeClock();
    const workspaces = new Map([
      ['w1', workspace('w1', 'free')],
      ['w2', workspace('w2', 'pro')],
      ['w3', workspace('w3', 'free')],
    ]);
    const keys = new Map<string, ApiKeyWithWorkspaces>([['k1', { id: 'k1', workspaceIds: ['w1'] } as ApiKeyWithWorkspaces]]);
    const wsSrc = countingSource(workspaces);
    const keySrc = countingSource(keys);
    const bus = fakeBus();
    const cache = new AuthCache({ key: keySrc.load, workspace: wsSrc.load }, { ttlMs: 5000, now: clock.now, bus });
    return { clock, cache, bus, wsSrc, keySrc, workspaces };
  }

  it('drops a key, a workspace, the workspaces of a plan, or everything', async () => {
    const { cache, wsSrc, keySrc } = setup();
    const warm = async () => {
      await cache.key('k1');
      for (const id of ['w1', 'w2', 'w3']) await cache.workspace(id);
    };
    await warm();
    expect([keySrc.reads, wsSrc.reads]).toEqual([1, 3]);
    await warm();
    expect([keySrc.reads, wsSrc.reads]).toEqual([1, 3]);

    cache.drop({ kind: 'key', id: 'k1' });
    await warm();
    expect([keySrc.reads, wsSrc.reads]).toEqual([2, 3]);
    cache.drop({ kind: 'workspace', id: 'w2' });
    await warm();
    expect([keySrc.reads, wsSrc.reads]).toEqual([2, 4]);
    cache.drop({ kind: 'plan', name: 'free' }); // w1 and w3
    await warm();
    expect([keySrc.reads, wsSrc.reads]).toEqual([2, 6]);
    cache.drop({ kind: 'all' });
    await warm();
    expect([keySrc.reads, wsSrc.reads]).toEqual([3, 9]);
  });

  it('a change made here is dropped at once, then published; a change from the bus is dropped', async () => {
    const { cache, bus, wsSrc, workspaces } = setup();
    await cache.listen();
    await cache.workspace('w1');
    workspaces.set('w1', workspace('w1', 'pro'));
    const done = cache.changed({ kind: 'workspace', id: 'w1' });
    expect((await cache.workspace('w1'))?.plan.name).toBe('pro'); // before the publication finished
    await done;
    expect(bus.published).toEqual([{ kind: 'workspace', id: 'w1' }]);

    workspaces.set('w1', workspace('w1', 'free'));
    expect((await cache.workspace('w1'))?.plan.name).toBe('pro');
    bus.onChange!({ kind: 'plan', name: 'pro' });
    expect((await cache.workspace('w1'))?.plan.name).toBe('free');
    expect(wsSrc.reads).toBe(3);
  });
});

/** API keys in memory: only what authenticate and revoke use. */
class MemoryKeys implements ApiKeysRepository {
  rows = new Map<string, ApiKeyWithWorkspaces>();
  reads = 0;
  async insert(_tx: Tx, key: NewApiKey, workspaceIds: string[]) {
    this.rows.set(key.id, { ...key, revokedAt: null, createdAt: new Date(), workspaceIds });
  }
  async findWithWorkspaces(id: string) {
    this.reads++;
    const row = this.rows.get(id);
    return row && { ...row };
  }
  async revoke(id: string, at: Date) {
    const row = this.rows.get(id);
    if (row) row.revokedAt = at;
    return !!row;
  }
}

describe('ApiKeysService.authenticate through the cache', () => {
  function setup() {
    const clock = fakeClock(Date.UTC(2030, 0, 1));
    const keys = new MemoryKeys();
    const cache = new AuthCache({ key: (id) => keys.findWithWorkspaces(id), workspace: async () => undefined }, { ttlMs: 60_000, now: clock.now });
    const workspaces = { existingIds: async (ids: string[]) => ids } as unknown as WorkspacesRepository;
    const tx: TransactionRunner = { run: (fn) => fn({} as Tx) };
    return { clock, keys, service: new ApiKeysService({ repo: keys, workspaces, tx, cache }) };
  }

  it('reads a key once while held, and checks the secret on every request', async () => {
    const { keys, service } = setup();
    const { id, key } = await service.create({ workspaceIds: ['w1', 'w0'] });
    expect(await service.authenticate(key)).toEqual({ keyId: id, workspaceIds: ['w1', 'w0'] });
    expect(await service.authenticate(key)).toEqual({ keyId: id, workspaceIds: ['w1', 'w0'] });
    expect(await service.authenticate(`${id}.${'A'.repeat(43)}`)).toBeNull();
    expect(keys.reads).toBe(1);
  });

  it('honours the expiry exactly, from the held row, against the clock of each request', async () => {
    const { clock, keys, service } = setup();
    const expiresAt = new Date(clock.now() + 1000);
    const { key } = await service.create({ workspaceIds: ['w1'], expiresAt });
    expect(await service.authenticate(key, new Date(expiresAt.getTime() - 1))).not.toBeNull();
    expect(await service.authenticate(key, expiresAt)).toBeNull();
    expect(keys.reads).toBe(1);
  });

  it('refuses a revoked key from the next request on', async () => {
    const { keys, service } = setup();
    const { id, key } = await service.create({ workspaceIds: ['w1'] });
    expect(await service.authenticate(key)).not.toBeNull();
    await service.revoke(id);
    expect(await service.authenticate(key)).toBeNull();
    expect(keys.reads).toBe(2);
    await expect(service.revoke('key_missing')).rejects.toMatchObject({ code: 'KEY_NOT_FOUND' });
  });
});
