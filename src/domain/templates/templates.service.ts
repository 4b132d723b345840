import { and, count, desc, eq, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../adapters/db/database.js';
import { templates, workspaces } from '../../adapters/db/schema.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import type { PageRequest } from '../pagination.js';
import {
  DEFAULT_STRATEGY_ID,
  DEFAULT_TEMPLATE_ID,
  builtinDefinitions,
  checkStrategyConfig,
  checkTemplateConfig,
  strategyConfigFromRow,
  templateConfigFromRow,
  templateConfigView,
  type StrategyConfig,
  type TemplateConfig,
  type TemplateConfigView,
  type TemplateKind,
} from './templates.rules.js';

export type { StrategyConfig, TemplateConfig, TemplateConfigView, TemplateKind, TemplateLayout } from './templates.rules.js';

type TemplateRow = typeof templates.$inferSelect;

interface RecordBase {
  id: string;
  /** null for built-ins. */
  workspaceId: string | null;
  name: string;
  builtin: boolean;
  createdAt: Date;
}

/** A caption template: how clips look. */
export interface TemplateRecord extends RecordBase {
  kind: 'template';
  config: TemplateConfig;
}

/** A clipping strategy: how clips are picked. */
export interface StrategyRecord extends RecordBase {
  kind: 'strategy';
  config: StrategyConfig;
}

export type TemplateOrStrategy = TemplateRecord | StrategyRecord;

export interface CreateTemplateInput {
  kind: TemplateKind;
  /** 1–100 characters (the route checks the length). */
  name: string;
  /** The API's snake_case config, partial; validated here (400 VALIDATION_ERROR, fields `config.…`). */
  config: unknown;
}

export interface ListTemplatesOptions {
  kind?: TemplateKind;
  page: PageRequest;
}

interface ViewBase {
  id: string;
  name: string;
  builtin: boolean;
  created_at: string;
}

/** The API object of a template or strategy (GET /templates, admin routes). */
export type TemplateView = (ViewBase & { kind: 'template'; config: TemplateConfigView }) | (ViewBase & { kind: 'strategy'; config: StrategyConfig });

export function templateView(r: TemplateOrStrategy): TemplateView {
  const base = { id: r.id, name: r.name, builtin: r.builtin, created_at: r.createdAt.toISOString() };
  return r.kind === 'template'
    ? { ...base, kind: 'template', config: templateConfigView(r.config) }
    : { ...base, kind: 'strategy', config: { ...r.config } };
}

function toRecord(row: TemplateRow): TemplateOrStrategy {
  const base = { id: row.id, workspaceId: row.workspaceId, name: row.name, builtin: row.builtin, createdAt: row.createdAt };
  return row.kind === 'strategy'
    ? { ...base, kind: 'strategy', config: strategyConfigFromRow(row.config) }
    : { ...base, kind: 'template', config: templateConfigFromRow(row.config) };
}

const BUILTIN_IDS = builtinDefinitions().map((d) => d.id);

/**
 * Templates and strategies. Built-ins (workspace_id null) are shared by every workspace; custom
 * ones belong to one workspace and are invisible (404) to every other.
 */
export class TemplatesService {
  constructor(private readonly db: Db) {}

  /**
   * Writes the built-ins (idempotent, safe from several processes at once): inserts missing ones,
   * updates name and config of existing ones to the code's, removes built-ins the code dropped.
   */
  async ensureBuiltins(): Promise<void> {
    const defs = builtinDefinitions();
    await this.db.transaction(async (tx) => {
      await tx
        .insert(templates)
        .values(defs.map((d) => ({ id: d.id, workspaceId: null, kind: d.kind, name: d.name, builtin: true, config: d.config as unknown as Record<string, unknown> })))
        .onConflictDoUpdate({
          target: templates.id,
          set: {
            kind: sql`excluded.kind`,
            name: sql`excluded.name`,
            config: sql`excluded.config`,
            builtin: sql`true`,
            workspaceId: sql`null`,
          },
        });
      await tx.delete(templates).where(and(eq(templates.builtin, true), notInArray(templates.id, defs.map((d) => d.id))));
    });
  }

  /** Built-ins first (templates in their fixed order, then short, default, long), then the workspace's own, newest first. */
  async list(workspaceId: string, opts: ListTemplatesOptions): Promise<{ rows: TemplateOrStrategy[]; total: number }> {
    const where = and(this.visibleTo(workspaceId), opts.kind ? eq(templates.kind, opts.kind) : undefined);
    const builtinOrder = sql`array_position(ARRAY[${sql.join(
      BUILTIN_IDS.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[], ${templates.id})`;
    const [rows, [{ n }]] = await Promise.all([
      this.db
        .select()
        .from(templates)
        .where(where)
        .orderBy(desc(templates.builtin), builtinOrder, desc(templates.createdAt), desc(templates.id))
        .limit(opts.page.limit)
        .offset(opts.page.offset),
      this.db.select({ n: count() }).from(templates).where(where),
    ]);
    return { rows: rows.map(toRecord), total: Number(n) };
  }

  /** A built-in template or one of the workspace's; anything else is 404 TEMPLATE_NOT_FOUND. */
  async getTemplate(workspaceId: string, id: string): Promise<TemplateRecord> {
    const r = await this.find(workspaceId, id, 'template');
    if (!r || r.kind !== 'template') throw new DomainError('TEMPLATE_NOT_FOUND');
    return r;
  }

  /** A built-in strategy or one of the workspace's; anything else is 404 STRATEGY_NOT_FOUND. */
  async getStrategy(workspaceId: string, id: string): Promise<StrategyRecord> {
    const r = await this.find(workspaceId, id, 'strategy');
    if (!r || r.kind !== 'strategy') throw new DomainError('STRATEGY_NOT_FOUND');
    return r;
  }

  /** `getTemplate` when an id is given, else the default template (for POST /clips without `template_id`). */
  async templateOrDefault(workspaceId: string, id?: string | null): Promise<TemplateRecord> {
    return id ? this.getTemplate(workspaceId, id) : this.defaultTemplate();
  }

  /** `getStrategy` when an id is given, else the default strategy (for POST /clips without `strategy_id`). */
  async strategyOrDefault(workspaceId: string, id?: string | null): Promise<StrategyRecord> {
    return id ? this.getStrategy(workspaceId, id) : this.defaultStrategy();
  }

  /** The first built-in template (`tpl_bold_pop` today). */
  async defaultTemplate(): Promise<TemplateRecord> {
    const r = await this.findBuiltin(DEFAULT_TEMPLATE_ID);
    if (!r || r.kind !== 'template') throw new Error(`built-in template ${DEFAULT_TEMPLATE_ID} missing: ensureBuiltins() has not run`);
    return r;
  }

  /** `str_default` (20–60 s). */
  async defaultStrategy(): Promise<StrategyRecord> {
    const r = await this.findBuiltin(DEFAULT_STRATEGY_ID);
    if (!r || r.kind !== 'strategy') throw new Error(`built-in strategy ${DEFAULT_STRATEGY_ID} missing: ensureBuiltins() has not run`);
    return r;
  }

  /** Creates a custom template or strategy in a workspace (404 WORKSPACE_NOT_FOUND, 400 VALIDATION_ERROR). */
  async create(workspaceId: string, input: CreateTemplateInput): Promise<TemplateOrStrategy> {
    await this.requireWorkspace(workspaceId);
    const checked = input.kind === 'strategy' ? checkStrategyConfig(input.config) : checkTemplateConfig(input.config);
    if (!checked.ok) throw validationError(checked.errors);
    const [row] = await this.db
      .insert(templates)
      .values({
        id: newId(input.kind === 'strategy' ? 'str' : 'tpl'),
        workspaceId,
        kind: input.kind,
        name: input.name,
        builtin: false,
        config: checked.config as unknown as Record<string, unknown>,
      })
      .returning();
    return toRecord(row);
  }

  /** Lists what a workspace sees (admin API; 404 WORKSPACE_NOT_FOUND for an unknown workspace). */
  async listForWorkspace(workspaceId: string, opts: ListTemplatesOptions): Promise<{ rows: TemplateOrStrategy[]; total: number }> {
    await this.requireWorkspace(workspaceId);
    return this.list(workspaceId, opts);
  }

  /**
   * Deletes one of the workspace's own templates or strategies. Built-ins, other workspaces' and
   * unknown ids are 404 TEMPLATE_NOT_FOUND. Edits made with it keep their copy of the style.
   */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.requireWorkspace(workspaceId);
    const gone = await this.db
      .delete(templates)
      .where(and(eq(templates.id, id), eq(templates.workspaceId, workspaceId), eq(templates.builtin, false)))
      .returning({ id: templates.id });
    if (gone.length === 0) throw new DomainError('TEMPLATE_NOT_FOUND');
  }

  private visibleTo(workspaceId: string): SQL {
    return or(and(isNull(templates.workspaceId), eq(templates.builtin, true)), eq(templates.workspaceId, workspaceId))!;
  }

  private async find(workspaceId: string, id: string, kind: TemplateKind): Promise<TemplateOrStrategy | undefined> {
    const [row] = await this.db
      .select()
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.kind, kind), this.visibleTo(workspaceId)));
    return row ? toRecord(row) : undefined;
  }

  private async findBuiltin(id: string): Promise<TemplateOrStrategy | undefined> {
    const [row] = await this.db
      .select()
      .from(templates)
      .where(and(eq(templates.id, id), eq(templates.builtin, true)));
    return row ? toRecord(row) : undefined;
  }

  private async requireWorkspace(id: string): Promise<void> {
    const [row] = await this.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id));
    if (!row) throw new DomainError('WORKSPACE_NOT_FOUND');
  }
}
