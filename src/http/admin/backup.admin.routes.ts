import type { Api } from '../types.js';

export interface AdminBackupRoutesDeps {
  /** The embedded database's consistent dump (a gzipped tar of its data directory); null on PostgreSQL. */
  databaseDump: { dump(): Promise<Uint8Array> } | null;
}

/**
 * GET /admin/v1/backup/database: `cutroom backup` against a running embedded service (the only process
 * that may open its database) fetches the dump here, then copies the files itself. Absent on PostgreSQL,
 * where pg_dump does this (docs/operations.md).
 */
export function adminBackupRoutes(app: Api, deps: AdminBackupRoutesDeps) {
  const source = deps.databaseDump;
  if (!source) return;
  app.get('/backup/database', { schema: { hide: true } }, async (_req, reply) => {
    const bytes = await source.dump();
    return reply.type('application/gzip').header('Content-Disposition', 'attachment; filename="database.tar.gz"').send(Buffer.from(bytes));
  });
}
