import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const grant = (wsId: string, body: object, key?: string) => t.admin('POST', `/workspaces/${wsId}/credits`, body, { 'idempotency-key': key });

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body without doing the work again', async () => {
    const ws = await t.workspace({ credits: 0 });
    const first = await grant(ws.id, { amount: 5, reason: 'top-up' }, 'k-1');
    expect(first.status).toBe(201);
    const second = await grant(ws.id, { amount: 5, reason: 'top-up' }, 'k-1');
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(5);

    const other = await grant(ws.id, { amount: 5, reason: 'top-up' }, 'k-2');
    expect(other.body.id).not.toBe(first.body.id);
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(10);
  });

  it('refuses the same key with another body', async () => {
    const ws = await t.workspace();
    await grant(ws.id, { amount: 1, reason: 'a' }, 'k-3');
    const res = await grant(ws.id, { amount: 2, reason: 'a' }, 'k-3');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'header.idempotency-key', rule: 'reused_with_different_request' }] },
    });
  });

  it('does not keep failed answers, so a corrected retry runs', async () => {
    const ws = await t.workspace({ credits: 1 });
    const refused = await grant(ws.id, { amount: -5, reason: 'debit' }, 'k-4');
    expect(refused.status).toBe(402);
    await t.c.credits.adjust({ workspaceId: ws.id, amount: 10, reason: 'grant' });
    const retried = await grant(ws.id, { amount: -5, reason: 'debit' }, 'k-4');
    expect(retried.status).toBe(201);
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(6);
  });

  it('serialises simultaneous requests with one key: the work happens once', async () => {
    const ws = await t.workspace();
    const answers = await Promise.all([1, 2, 3, 4].map(() => grant(ws.id, { amount: 3, reason: 'x' }, 'k-5')));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(3);
  });

  it('expires keys after 24 hours', async () => {
    const ws = await t.workspace();
    await grant(ws.id, { amount: 1, reason: 'a' }, 'k-6');
    await t.c.database.sql.executeSql(`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k-6'`, []);
    const again = await grant(ws.id, { amount: 1, reason: 'a' }, 'k-6');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(2);
  });
});
