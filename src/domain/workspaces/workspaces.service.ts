import { newId } from '../../shared/ids.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import { freeUsageUntil, isFreeUsageActive } from '../credits/credits.rules.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { PlansRepository } from '../plans/plans.records.js';
import type { AuthCache } from '../auth/auth-cache.js';
import type { WorkspaceBalance, WorkspaceChanges, WorkspaceWithPlan, WorkspacesRepository } from './workspaces.records.js';

export type { WorkspaceBalance, WorkspaceRow, WorkspaceWithPlan } from './workspaces.records.js';

export function workspaceView({ workspace: w, plan }: WorkspaceWithPlan) {
  const until = freeUsageUntil(w);
  return {
    id: w.id,
    name: w.name,
    is_personal: w.isPersonal,
    role: 'owner',
    plan_name: plan.name,
    plan_is_free: plan.isFree,
    credits: w.credits,
    credits_unlimited: isFreeUsageActive(w),
    credits_unlimited_until: until ? until.toISOString() : null,
    member_count: w.memberCount,
  };
}

export function balanceView(w: WorkspaceBalance) {
  const until = freeUsageUntil(w);
  return {
    balance: w.credits,
    unlimited: isFreeUsageActive(w),
    unlimited_until: until ? until.toISOString() : null,
  };
}

export interface WorkspacesDeps {
  repo: WorkspacesRepository;
  plans: PlansRepository;
  credits: CreditsService;
  tx: TransactionRunner;
  cache: AuthCache;
}

export class WorkspacesService {
  constructor(private readonly d: WorkspacesDeps) {}

  /** The workspace with its plan, read now. */
  async get(id: string): Promise<WorkspaceWithPlan> {
    const row = await this.d.repo.findWithPlan(id);
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return row;
  }

  /** The balance and free-usage window as they are now: one read of three columns (GET /balance). */
  async balance(id: string): Promise<WorkspaceBalance> {
    const row = await this.d.repo.findBalance(id);
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return row;
  }

  /**
   * The workspace and plan a request runs in, through the auth cache: held for a short time, dropped
   * on every change of its plan or free usage (see AuthCache). `fresh` reads it now: a request that
   * writes acts on the workspace as it is.
   */
  async forRequest(id: string, opts: { fresh: boolean }): Promise<WorkspaceWithPlan> {
    const row = await this.d.cache.workspace(id, opts);
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return row;
  }

  count(): Promise<number> {
    return this.d.repo.count();
  }

  /** Creates a workspace; starting credits are a ledger grant like any other, in the same transaction. */
  async create(input: { name: string; plan: string; credits?: number; isPersonal?: boolean }): Promise<WorkspaceWithPlan> {
    const id = newId('ws');
    await this.d.tx.run(async (tx) => {
      if (!(await this.d.plans.find(input.plan, tx))) throw new DomainError('PLAN_NOT_FOUND');
      await this.d.repo.insert(tx, { id, name: input.name, planName: input.plan, isPersonal: input.isPersonal ?? false });
      if (input.credits && input.credits > 0) {
        await this.d.credits.adjust({ workspaceId: id, amount: input.credits, reason: 'starting credits' }, tx);
      }
    });
    return this.get(id);
  }

  async update(id: string, input: { name?: string; plan?: string; memberCount?: number }): Promise<WorkspaceWithPlan> {
    if (input.plan !== undefined && !(await this.d.plans.find(input.plan))) throw new DomainError('PLAN_NOT_FOUND');
    // Nothing to set: answer the workspace as it is (an update without fields was a 500).
    if (input.name === undefined && input.plan === undefined && input.memberCount === undefined) return this.get(id);
    return this.change(id, { name: input.name, planName: input.plan, memberCount: input.memberCount });
  }

  /** Starts a free-usage window; `until` null means no end. The window ends by itself at `until`. */
  setFreeUsage(id: string, until: Date | null): Promise<WorkspaceWithPlan> {
    return this.change(id, { unlimited: true, unlimitedUntil: until });
  }

  endFreeUsage(id: string): Promise<WorkspaceWithPlan> {
    return this.change(id, { unlimited: false, unlimitedUntil: null });
  }

  private async change(id: string, changes: WorkspaceChanges): Promise<WorkspaceWithPlan> {
    if (!(await this.d.repo.update(id, changes))) throw new DomainError('WORKSPACE_NOT_FOUND');
    await this.d.cache.changed({ kind: 'workspace', id });
    return this.get(id);
  }
}
