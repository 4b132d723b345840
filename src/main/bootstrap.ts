import fs from 'node:fs';
import path from 'node:path';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import type { Container } from './container.js';

export interface BootstrapResult {
  adminToken?: string;
  apiKey?: string;
  workspaceId?: string;
}

function writeSecret(dir: string, name: string, value: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/**
 * First start of an empty installation: the built-in plan, the operator token, a personal workspace
 * with starting credits and one API key. Secrets are returned (to print once) and written to the
 * data directory with mode 0600. Later starts change nothing.
 */
export async function bootstrap(c: Container): Promise<BootstrapResult> {
  await c.plans.ensureDefault();
  await c.templates.ensureBuiltins();
  await c.generations.seedEmbedded();
  const result: BootstrapResult = {};
  result.adminToken = await c.adminToken.init(c.config.adminToken);
  if (result.adminToken) writeSecret(c.config.dataDir, 'admin-token', result.adminToken);

  // Only one process of a deployment creates the first workspace.
  const claim = await new DrizzleSettingsRepository(c.database.db).getOrCreate('first_workspace_created', () => new Date().toISOString());
  if (claim.created && (await c.workspaces.count()) === 0) {
    const ws = await c.workspaces.create({
      name: 'Personal',
      plan: 'default',
      credits: c.config.startingCredits,
      isPersonal: true,
    });
    const { key } = await c.apiKeys.create({ workspaceIds: [ws.workspace.id], label: 'first key' });
    writeSecret(c.config.dataDir, 'api-key', key);
    result.apiKey = key;
    result.workspaceId = ws.workspace.id;
  }
  return result;
}

/** What the first start prints: the generated secrets, how to try the key, and the Studio's address when it is served (`studioUrl`). */
export function bootstrapBanner(r: BootstrapResult, dataDir: string, baseUrl: string, studioUrl?: string): string {
  const lines: string[] = [];
  if (r.adminToken) {
    lines.push(`Admin token (shown once, also in ${path.join(dataDir, 'admin-token')}):`, `  ${r.adminToken}`);
  }
  if (r.apiKey) {
    lines.push(
      `API key for workspace ${r.workspaceId} (shown once, also in ${path.join(dataDir, 'api-key')}):`,
      `  ${r.apiKey}`,
      `Try: curl -H "X-Api-Key: ${r.apiKey}" ${baseUrl}/api/v1/workspace`,
    );
    if (studioUrl) lines.push(`Or open the Studio at ${studioUrl} and sign in with this key.`);
  }
  if (lines.length === 0) return '';
  const bar = '='.repeat(72);
  return `${bar}\n${lines.join('\n')}\n${bar}\n`;
}
