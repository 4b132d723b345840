import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzlePersonasRepository } from '../../src/adapters/db/repositories/personas.repository.js';
import { DrizzleSettingsRepository } from '../../src/adapters/db/repositories/settings.repository.js';
import { ledgerEntries, personaPortraits, personas, plans, workspaces } from '../../src/adapters/db/schema/index.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { LocalStorage } from '../../src/adapters/storage/local.storage.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { PricedCharges } from '../../src/domain/credits/priced-charge.js';
import { PersonaPricesService } from '../../src/domain/personas/persona-prices.service.js';
import { PersonasService } from '../../src/domain/personas/personas.service.js';
import type { WorkspaceWithPlan } from '../../src/domain/workspaces/workspaces.service.js';
import { noEvents } from '../../src/domain/webhooks/events.js';
import type { PortraitEngine } from '../../src/ports/persona-engines.js';
import { DB_KINDS, insertTestPlan, openTestDatabase } from '../helpers/db.js';
import { FakeQueue } from '../helpers/fake-queue.js';

/**
 * PersonasService on a real database, no HTTP and no worker: the charge, its ledger row, the persona and
 * its portrait commit together, then the job is sent; a queue that refuses leaves the portrait failed
 * and refunded; a finished portrait becomes the current version once (a second finish changes nothing);
 * operator prices with the plan's discount; a refused charge creates nothing.
 */

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-persona-svc-'));
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** An engine that draws nothing here: the service never renders a portrait itself (the job does). */
const engine = (name: string, kind: 'illustration' | 'photo'): PortraitEngine => ({
  name,
  kind,
  readsNotes: false,
  appliedTraits: ['vibe'],
  render: async () => ({ png: new Uint8Array([137, 80, 78, 71]), width: 1, height: 1, kind }),
});

describe.each(DB_KINDS)('personas service on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let storage: LocalStorage;
  let n = 0;

  const serviceOf = (queue: FakeQueue) => {
    const transactions = createTransactionRunner(database.db);
    const prices = new PersonaPricesService({ settings: new DrizzleSettingsRepository(database.db) });
    return new PersonasService({
      repo: new DrizzlePersonasRepository(database.db),
      transactions,
      storage,
      queue,
      charges: new PricedCharges({
        credits: new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: transactions }),
        topUpUrl: 'https://pay.example.com',
      }),
      engines: {
        chips: engine('drawn', 'illustration'),
        faces: engine('faces', 'photo'),
        presets: engine('drawn', 'illustration'),
        swap: { name: 'swap', label: 'preview', replaceModes: ['head'] },
      },
      prices: () => prices.get(),
      putImage: async () => {},
      readPhoto: async () => ({ rejected: 'not_an_image' }),
      maxPhotoBytes: 1000,
      events: noEvents,
    });
  };

  async function workspace(credits: number, opts: { unlimited?: boolean; discount?: number } = {}): Promise<WorkspaceWithPlan> {
    const [plan] = await database.db.select().from(plans).where(eq(plans.name, 'svc'));
    const [ws] = await database.db
      .insert(workspaces)
      .values({ id: `ws_p${kind}_${++n}`, name: 'svc', planName: 'svc', credits, unlimited: opts.unlimited ?? false })
      .returning();
    return { workspace: ws, plan: { ...plan, discountPercent: opts.discount ?? 0 } };
  }

  const ledgerOf = async (workspaceId: string) =>
    (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.workspaceId, workspaceId)).orderBy(ledgerEntries.seq)).map((e) => [
      e.kind,
      e.amount,
      e.waived,
    ]);
  const balanceOf = async (workspaceId: string) => (await database.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0].credits;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    storage = new LocalStorage({ dataDir: path.join(dir, kind), publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'test-secret' });
    await insertTestPlan(database.db);
    await new PersonaPricesService({ settings: new DrizzleSettingsRepository(database.db) }).update({ image: 4 });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('charges the operator price (discounted, also under free usage), sends the job, finishes once', async () => {
    const ctx = await workspace(10, { unlimited: true, discount: 50 });
    const queue = new FakeQueue();
    const svc = serviceOf(queue);
    expect((await svc.catalog(ctx)).prices.image).toBe(2);
    const p = await svc.create(ctx, { chips: { vibe: 'calm' } });
    expect(p).toMatchObject({ image_status: 'processing', chips: { vibe: 'calm' } });
    expect(queue.sent.map((s) => [s.name, s.opts])).toEqual([
      ['persona.portrait', { expireInSeconds: 1800, retryLimit: 2, retryDelaySeconds: 2, singletonKey: expect.stringMatching(/^persona-portrait:prt_/) }],
    ]);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([['charge', -2, false]]);
    expect(await balanceOf(ctx.workspace.id)).toBe(8);

    const portraitId = (queue.sent[0].payload as { portraitId: string }).portraitId;
    await svc.finishPortraitReady(portraitId, { key: 'personas/x.png', kind: 'illustration' });
    await svc.finishPortraitReady(portraitId, { key: 'personas/y.png', kind: 'illustration' });
    await svc.finishPortraitFailed({ id: portraitId, personaId: p.id, workspaceId: ctx.workspace.id }, 'LATE');
    const ready = await svc.getView(ctx.workspace.id, p.id);
    expect(ready).toMatchObject({ image_status: 'ready', error_code: null });
    expect(ready.versions).toHaveLength(1);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([['charge', -2, false]]);
  });

  it('a portrait the queue refuses ends failed with QUEUE_UNAVAILABLE and refunded; a refused charge creates nothing', async () => {
    const ctx = await workspace(10);
    await expect(serviceOf(new FakeQueue(1)).create(ctx, {})).rejects.toThrow('queue down');
    const [row] = await database.db.select().from(personas).where(eq(personas.workspaceId, ctx.workspace.id));
    expect([row.imageStatus, row.errorCode]).toEqual(['failed', 'QUEUE_UNAVAILABLE']);
    const [portrait] = await database.db.select().from(personaPortraits).where(eq(personaPortraits.personaId, row.id));
    expect([portrait.status, portrait.creditsCharged]).toEqual(['failed', 0]);
    expect(await ledgerOf(ctx.workspace.id)).toEqual([
      ['charge', -4, false],
      ['refund', 4, false],
    ]);
    expect(await balanceOf(ctx.workspace.id)).toBe(10);

    const poor = await workspace(3);
    const queue = new FakeQueue();
    await expect(serviceOf(queue).create(poor, {})).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      extra: { credits_needed: 4, current_balance: 3, top_up_url: 'https://pay.example.com' },
    });
    expect(await database.db.select().from(personas).where(eq(personas.workspaceId, poor.workspace.id))).toEqual([]);
    expect(await ledgerOf(poor.workspace.id)).toEqual([]);
    expect(queue.sent).toEqual([]);
  });
});
