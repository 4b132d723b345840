import { newId } from '../../shared/ids.js';
import type { TransactionRunner } from '../../ports/transactions.js';
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
import type { TemplateRow, TemplatesRepository } from './templates.records.js';
import type { EditTemplate } from '../edits/clip-edit.js';

export type { StrategyConfig, TemplateConfig, TemplateConfigView, TemplateKind, TemplateLayout } from './templates.rules.js';

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
  return r.kind === 'template' ? { ...base, kind: 'template', config: templateConfigView(r.config) } : { ...base, kind: 'strategy', config: { ...r.config } };
}

/** What an edit takes of a caption template (a clip's first edit, applying a template): its id, captions and layout. */
export function editTemplateOf(t: TemplateRecord): EditTemplate & { id: string } {
  return { id: t.id, captions: t.config.captions, layout: t.config.layout };
}

function toRecord(row: TemplateRow): TemplateOrStrategy {
  const base = { id: row.id, workspaceId: row.workspaceId, name: row.name, builtin: row.builtin, createdAt: row.createdAt };
  return row.kind === 'strategy'
    ? { ...base, kind: 'strategy', config: strategyConfigFromRow(row.config) }
    : { ...base, kind: 'template', config: templateConfigFromRow(row.config) };
}

const BUILTIN_IDS = builtinDefinitions().map((d) => d.id);

export interface TemplatesDeps {
  repo: TemplatesRepository;
  tx: TransactionRunner;
}

/**
 * Templates and strategies. Built-ins (workspace_id null) are shared by every workspace; custom
 * ones belong to one workspace and are invisible (404) to every other.
 */
export class TemplatesService {
  constructor(private readonly d: TemplatesDeps) {}

  /**
   * Writes the built-ins (idempotent, safe from several processes at once): inserts missing ones,
   * updates name and config of existing ones to the code's, removes built-ins the code dropped.
   */
  async ensureBuiltins(): Promise<void> {
    const defs = builtinDefinitions();
    await this.d.tx.run(async (tx) => {
      await this.d.repo.upsertBuiltins(
        tx,
        defs.map((d) => ({ id: d.id, kind: d.kind, name: d.name, config: d.config as unknown as Record<string, unknown> })),
      );
      await this.d.repo.deleteBuiltinsExcept(tx, BUILTIN_IDS);
    });
  }

  /** Built-ins first (templates in their fixed order, then short, default, long), then the workspace's own, newest first. */
  async list(workspaceId: string, opts: ListTemplatesOptions): Promise<{ rows: TemplateOrStrategy[]; total: number }> {
    const { rows, total } = await this.d.repo.listVisible(workspaceId, { kind: opts.kind, builtinOrder: BUILTIN_IDS, page: opts.page });
    return { rows: rows.map(toRecord), total };
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
    const row = await this.d.repo.insert({
      id: newId(input.kind === 'strategy' ? 'str' : 'tpl'),
      workspaceId,
      kind: input.kind,
      name: input.name,
      builtin: false,
      config: checked.config as unknown as Record<string, unknown>,
    });
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
    if (!(await this.d.repo.deleteOwn(workspaceId, id))) throw new DomainError('TEMPLATE_NOT_FOUND');
  }

  private async find(workspaceId: string, id: string, kind: TemplateKind): Promise<TemplateOrStrategy | undefined> {
    const row = await this.d.repo.findVisible(workspaceId, id, kind);
    return row ? toRecord(row) : undefined;
  }

  private async findBuiltin(id: string): Promise<TemplateOrStrategy | undefined> {
    const row = await this.d.repo.findBuiltin(id);
    return row ? toRecord(row) : undefined;
  }

  private async requireWorkspace(id: string): Promise<void> {
    if (!(await this.d.repo.workspaceExists(id))) throw new DomainError('WORKSPACE_NOT_FOUND');
  }
}
