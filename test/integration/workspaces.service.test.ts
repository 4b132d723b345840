import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleCreditsRepository } from '../../src/adapters/db/repositories/credits.repository.js';
import { DrizzlePlansRepository } from '../../src/adapters/db/repositories/plans.repository.js';
import { DrizzleSettingsRepository } from '../../src/adapters/db/repositories/settings.repository.js';
import { DrizzleWorkspacesRepository } from '../../src/adapters/db/repositories/workspaces.repository.js';
import { createTransactionRunner } from '../../src/adapters/db/transactions.js';
import { AuthCache } from '../../src/domain/auth/auth-cache.js';
import { SigningSecretService } from '../../src/domain/auth/signing-secret.service.js';
import { CreditsService } from '../../src/domain/credits/credits.service.js';
import { PlansService } from '../../src/domain/plans/plans.service.js';
import { WorkspacesService } from '../../src/domain/workspaces/workspaces.service.js';
import { DB_KINDS, openTestDatabase } from '../helpers/db.js';

/**
 * WorkspacesService on a real database, no HTTP in between: a workspace and its starting grant commit
 * together or not at all; the settings repository hands every concurrent caller the one stored secret.
 */

describe.each(DB_KINDS)('WorkspacesService and settings on %s', (kind) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let credits: CreditsService;
  let workspaces: WorkspacesService;
  let plans: PlansService;
  let settings: DrizzleSettingsRepository;
  const page = { page: 1, limit: 10, offset: 0 };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const runner = createTransactionRunner(database.db);
    const plansRepo = new DrizzlePlansRepository(database.db);
    const workspacesRepo = new DrizzleWorkspacesRepository(database.db, database.sql);
    // Held for a minute: only a drop can make the service see a change.
    const cache = new AuthCache({ key: async () => undefined, workspace: (id) => workspacesRepo.findWithPlan(id) }, { ttlMs: 60_000, now: Date.now });
    credits = new CreditsService({ repo: new DrizzleCreditsRepository(database.db), tx: runner });
    workspaces = new WorkspacesService({ repo: workspacesRepo, plans: plansRepo, credits, tx: runner, cache });
    settings = new DrizzleSettingsRepository(database.db);
    plans = new PlansService({ repo: plansRepo, cache });
    await plans.create('svc', { max_concurrent_renders: 2 });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('creates a workspace with its starting credits as one ledger grant', async () => {
    const before = await workspaces.count();
    const { workspace, plan } = await workspaces.create({ name: 'Team', plan: 'svc', credits: 25 });
    expect(workspace).toMatchObject({ name: 'Team', planName: 'svc', credits: 25, isPersonal: false, unlimited: false, memberCount: 1 });
    expect(plan).toMatchObject({ name: 'svc', maxConcurrentRenders: 2 });
    expect(await workspaces.count()).toBe(before + 1);
    const { rows } = await credits.history(workspace.id, page);
    expect(rows).toMatchObject([{ kind: 'grant', reason: 'starting credits', amount: 25, balanceAfter: 25 }]);
    expect(await credits.ledgerSum(workspace.id)).toBe(25);
  });

  it('writes nothing when the plan is unknown or the starting grant is refused', async () => {
    const before = await workspaces.count();
    await expect(workspaces.create({ name: 'Nope', plan: 'missing', credits: 5 })).rejects.toMatchObject({ code: 'PLAN_NOT_FOUND' });
    // The grant fails after the workspace row was inserted in the same transaction: both roll back.
    await expect(workspaces.create({ name: 'Too rich', plan: 'svc', credits: 2147483648 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await workspaces.count()).toBe(before);
  });

  it('updates, opens and ends free usage, and tells a missing workspace or plan', async () => {
    const { workspace } = await workspaces.create({ name: 'Edit me', plan: 'svc', isPersonal: true });
    expect((await workspaces.update(workspace.id, {})).workspace).toMatchObject({ name: 'Edit me', isPersonal: true, credits: 0 });
    expect((await workspaces.update(workspace.id, { name: 'Edited', memberCount: 3 })).workspace).toMatchObject({ name: 'Edited', memberCount: 3 });
    await expect(workspaces.update(workspace.id, { plan: 'missing' })).rejects.toMatchObject({ code: 'PLAN_NOT_FOUND' });
    const until = new Date(Date.now() + 3600_000);
    expect((await workspaces.setFreeUsage(workspace.id, until)).workspace).toMatchObject({ unlimited: true, unlimitedUntil: until });
    expect((await workspaces.endFreeUsage(workspace.id)).workspace).toMatchObject({ unlimited: false, unlimitedUntil: null });
    await expect(workspaces.get('ws_missing')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(workspaces.update('ws_missing', { name: 'x' })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(workspaces.setFreeUsage('ws_missing', null)).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it("holds a workspace for requests until its plan, its plan's limits or its free usage change", async () => {
    const { workspace } = await workspaces.create({ name: 'Held', plan: 'svc' });
    await plans.create('svc-big', { max_concurrent_renders: 9 });
    const held = async () => (await workspaces.forRequest(workspace.id, { fresh: false })).workspace;
    expect(await held()).toMatchObject({ planName: 'svc', unlimited: false });
    // A write behind the service's back is not seen while held; a fresh read sees it.
    await database.sql.executeSql('update workspaces set name = $1 where id = $2', ['Renamed', workspace.id]);
    expect((await held()).name).toBe('Held');
    expect((await workspaces.forRequest(workspace.id, { fresh: true })).workspace.name).toBe('Renamed');

    await workspaces.setFreeUsage(workspace.id, null);
    expect(await held()).toMatchObject({ unlimited: true, unlimitedUntil: null });
    await workspaces.update(workspace.id, { plan: 'svc-big' });
    expect((await workspaces.forRequest(workspace.id, { fresh: false })).plan.maxConcurrentRenders).toBe(9);
    await plans.update('svc-big', { max_concurrent_renders: 4 });
    expect((await workspaces.forRequest(workspace.id, { fresh: false })).plan.maxConcurrentRenders).toBe(4);
    await workspaces.endFreeUsage(workspace.id);
    expect((await held()).unlimited).toBe(false);
    await expect(workspaces.forRequest('ws_missing', { fresh: false })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('answers concurrent balance reads of several workspaces together, each with the balance as it is after the read was asked for', async () => {
    const made = await Promise.all([3, 5, 8].map((c, i) => workspaces.create({ name: `Bal ${i}`, plan: 'svc', credits: c })));
    const ids = made.map((m) => m.workspace.id);
    const asked = [...ids, ids[0], 'ws_missing', ids[2], ids[1]];
    const answers = await Promise.allSettled(asked.map((id) => workspaces.balance(id)));
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value.credits : (a.reason as { code: string }).code))).toEqual([
      3,
      5,
      8,
      3,
      'WORKSPACE_NOT_FOUND',
      8,
      5,
    ]);
    expect((await workspaces.balance(ids[1])).unlimitedUntil).toBeNull();
    // A read asked for after a grant committed sees it, even while an earlier read of the same
    // workspace is still being answered (the earlier read, racing the grant, may see either balance).
    const first = workspaces.balance(ids[0]);
    const granted = credits.adjust({ workspaceId: ids[0], amount: 10, reason: 'top-up' });
    const second = granted.then(() => workspaces.balance(ids[0]));
    expect([3, 13]).toContain((await first).credits);
    expect((await second).credits).toBe(13);
  });

  it('gives 20 concurrent getOrCreate calls the one stored secret, created by exactly one', async () => {
    let made = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => settings.getOrCreate('race_secret', () => `secret_${++made}`)));
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await settings.get('race_secret')).toBe(results[0].value);
    expect(await settings.getOrCreate('race_secret', () => 'another')).toEqual({ value: results[0].value, created: false });
  });

  it('resolves the URL signing secret once for every concurrent caller', async () => {
    const secrets = await Promise.all(Array.from({ length: 20 }, () => new SigningSecretService({ settings: settings }).resolve()));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await new SigningSecretService({ settings: settings }).resolve('from-env')).toBe('from-env');
  });
});
