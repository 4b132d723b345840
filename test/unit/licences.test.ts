import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';

/**
 * What the service ships may be used commercially (issue 15: no AGPL dependency, no weights whose licence
 * forbids commercial use): every package installed for production, as package-lock.json records it, and
 * every model file kept in assets/models with its licence beside it.
 */

/** Licences that bind a network service's own code (AGPL, SSPL, GPL) or forbid commercial use. */
const FORBIDDEN = /AGPL|SSPL|BUSL|Commons-Clause|Elastic-2|PolyForm|(^|[^L])GPL|CC-BY-(NC|ND)|NonCommercial|non-commercial/i;

interface LockEntry {
  license?: string;
  dev?: boolean;
  link?: boolean;
}

function productionPackages(): Array<[string, LockEntry]> {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  // The repository itself and its own SDK (a workspace link) are not third-party code.
  return Object.entries(lock.packages).filter(([name, p]) => name.startsWith('node_modules/') && !p.dev && !p.link);
}

describe('licences of what the service ships', () => {
  it('installs no production package under a licence that forbids closed or commercial use, and none without a licence', () => {
    const packages = productionPackages();
    expect(packages.length).toBeGreaterThan(100);
    const bad = packages.filter(([, p]) => !p.license || FORBIDDEN.test(p.license)).map(([name, p]) => `${name}: ${p.license ?? 'none'}`);
    expect(bad).toEqual([]);
  });

  it('recognises the licences it forbids (the check can fail)', () => {
    for (const l of ['AGPL-3.0-only', 'GPL-3.0-or-later', 'SSPL-1.0', 'CC-BY-NC-4.0', 'BUSL-1.1']) expect(FORBIDDEN.test(l), l).toBe(true);
    for (const l of ['MIT', 'Apache-2.0', 'LGPL-3.0-or-later', 'BSD-3-Clause', '(MIT AND CC-BY-4.0)', 'MIT AND OFL-1.1', 'BlueOak-1.0.0'])
      expect(FORBIDDEN.test(l), l).toBe(false);
  });

  it('keeps each model in assets/models with its licence (MIT or Apache-2.0) and a README naming it and its source', () => {
    const dir = path.join(ROOT, 'assets/models');
    const models = fs.readdirSync(dir).filter((d) => fs.statSync(path.join(dir, d)).isDirectory());
    expect(models.sort()).toEqual(['esrgan-slim-x4', 'selfie-segmentation']);
    for (const m of models) {
      const files = fs.readdirSync(path.join(dir, m));
      const licences = files.filter((f) => /^LICEN[SC]E/i.test(f));
      expect(licences.length, m).toBeGreaterThan(0);
      for (const f of licences) {
        const text = fs.readFileSync(path.join(dir, m, f), 'utf8');
        expect(/MIT License|Permission is hereby granted, free of charge|Apache License\s+Version 2\.0/.test(text), `${m}/${f}`).toBe(true);
        expect(FORBIDDEN.test(text), `${m}/${f}`).toBe(false);
      }
      const readme = fs.readFileSync(path.join(dir, m, 'README.md'), 'utf8');
      expect(readme, m).toMatch(/MIT|Apache/);
      expect(readme, m).toMatch(/npm package\s+`[^`]+`/);
      // Only the files the engine loads, their licences and the README.
      const kept = files.filter((f) => !licences.includes(f) && f !== 'README.md');
      expect(
        kept.every((f) => /\.(json|bin)$/.test(f)),
        `${m}: ${kept.join(', ')}`,
      ).toBe(true);
    }
  });
});
