import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { AdminTokenService } from '../../domain/auth/admin-token.service.js';

/** /admin/v1 answers only `Authorization: Bearer $CUTROOM_ADMIN_TOKEN`. */
export function registerAdminAuth(app: FastifyInstance, token: AdminTokenService) {
  app.addHook('onRequest', async (req) => {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!token.verify(m?.[1].trim())) throw new DomainError('UNAUTHORIZED');
  });
}
