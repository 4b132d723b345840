import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';
import type { TemplateKind } from './templates.rules.js';

/** A template or strategy as stored (table `templates`); `config` is checked and typed by templates.rules.ts. */
export interface TemplateRow {
  id: string;
  /** null for built-ins. */
  workspaceId: string | null;
  /** `template` or `strategy`. */
  kind: string;
  name: string;
  builtin: boolean;
  config: Record<string, unknown>;
  createdAt: Date;
}

export type NewTemplate = Omit<TemplateRow, 'createdAt'>;

/** A built-in as the code defines it. */
export type BuiltinTemplate = Pick<TemplateRow, 'id' | 'kind' | 'name' | 'config'>;

/** The templates aggregate's storage (src/adapters/db/repositories/templates.repository.ts). */
export interface TemplatesRepository {
  /** Inserts the built-ins, or sets kind, name and config of those that exist to these. */
  upsertBuiltins(tx: Tx, builtins: readonly BuiltinTemplate[]): Promise<void>;
  /** Removes the built-ins whose id is not in `keep`. */
  deleteBuiltinsExcept(tx: Tx, keep: readonly string[]): Promise<void>;
  /**
   * What the workspace sees (the built-ins and its own), optionally of one kind: built-ins first, in
   * the order of `builtinOrder`, then the workspace's own, newest first.
   */
  listVisible(
    workspaceId: string,
    opts: { kind?: TemplateKind; builtinOrder: readonly string[]; page: PageRequest },
  ): Promise<{ rows: TemplateRow[]; total: number }>;
  /** The built-in or the workspace's own template or strategy of `kind` with that id. */
  findVisible(workspaceId: string, id: string, kind: TemplateKind): Promise<TemplateRow | undefined>;
  findBuiltin(id: string): Promise<TemplateRow | undefined>;
  insert(template: NewTemplate): Promise<TemplateRow>;
  /** Deletes one of the workspace's own (never a built-in); false when there was none. */
  deleteOwn(workspaceId: string, id: string): Promise<boolean>;
  workspaceExists(workspaceId: string): Promise<boolean>;
}
