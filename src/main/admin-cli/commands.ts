import { UsageError, parseBooleanFlag, parseNumberFlag, type OptionSpec } from './args.js';
import type { AdminClient } from './client.js';
import { freeUsage, planDetails, planTable, workspaceDetails, type KeyAnswer, type LedgerAnswer, type PlanAnswer, type WorkspaceAnswer } from './format.js';
import { GENERATION_MODEL_COMMANDS } from './generation-models.commands.js';
import { PERSONA_COMMANDS } from './personas.commands.js';

import type { Command, Values } from './command.js';

export type { Command, CommandContext, Values } from './command.js';

const seg = encodeURIComponent;

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

// ---------------------------------------------------------------------------------------------
// Plans

interface PlanFlag {
  flag: string;
  field: string;
  kind: 'integer' | 'number' | 'boolean';
  help: string;
}

const PLAN_FLAGS: PlanFlag[] = [
  { flag: 'max-video-duration', field: 'max_video_duration', kind: 'integer', help: 'Longest source video, seconds (>= 60)' },
  { flag: 'max-upload-size', field: 'max_upload_size', kind: 'integer', help: 'Largest upload, bytes' },
  { flag: 'render-expiry-hours', field: 'render_expiry_hours', kind: 'number', help: 'Hours a rendered file stays downloadable (> 0)' },
  { flag: 'max-concurrent-renders', field: 'max_concurrent_renders', kind: 'integer', help: 'Renders running at once per workspace (>= 1)' },
  { flag: 'daily-post-limit', field: 'daily_post_limit', kind: 'integer', help: 'Social posts per day (>= 0)' },
  { flag: 'force-watermark', field: 'force_watermark', kind: 'boolean', help: 'Watermark every render' },
  { flag: 'rate-limit-per-minute', field: 'rate_limit_per_minute', kind: 'integer', help: 'API requests per key per minute (>= 1)' },
  {
    flag: 'analysis-rate-limit-per-minute',
    field: 'analysis_rate_limit_per_minute',
    kind: 'integer',
    help: 'Analysis requests per key per minute (>= 1)',
  },
  { flag: 'discount-percent', field: 'discount_percent', kind: 'number', help: 'Credit discount, 0 to 100' },
  {
    flag: 'transcription-credits-per-minute',
    field: 'transcription_credits_per_minute',
    kind: 'integer',
    help: 'Credits per started minute of a transcription (>= 0)',
  },
  {
    flag: 'speaker-labels-credits-per-minute',
    field: 'speaker_labels_credits_per_minute',
    kind: 'integer',
    help: 'Surcharge per started minute for speaker labels (>= 0)',
  },
  {
    flag: 'submission-retention-hours',
    field: 'submission_retention_hours',
    kind: 'number',
    help: "Hours a finished submission's source and clip previews are kept (> 0)",
  },
  { flag: 'max-monitors', field: 'max_monitors', kind: 'integer', help: 'Monitors a workspace may keep (>= 0)' },
  { flag: 'is-free', field: 'is_free', kind: 'boolean', help: 'Mark the plan as a free plan' },
];

const PLAN_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(PLAN_FLAGS.map((f) => [f.flag, { type: 'string' }]));
const PLAN_OPTION_HELP = PLAN_FLAGS.map((f) => `--${f.flag} ${f.kind === 'boolean' ? 'true|false' : 'N'}`.padEnd(40) + f.help);

function planFields(values: Values): Record<string, number | boolean> {
  const body: Record<string, number | boolean> = {};
  for (const f of PLAN_FLAGS) {
    const raw = str(values, f.flag);
    if (raw === undefined) continue;
    body[f.field] = f.kind === 'boolean' ? parseBooleanFlag(f.flag, raw) : parseNumberFlag(f.flag, raw, f.kind === 'integer');
  }
  return body;
}

async function allPlans(client: AdminClient): Promise<PlanAnswer[]> {
  const plans: PlanAnswer[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.request<{ plans: PlanAnswer[]; pagination: { has_next_page: boolean } }>('GET', `/plans?page=${page}&limit=100`);
    plans.push(...answer.plans);
    if (!answer.pagination.has_next_page || answer.plans.length === 0) return plans;
  }
}

// ---------------------------------------------------------------------------------------------

