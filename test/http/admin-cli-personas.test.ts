import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { runAdmin } from '../../src/main/admin-cli.js';

/** `cutroom admin personas prices` and `prices-set` against a running server (docs/personas.md#prices). */

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

async function admin(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { CUTROOM_URL: url, CUTROOM_ADMIN_TOKEN: t.adminToken },
  });
  return { code, stdout, stderr };
}

describe('cutroom admin personas', () => {
  it('shows the defaults, sets prices (the catalog follows), refuses bad values and nothing to change', async () => {
    const shown = await admin(['personas', 'prices', '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ image: 1, swap_standard_per_second: 1, swap_high_per_second: 2 });
    const human = await admin(['personas', 'prices']);
    expect(human.stdout).toContain('swap, high');

    const set = await admin(['personas', 'prices-set', '--image', '3', '--swap-high', '4']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Persona prices updated.');
    const ws = await t.workspace();
    const catalog = await t.api(ws.key, 'GET', '/personas/catalog');
    expect(catalog.body.prices).toEqual({ image: 3, swap: { standard: { per_second: 1 }, high: { per_second: 4 } } });

    const bad = await admin(['personas', 'prices-set', '--image', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--image must be an integer');
    const negative = await admin(['personas', 'prices-set', '--image', '-1']);
    expect(negative.code).not.toBe(0);
    const nothing = await admin(['personas', 'prices-set']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
    expect((await t.admin('GET', '/personas/prices')).body).toEqual({ image: 3, swap_standard_per_second: 1, swap_high_per_second: 4 });
  });
});
