import { UsageError, parseBooleanFlag, parseNumberFlag, type OptionSpec } from './args.js';
import type { Command, Values } from './command.js';
import { keyValues, table } from './format.js';

/** `cutroom admin generation-models …`: the generation catalog (docs/generations.md). */

interface ModelAnswer {
  id: string;
  name: string;
  kind: string;
  engine: string;
  provider: string;
  provider_model: string;
  base_url: string | null;
  has_api_key: boolean;
  enabled: boolean;
  price: { per_image?: number; per_second?: number };
  max_seconds?: number;
  description: string;
}

const seg = encodeURIComponent;

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

function price(m: ModelAnswer): string {
  return m.price.per_second !== undefined ? `${m.price.per_second}/s` : `${m.price.per_image ?? 0}/image`;
}

function details(m: ModelAnswer): string {
  return keyValues([
    ['id', m.id],
    ['name', m.name],
    ['kind', m.kind],
    ['provider', m.provider],
    ['provider model', m.provider_model],
    ['base url', m.base_url ?? '-'],
    ['api key', m.has_api_key ? 'set (sealed)' : '-'],
    ['price', `${price(m)} credits`],
    ...(m.max_seconds !== undefined ? ([['max seconds', m.max_seconds]] as Array<[string, number]>) : []),
    ['enabled', m.enabled ? 'yes' : 'no'],
  ]);
}

function json(flag: string, raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`--${flag} must be JSON`);
  }
}

const PUT_OPTIONS: Record<string, OptionSpec> = {
  name: { type: 'string' },
  kind: { type: 'string' },
  provider: { type: 'string' },
  'provider-model': { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  description: { type: 'string' },
  'price-per-image': { type: 'string' },
  'price-per-second': { type: 'string' },
  'max-seconds': { type: 'string' },
  'image-field': { type: 'string' },
  inputs: { type: 'string' },
  options: { type: 'string' },
  enabled: { type: 'string' },
};

export const GENERATION_MODEL_COMMANDS: Command[] = [
  {
    resource: 'generation-models',
    action: 'list',
    args: [],
    synopsis: '',
    summary: 'List the generation models (disabled ones too)',
    optionHelp: [],
    example: 'cutroom admin generation-models list',
    options: {},
    async run({ client, output }) {
      const answer = await client.request<{ models: ModelAnswer[] }>('GET', '/generation-models?limit=100');
      output(answer, () =>
        table(
          ['ID', 'KIND', 'PROVIDER', 'PRICE', 'ENABLED'],
          answer.models.map((m) => [m.id, m.kind, m.provider, price(m), m.enabled ? 'yes' : 'no']),
        ),
      );
    },
  },
  {
    resource: 'generation-models',
    action: 'show',
    args: ['id'],
    synopsis: '',
    summary: 'Show a generation model',
    optionHelp: [],
    example: 'cutroom admin generation-models show camera-motion',
    options: {},
    async run({ client, args, output }) {
      const m = await client.request<ModelAnswer>('GET', `/generation-models/${seg(args.id)}`);
      output(m, () => details(m));
    },
  },
  {
    resource: 'generation-models',
    action: 'put',
    args: ['id'],
    synopsis: '--name N --kind image|video --provider P --provider-model M [options]',
    summary: 'Create or replace a generation model (the next POST /generations uses it)',
    optionHelp: [
      '--name N                                Name shown in the catalog (required)',
      '--kind image|video                      What it makes (required)',
      '--provider P                            embedded, fal, replicate or openai (required)',
      '--provider-model M                      Embedded engine or the provider’s model id (required)',
      '--base-url URL                          The provider’s address (a self-hosted compatible server)',
      '--api-key K                             Provider key, sealed and never shown again',
      '--description D                         What the model really does',
      '--price-per-image N                     Credits per image (image models)',
      '--price-per-second N                    Credits per second (video models)',
      '--max-seconds N                         Longest video (video models)',
      '--image-field F                         The provider model’s input field for reference images',
      '--inputs JSON                           {"prompt":"required|optional|none","image_ids":{"min":0,"max":1}}',
      '--options JSON                          {"name":{"type":"string","values":[...],"default":...},...}',
      '--enabled true|false                    Listed and usable (default true)',
    ],
    example:
      'cutroom admin generation-models put flux-dev --name "FLUX dev" --kind image --provider fal --provider-model fal-ai/flux/dev --api-key $FAL_KEY --price-per-image 4 --inputs \'{"prompt":"required","image_ids":{"min":0,"max":0}}\'',
    options: PUT_OPTIONS,
    async run({ client, args, values, output }) {
      const need = (flag: string) => {
        const v = str(values, flag);
        if (v === undefined) throw new UsageError(`--${flag} is required`);
        return v;
      };
      const body: Record<string, unknown> = {
        name: need('name'),
        kind: need('kind'),
        provider: need('provider'),
        provider_model: need('provider-model'),
        price: {
          ...(str(values, 'price-per-image') !== undefined ? { per_image: parseNumberFlag('price-per-image', str(values, 'price-per-image')!, false) } : {}),
          ...(str(values, 'price-per-second') !== undefined
            ? { per_second: parseNumberFlag('price-per-second', str(values, 'price-per-second')!, false) }
            : {}),
        },
      };
      const optional: Array<[string, string, (raw: string) => unknown]> = [
        ['base-url', 'base_url', (r) => r],
        ['api-key', 'api_key', (r) => r],
        ['description', 'description', (r) => r],
        ['max-seconds', 'max_seconds', (r) => parseNumberFlag('max-seconds', r, false)],
        ['image-field', 'image_field', (r) => r],
        ['inputs', 'inputs', (r) => json('inputs', r)],
        ['options', 'options', (r) => json('options', r)],
        ['enabled', 'enabled', (r) => parseBooleanFlag('enabled', r)],
      ];
      for (const [flag, field, parse] of optional) {
        const raw = str(values, flag);
        if (raw !== undefined) body[field] = parse(raw);
      }
      const m = await client.request<ModelAnswer>('PUT', `/generation-models/${seg(args.id)}`, body);
      output(m, () => `Saved generation model ${m.id}.\n${details(m)}`);
    },
  },
  {
    resource: 'generation-models',
    action: 'delete',
    args: ['id'],
    synopsis: '',
    summary: 'Delete a generation model (an embedded one comes back at the next start: disable it instead)',
    optionHelp: [],
    example: 'cutroom admin generation-models delete flux-dev',
    options: {},
    async run({ client, args, output }) {
      await client.request('DELETE', `/generation-models/${seg(args.id)}`);
      output({ id: args.id, deleted: true }, () => `Deleted generation model ${args.id}.`);
    },
  },
];
