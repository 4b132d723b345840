import { eq } from 'drizzle-orm';
import type { PlanRow, PlanSettings, PlansRepository } from '../../../domain/plans/plans.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { plans } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Plans (table `plans`). */
export class DrizzlePlansRepository implements PlansRepository {
  constructor(private readonly db: Db) {}

  async insert(plan: PlanSettings & { name: string }): Promise<PlanRow | undefined> {
    const [row] = await this.db.insert(plans).values(plan).onConflictDoNothing().returning();
    return row;
  }

  async list(): Promise<PlanRow[]> {
    return this.db.select().from(plans).orderBy(plans.name);
  }

  async find(name: string, tx?: Tx): Promise<PlanRow | undefined> {
    const [row] = await executor(this.db, tx).select().from(plans).where(eq(plans.name, name));
    return row;
  }

  async update(name: string, changes: Partial<PlanSettings> & { updatedAt: Date }): Promise<PlanRow | undefined> {
    const [row] = await this.db.update(plans).set(changes).where(eq(plans.name, name)).returning();
    return row;
  }
}