export const COMMANDS: Command[] = [
  {
    resource: 'plans',
    action: 'list',
    args: [],
    synopsis: '',
    summary: 'List every plan',
    optionHelp: [],
    example: 'cutroom admin plans list',
    options: {},
    async run({ client, output }) {
      const plans = await allPlans(client);
      const json = {
        plans,
        pagination: { current_page: 1, total_pages: plans.length ? 1 : 0, total_count: plans.length, has_next_page: false },
      };
      output(json, () => planTable(plans));
    },
  },
  {
    resource: 'plans',
    action: 'show',
    args: ['name'],
    synopsis: '',
    summary: "Show a plan's limits",
    optionHelp: [],
    example: 'cutroom admin plans show default',
    options: {},
    async run({ client, args, output }) {
      const plan = await client.request<PlanAnswer>('GET', `/plans/${seg(args.name)}`);
      output(plan, () => planDetails(plan));
    },
  },
  {
    resource: 'plans',
    action: 'create',
    args: ['name'],
    synopsis: '[plan options]',
    summary: 'Create a plan; fields not given take the built-in defaults',
    optionHelp: PLAN_OPTION_HELP,
    example: 'cutroom admin plans create pro --max-video-duration 14400 --discount-percent 20 --force-watermark false',
    options: PLAN_OPTIONS,
    async run({ client, args, values, output }) {
      const plan = await client.request<PlanAnswer>('POST', '/plans', { name: args.name, ...planFields(values) });
      output(plan, () => `Created plan ${plan.name}.\n${planDetails(plan)}`);
    },
  },
  {
    resource: 'plans',
    action: 'update',
    args: ['name'],
    synopsis: '[plan options]',
    summary: "Change some of a plan's fields (workspaces on the plan get the new limits)",
    optionHelp: PLAN_OPTION_HELP,
    example: 'cutroom admin plans update pro --daily-post-limit 50',
    options: PLAN_OPTIONS,
    async run({ client, args, values, output }) {
      const fields = planFields(values);
      if (Object.keys(fields).length === 0) throw new UsageError('nothing to change: give at least one plan option');
      const plan = await client.request<PlanAnswer>('PATCH', `/plans/${seg(args.name)}`, fields);
      output(plan, () => `Updated plan ${plan.name}.\n${planDetails(plan)}`);
    },
  },

  // -------------------------------------------------------------------------------------------
  // Workspaces

  {
    resource: 'workspaces',
    action: 'create',
    args: [],
    synopsis: '--name N [--plan P] [--credits N] [--personal]',
    summary: 'Create a workspace',
    optionHelp: [
      '--name N                                Workspace name (required)',
      '--plan P                                Plan name (default: default)',
      '--credits N                             Starting credits, a ledger grant (default: 0)',
      '--personal                              Mark it as a personal workspace',
    ],
    example: 'cutroom admin workspaces create --name "Acme video team" --plan pro --credits 500',
    options: { name: { type: 'string' }, plan: { type: 'string' }, credits: { type: 'string' }, personal: { type: 'boolean' } },
    async run({ client, values, output }) {
      const name = str(values, 'name');
      if (name === undefined) throw new UsageError('--name is required');
      const body: Record<string, unknown> = { name };
      const plan = str(values, 'plan');
      if (plan !== undefined) body.plan = plan;
      const credits = str(values, 'credits');
      if (credits !== undefined) body.credits = parseNumberFlag('credits', credits, true);
      if (values.personal) body.is_personal = true;
      const ws = await client.request<WorkspaceAnswer>('POST', '/workspaces', body);
      output(ws, () => `Created workspace ${ws.id}.\n${workspaceDetails(ws)}`);
    },
  },
  {
    resource: 'workspaces',
    action: 'show',
    args: ['id'],
    synopsis: '',
    summary: 'Show a workspace: plan, credits, free usage',
    optionHelp: [],
    example: 'cutroom admin workspaces show ws_0123456789abcdefghij',
    options: {},
    async run({ client, args, output }) {
      const ws = await client.request<WorkspaceAnswer>('GET', `/workspaces/${seg(args.id)}`);
      output(ws, () => workspaceDetails(ws));
    },
  },
  {
    resource: 'workspaces',
    action: 'update',
    args: ['id'],
    synopsis: '[--name N] [--plan P] [--member-count N]',
    summary: 'Rename a workspace, move it to another plan or set its member count',
    optionHelp: [
      '--name N                                New name',
      '--plan P                                Move to this plan',
      '--member-count N                        Number of members (>= 1)',
    ],
    example: 'cutroom admin workspaces update ws_0123456789abcdefghij --plan pro',
    options: { name: { type: 'string' }, plan: { type: 'string' }, 'member-count': { type: 'string' } },
    async run({ client, args, values, output }) {
      const body: Record<string, unknown> = {};
      const name = str(values, 'name');
      if (name !== undefined) body.name = name;
      const plan = str(values, 'plan');
      if (plan !== undefined) body.plan = plan;
      const members = str(values, 'member-count');
      if (members !== undefined) body.member_count = parseNumberFlag('member-count', members, true);
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --name, --plan or --member-count');
      const ws = await client.request<WorkspaceAnswer>('PATCH', `/workspaces/${seg(args.id)}`, body);
      output(ws, () => `Updated workspace ${ws.id}.\n${workspaceDetails(ws)}`);
    },
  },

  // -------------------------------------------------------------------------------------------
  // Keys

  {
    resource: 'keys',
    action: 'create',
    args: [],
    synopsis: '--workspace ID [--workspace ID ...] [--expires-at ISO] [--label L]',
    summary: 'Issue an API key bound to one or more workspaces (the key is shown once)',
    optionHelp: [
      '--workspace ID                          A workspace the key may use (repeat for several; required)',
      '--expires-at ISO                        Expiry, an ISO 8601 date-time with zone, e.g. 2030-01-01T00:00:00Z (default: never)',
      '--label L                               A note to recognise the key by',
    ],
    example: 'cutroom admin keys create --workspace ws_0123456789abcdefghij --label "zapier" --expires-at 2030-01-01T00:00:00Z',
    options: { workspace: { type: 'string', multiple: true }, 'expires-at': { type: 'string' }, label: { type: 'string' } },
    async run({ client, values, output }) {
      const workspaces = (values.workspace as string[] | undefined) ?? [];
      if (workspaces.length === 0) throw new UsageError('--workspace is required (repeat it to bind several workspaces)');
      const body: Record<string, unknown> = { workspace_ids: workspaces };
      const expires = str(values, 'expires-at');
      if (expires !== undefined) body.expires_at = expires;
      const label = str(values, 'label');
      if (label !== undefined) body.label = label;
      const key = await client.request<KeyAnswer>('POST', '/keys', body);
      output(
        key,
        () =>
          `Created API key ${key.id} for ${key.workspace_ids.join(', ')}` +
          `${key.expires_at ? `, expires ${key.expires_at}` : ', no expiry'}.\n` +
          `The key is shown only this once; store it now:\n  ${key.key}\n`,
      );
    },
  },
  {
    resource: 'keys',
    action: 'revoke',
    args: ['id'],
    synopsis: '',
    summary: 'Revoke an API key (its requests answer 401 from now on)',
    optionHelp: [],
    example: 'cutroom admin keys revoke key_0123456789abcdefghij',
    options: {},
    async run({ client, args, output }) {
      // The key id is the part before the dot; accept a whole key too.
      const id = args.id.split('.')[0];
      await client.request('DELETE', `/keys/${seg(id)}`);
      output({ id, revoked: true }, () => `Revoked API key ${id}.\n`);
    },
  },

  // -------------------------------------------------------------------------------------------
  // Credits and free usage

  {
    resource: 'credits',
    action: 'add',
    args: ['workspaceId', 'amount'],
    synopsis: '--reason R [--idempotency-key K]',
    summary: 'Grant credits (a negative amount debits; a debit never goes below zero)',
    optionHelp: [
      '--reason R                              Why, kept in the ledger (required)',
      '--idempotency-key K                     Send Idempotency-Key: a retry with the same key is applied once',
    ],
    example:
      'cutroom admin credits add ws_0123456789abcdefghij 500 --reason "annual top-up"\n' +
      '  cutroom admin credits add ws_0123456789abcdefghij -50 --reason "correction"',
    options: { reason: { type: 'string' }, 'idempotency-key': { type: 'string' } },
    async run({ client, args, values, output }) {
      const amount = parseNumberFlag('amount', args.amount, true);
      if (amount === 0) throw new UsageError('<amount> must not be 0');
      const reason = str(values, 'reason');
      if (reason === undefined) throw new UsageError('--reason is required');
      const key = str(values, 'idempotency-key');
      const entry = await client.request<LedgerAnswer>(
        'POST',
        `/workspaces/${seg(args.workspaceId)}/credits`,
        { amount, reason },
        key ? { 'idempotency-key': key } : {},
      );
      output(entry, () => {
        const what = entry.amount >= 0 ? `Granted ${entry.amount} credits to` : `Debited ${-entry.amount} credits from`;
        return `${what} ${args.workspaceId} (${entry.reason}). Balance: ${entry.balance_after}. Ledger entry ${entry.id}.\n`;
      });
    },
  },
  {
    resource: 'free-usage',
    action: 'start',
    args: ['workspaceId'],
    synopsis: '[--until ISO]',
    summary: 'Start a free-usage window: jobs are not charged while it lasts',
    optionHelp: ['--until ISO                             End of the window, an ISO 8601 date-time with zone (default: no end date)'],
    example: 'cutroom admin free-usage start ws_0123456789abcdefghij --until 2030-01-31T23:59:59Z',
    options: { until: { type: 'string' } },
    async run({ client, args, values, output }) {
      const ws = await client.request<WorkspaceAnswer>('PUT', `/workspaces/${seg(args.workspaceId)}/free-usage`, {
        until: str(values, 'until') ?? null,
      });
      output(ws, () => `Free usage for ${ws.id}: ${freeUsage(ws)}.\n${workspaceDetails(ws)}`);
    },
  },
  {
    resource: 'free-usage',
    action: 'end',
    args: ['workspaceId'],
    synopsis: '',
    summary: 'End the free-usage window now',
    optionHelp: [],
    example: 'cutroom admin free-usage end ws_0123456789abcdefghij',
    options: {},
    async run({ client, args, output }) {
      const ws = await client.request<WorkspaceAnswer>('DELETE', `/workspaces/${seg(args.workspaceId)}/free-usage`);
      output(ws, () => `Free usage for ${ws.id}: ${freeUsage(ws)}.\n${workspaceDetails(ws)}`);
    },
  },
  ...GENERATION_MODEL_COMMANDS,
  ...PERSONA_COMMANDS,
];
