import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/events.js';

/** docs/webhooks.md's event catalogue names every event the service announces, and only those. */
describe('docs/webhooks.md event catalogue', () => {
  const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);

  it('has one row per name of WEBHOOK_EVENT_TYPES and no other', () => {
    expect([...rows].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  it('the README lists every event too', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const missing = WEBHOOK_EVENT_TYPES.filter((e) => !readme.includes(`\`${e}\``));
    expect(missing).toEqual([]);
  });
});
