/** The answer kept for an `Idempotency-Key`, replayed as it was sent. */
export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

/** A claimed key: the answer fields stay null while its request runs. */
export interface IdempotencyRow {
  scope: string;
  key: string;
  requestHash: string;
  statusCode: number | null;
  responseBody: string | null;
  responseHeaders: Record<string, string> | null;
  /** The process running the request while it is unanswered. */
  owner: string | null;
  createdAt: Date;
}

/** Idempotency records (src/adapters/db/repositories/idempotency.repository.ts). */
export interface IdempotencyRepository {
  /**
   * Deletes the key's record when it was created before `expiredBefore`, or is unanswered while its
   * owner is dead: a process that stopped heartbeating (silent for half its lease) or is gone.
   */
  dropStale(scope: string, key: string, expiredBefore: Date): Promise<void>;
  /** Claims the key for a request run by process `owner`; false when a record for it exists. */
  claim(scope: string, key: string, requestHash: string, owner: string): Promise<boolean>;
  find(scope: string, key: string): Promise<IdempotencyRow | undefined>;
  saveResponse(scope: string, key: string, res: StoredResponse): Promise<void>;
  /** Deletes the key's record unless it holds an answer. */
  deleteUnanswered(scope: string, key: string): Promise<void>;
  deleteCreatedBefore(before: Date): Promise<void>;
}
