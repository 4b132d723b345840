import { UsageError, parseNumberFlag } from './args.js';
import type { Command, Values } from './command.js';
import { keyValues } from './format.js';

/** `cutroom admin personas …`: the persona prices (docs/personas.md#prices). */

interface PricesAnswer {
  image: number;
  swap_standard_per_second: number;
  swap_high_per_second: number;
}

const FLAGS: Array<[flag: string, field: keyof PricesAnswer]> = [
  ['image', 'image'],
  ['swap-standard', 'swap_standard_per_second'],
  ['swap-high', 'swap_high_per_second'],
];

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

function details(p: PricesAnswer): string {
  return keyValues([
    ['portrait', `${p.image} credits`],
    ['swap, standard', `${p.swap_standard_per_second} credits per second`],
    ['swap, high', `${p.swap_high_per_second} credits per second`],
  ]);
}

export const PERSONA_COMMANDS: Command[] = [
  {
    resource: 'personas',
    action: 'prices',
    args: [],
    synopsis: '',
    summary: 'Show the persona prices (before each plan’s discount)',
    optionHelp: [],
    example: 'cutroom admin personas prices',
    options: {},
    async run({ client, output }) {
      const p = await client.request<PricesAnswer>('GET', '/personas/prices');
      output(p, () => details(p));
    },
  },
  {
    resource: 'personas',
    action: 'prices-set',
    args: [],
    synopsis: '[--image N] [--swap-standard N] [--swap-high N]',
    summary: 'Set persona prices in credits: per portrait, per second of a swap',
    optionHelp: [
      '--image N                               Credits per portrait (create, regenerate; >= 0)',
      '--swap-standard N                       Credits per started second of a standard swap (>= 0)',
      '--swap-high N                           Credits per started second of a high-quality swap (>= 0)',
    ],
    example: 'cutroom admin personas prices-set --image 2 --swap-standard 1 --swap-high 3',
    options: { image: { type: 'string' }, 'swap-standard': { type: 'string' }, 'swap-high': { type: 'string' } },
    async run({ client, values, output }) {
      const body: Record<string, number> = {};
      for (const [flag, field] of FLAGS) {
        const raw = str(values, flag);
        if (raw !== undefined) body[field] = parseNumberFlag(flag, raw, true);
      }
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --image, --swap-standard or --swap-high');
      const p = await client.request<PricesAnswer>('PUT', '/personas/prices', body);
      output(p, () => `Persona prices updated.\n${details(p)}`);
    },
  },
];
