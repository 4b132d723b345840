import { eq, sql } from 'drizzle-orm';
import { asTx } from '../../adapters/db/transactions.js';
import type { Db } from '../../adapters/db/database.js';
import { plans, workspaces } from '../../adapters/db/schema.js';
import { newId } from '../../shared/ids.js';
import { DomainError } from '../errors.js';
import { freeUsageUntil, isFreeUsageActive } from '../credits/credits.rules.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { PlanRow } from '../plans/plans.service.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;

export interface WorkspaceWithPlan {
  workspace: WorkspaceRow;
  plan: PlanRow;
}

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

export function balanceView(w: WorkspaceRow) {
  const until = freeUsageUntil(w);
  return {
    balance: w.credits,
    unlimited: isFreeUsageActive(w),
    unlimited_until: until ? until.toISOString() : null,
  };
}

export class WorkspacesService {
  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
  ) {}

  async get(id: string): Promise<WorkspaceWithPlan> {
    const [row] = await this.db
      .select({ workspace: workspaces, plan: plans })
      .from(workspaces)
      .innerJoin(plans, eq(plans.name, workspaces.planName))
      .where(eq(workspaces.id, id));
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return row;
  }

  async count(): Promise<number> {
    const [{ n }] = await this.db.select({ n: sql<number>`count(*)::int` }).from(workspaces);
    return Number(n);
  }

  /** Creates a workspace; starting credits are a ledger grant like any other. */
  async create(input: { name: string; plan: string; credits?: number; isPersonal?: boolean }): Promise<WorkspaceWithPlan> {
    const id = newId('ws');
    await this.db.transaction(async (tx) => {
      const [plan] = await tx.select().from(plans).where(eq(plans.name, input.plan));
      if (!plan) throw new DomainError('PLAN_NOT_FOUND');
      await tx.insert(workspaces).values({ id, name: input.name, planName: input.plan, isPersonal: input.isPersonal ?? false });
      if (input.credits && input.credits > 0) {
        await this.credits.adjust({ workspaceId: id, amount: input.credits, reason: 'starting credits' }, asTx(tx));
      }
    });
    return this.get(id);
  }

  async update(id: string, input: { name?: string; plan?: string; memberCount?: number }): Promise<WorkspaceWithPlan> {
    if (input.plan !== undefined) {
      const [plan] = await this.db.select().from(plans).where(eq(plans.name, input.plan));
      if (!plan) throw new DomainError('PLAN_NOT_FOUND');
    }
    // Nothing to set: an UPDATE without columns is an error in Drizzle (was a 500).
    if (input.name === undefined && input.plan === undefined && input.memberCount === undefined) return this.get(id);
    const [row] = await this.db
      .update(workspaces)
      .set({ name: input.name, planName: input.plan, memberCount: input.memberCount })
      .where(eq(workspaces.id, id))
      .returning();
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return this.get(id);
  }

  /** Starts a free-usage window; `until` null means no end. The window ends by itself at `until`. */
  async setFreeUsage(id: string, until: Date | null): Promise<WorkspaceWithPlan> {
    const [row] = await this.db
      .update(workspaces)
      .set({ unlimited: true, unlimitedUntil: until })
      .where(eq(workspaces.id, id))
      .returning();
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return this.get(id);
  }

  async endFreeUsage(id: string): Promise<WorkspaceWithPlan> {
    const [row] = await this.db
      .update(workspaces)
      .set({ unlimited: false, unlimitedUntil: null })
      .where(eq(workspaces.id, id))
      .returning();
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
    return this.get(id);
  }
}
