import type { Tx } from '../../ports/transactions.js';
import type { PageRequest } from '../pagination.js';

/** A webhook endpoint of a workspace (table `webhook_endpoints`). */
export interface WebhookEndpointRow {
  id: string;
  workspaceId: string;
  url: string;
  /** Event types sent to it; `*` for every event. */
  events: string[];
  /** The signing secret, sealed (CredentialsSealer). */
  secretSealed: string;
  createdAt: Date;
}

export type NewWebhookEndpoint = Omit<WebhookEndpointRow, 'createdAt'>;

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/** One event for one endpoint (table `webhook_deliveries`). */
export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  /** The JSON body exactly as it is sent and signed. */
  body: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseExcerpt: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export type NewWebhookDelivery = Pick<WebhookDeliveryRow, 'id' | 'endpointId' | 'workspaceId' | 'eventId' | 'eventType' | 'body' | 'nextAttemptAt'>;

/** How an attempt ended, as stored on the delivery. */
export interface AttemptResult {
  status: DeliveryStatus;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseExcerpt: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** The webhooks' storage (src/adapters/db/repositories/webhooks.repository.ts). */
export interface WebhooksRepository {
  insertEndpoint(row: NewWebhookEndpoint): Promise<WebhookEndpointRow>;
  countEndpoints(workspaceId: string): Promise<number>;
  /** The workspace's endpoints, newest first. */
  listEndpoints(workspaceId: string, page: PageRequest): Promise<{ rows: WebhookEndpointRow[]; total: number }>;
  findEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointRow | undefined>;
  getEndpoint(id: string): Promise<WebhookEndpointRow | undefined>;
  /** Deletes the endpoint and its deliveries; false when it is not the workspace's. */
  deleteEndpoint(workspaceId: string, id: string): Promise<boolean>;
  /** The workspace's endpoints subscribed to `type` (or to every event). */
  subscribers(workspaceId: string, type: string, tx?: Tx): Promise<WebhookEndpointRow[]>;
  insertDeliveries(rows: NewWebhookDelivery[], tx?: Tx): Promise<void>;
  /** An endpoint's deliveries, newest first. */
  listDeliveries(endpointId: string, page: PageRequest): Promise<{ rows: WebhookDeliveryRow[]; total: number }>;
  /**
   * Takes a delivery for one attempt: a `pending` one that is due, or a `sending` one whose lease ran
   * out (its attempt was lost). It becomes `sending` until `lockedUntil`, `attempts` + 1. Undefined when
   * it is not due, taken, finished or gone.
   */
  claim(id: string, now: Date, lockedUntil: Date): Promise<WebhookDeliveryRow | undefined>;
  /** Stores the attempt's outcome, only while the delivery is still `sending` with this attempt count. */
  settle(id: string, attempts: number, result: AttemptResult, at: Date): Promise<void>;
  /** Ids of deliveries whose job went missing: pending and overdue since `overdueBefore`, or sending past their lease. */
  overdue(overdueBefore: Date, now: Date, limit: number): Promise<string[]>;
}
