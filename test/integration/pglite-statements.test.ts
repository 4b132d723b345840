import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PgliteStatements } from '../../src/adapters/db/pglite-statements.js';

/**
 * The held prepared statements of the embedded database (src/adapters/db/pglite-statements.ts) give
 * what `PGlite.query` gives: the same rows and types, the same errors, inside the same locks.
 */
describe('PgliteStatements', () => {
  let client: PGlite;
  let statements: PgliteStatements;

  beforeAll(async () => {
    client = new PGlite();
    await client.waitReady;
    await client.exec(`
      create table t (id text primary key, n int not null, b bool, at timestamptz, doc jsonb, tags text[], big bigint, u uuid);
      insert into t values
        ('a', 1, true, '2026-01-02T03:04:05.678Z', '{"x":[1,"y"]}', '{one,two}', 9007199254740993, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
        ('b', 2, null, null, null, null, null, null);
    `);
    statements = new PgliteStatements(client, 3);
  });
  afterAll(() => client.close());

  const cases: Array<[string, unknown[]]> = [
    ['select * from t where id = $1', ['a']],
    ['select * from t where id = $1', ['b']],
    ['select * from t where id = $1', ['none']],
    ['select id, n from t where n = any($1::int[]) order by id', [[1, 2]]],
    ['select id from t where at < $1', [new Date('2027-01-01T00:00:00Z')]],
    ['select $1::jsonb as doc, $2::text[] as tags', [{ k: ['v', 1, null] }, ['p', 'q r']]],
    ['select id from t where doc @> $1', [{ x: [1] }]],
    ['select $1::int + 1 as next, $2::text is null as missing', [41, null]],
    ['update t set n = n + $1 where id = $2', [0, 'a']],
    ['insert into t (id, n) values ($1, $2) on conflict (id) do nothing', ['a', 5]],
  ];

  it('answers like PGlite.query: rows, field types, command and counts', async () => {
    for (const [text, values] of cases) {
      const expected = await client.query(text, values);
      const first = await statements.query(text, values);
      const again = await statements.query(text, values);
      for (const got of [first, again]) {
        expect(got.rows, text).toEqual(expected.rows);
        expect(got.fields, text).toEqual(expected.fields);
        expect(got.affectedRows, text).toBe(expected.affectedRows);
      }
    }
  });

  it('holds at most its maximum, the least recently used closed first, and re-prepares a closed one', async () => {
    const counts = async () => (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0].n;
    const q = (i: number) => statements.query(`select $1::int * ${i} as v`, [2]);
    for (let i = 1; i <= 5; i++) expect((await q(i)).rows).toEqual([{ v: 2 * i }]);
    expect(statements.size).toBe(3);
    expect(await counts()).toBe(3);
    expect((await q(1)).rows).toEqual([{ v: 2 }]);
    expect(await counts()).toBe(3);
  });

  it('refuses what PGlite.query refuses, with the same code, and keeps working', async () => {
    await expect(statements.query('select nope from t where id = $1', ['a'])).rejects.toMatchObject({ code: '42703', query: expect.stringContaining('nope') });
    await expect(statements.query('select * from t where n = $1', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    await expect(statements.query('insert into t (id, n) values ($1, $2)', ['a', 1])).rejects.toMatchObject({ code: '23505' });
    expect((await statements.query('select n from t where id = $1', ['b'])).rows).toEqual([{ n: 2 }]);
  });

  it('follows a table whose columns changed under a held statement', async () => {
    await client.exec(`create table w (id text primary key, credits int not null)`);
    await client.query(`insert into w values ('x', 7)`);
    expect((await statements.query('select * from w where id = $1', ['x'])).rows).toEqual([{ id: 'x', credits: 7 }]);
    await client.exec(`alter table w add column unlimited bool not null default true`);
    expect((await statements.query('select * from w where id = $1', ['x'])).rows).toEqual([{ id: 'x', credits: 7, unlimited: true }]);
  });

  it('waits for an open transaction instead of running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = client.transaction(async (t) => {
      await t.query(`update t set n = 100 where id = 'b'`);
      await held;
      await t.rollback();
    });
    await new Promise((r) => setTimeout(r, 20));
    const read = statements.query('select n from t where id = $1', ['b']);
    let settled = false;
    void read.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    release();
    await tx;
    expect((await read).rows).toEqual([{ n: 2 }]);
  });
});
