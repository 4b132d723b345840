import type { Tx } from '../../ports/transactions.js';
import type { PlanRow } from '../plans/plans.records.js';

/** A workspace: its balance, its free-usage window and its plan's name. */
export interface WorkspaceRow {
  id: string;
  name: string;
  isPersonal: boolean;
  planName: string;
  credits: number;
  unlimited: boolean;
  unlimitedUntil: Date | null;
  memberCount: number;
  createdAt: Date;
}

/** What GET /balance shows: the balance and the free-usage window. */
export type WorkspaceBalance = Pick<WorkspaceRow, 'credits' | 'unlimited' | 'unlimitedUntil'>;

export interface WorkspaceWithPlan {
  workspace: WorkspaceRow;
  plan: PlanRow;
}

/** A new workspace starts with no credits: starting credits are a ledger grant (CreditsService). */
export type NewWorkspace = Pick<WorkspaceRow, 'id' | 'name' | 'planName' | 'isPersonal'>;

/** What may change of a workspace outside CreditsService (which alone changes `credits`). */
export type WorkspaceChanges = Partial<Pick<WorkspaceRow, 'name' | 'planName' | 'memberCount' | 'unlimited' | 'unlimitedUntil'>>;

/** The workspaces aggregate's storage (src/adapters/db/repositories/workspaces.repository.ts). */
export interface WorkspacesRepository {
  findWithPlan(id: string): Promise<WorkspaceWithPlan | undefined>;
  /** The balance columns alone (the one read of GET /balance). */
  findBalance(id: string): Promise<WorkspaceBalance | undefined>;
  count(): Promise<number>;
  insert(tx: Tx, workspace: NewWorkspace): Promise<void>;
  /** Applies `changes` (at least one field); false when there is no such workspace. */
  update(id: string, changes: WorkspaceChanges): Promise<boolean>;
  /** Those of `ids` that name a workspace. */
  existingIds(ids: string[], tx?: Tx): Promise<string[]>;
}
