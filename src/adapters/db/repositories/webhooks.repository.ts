import { and, count, desc, eq, lte, or, sql } from 'drizzle-orm';
import type { PageRequest } from '../../../domain/pagination.js';
import type {
  AttemptResult,
  NewWebhookDelivery,
  NewWebhookEndpoint,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhooksRepository,
} from '../../../domain/webhooks/webhooks.records.js';
import type { Tx } from '../../../ports/transactions.js';
import type { Db } from '../database.js';
import { webhookDeliveries, webhookEndpoints } from '../schema/index.js';
import { executor } from '../transactions.js';

/** Webhook endpoints and their deliveries (tables `webhook_endpoints`, `webhook_deliveries`). */
export class DrizzleWebhooksRepository implements WebhooksRepository {
  constructor(private readonly db: Db) {}

  async insertEndpoint(row: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
    const [inserted] = await this.db.insert(webhookEndpoints).values(row).returning();
    return inserted;
  }

  async countEndpoints(workspaceId: string): Promise<number> {
    const [{ n }] = await this.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
    return Number(n);
  }

  async listEndpoints(workspaceId: string, page: PageRequest): Promise<{ rows: WebhookEndpointRow[]; total: number }> {
    const where = eq(webhookEndpoints.workspaceId, workspaceId);
    const rows = await this.db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(page.limit)
      .offset(page.offset);
    return { rows, total: await this.countEndpoints(workspaceId) };
  }

  async findEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)));
    return row;
  }

  async getEndpoint(id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row;
  }

  async deleteEndpoint(workspaceId: string, id: string): Promise<boolean> {
    const gone = await this.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
      .returning({ id: webhookEndpoints.id });
    return gone.length > 0;
  }

  subscribers(workspaceId: string, type: string, tx?: Tx): Promise<WebhookEndpointRow[]> {
    return executor(this.db, tx)
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.workspaceId, workspaceId),
          sql`(${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb or ${webhookEndpoints.events} @> '["*"]'::jsonb)`,
        ),
      );
  }

  async insertDeliveries(rows: NewWebhookDelivery[], tx?: Tx): Promise<void> {
    if (rows.length > 0) await executor(this.db, tx).insert(webhookDeliveries).values(rows);
  }

  async listDeliveries(endpointId: string, page: PageRequest): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
    const where = eq(webhookDeliveries.endpointId, endpointId);
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset);
    const [{ n }] = await this.db.select({ n: count() }).from(webhookDeliveries).where(where);
    return { rows, total: Number(n) };
  }

  async claim(id: string, now: Date, lockedUntil: Date): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.db
      .update(webhookDeliveries)
      .set({ status: 'sending', lockedUntil, attempts: sql`${webhookDeliveries.attempts} + 1` })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          or(
            and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)),
            and(eq(webhookDeliveries.status, 'sending'), lte(webhookDeliveries.lockedUntil, now)),
          ),
        ),
      )
      .returning();
    return row;
  }

  async settle(id: string, attempts: number, result: AttemptResult, at: Date): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ ...result, lastAttemptAt: at, lockedUntil: null })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'sending'), eq(webhookDeliveries.attempts, attempts)));
  }

  async overdue(overdueBefore: Date, now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        or(
          and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, overdueBefore)),
          and(eq(webhookDeliveries.status, 'sending'), lte(webhookDeliveries.lockedUntil, now)),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(limit);
    return rows.map((r) => r.id);
  }
}
