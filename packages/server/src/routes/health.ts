import type { FastifyInstance } from 'fastify';

/** GET /healthcheck: liveness, no key needed (same body as the legacy endpoint's). */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthcheck', { logLevel: 'warn' }, async () => ({
    healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!',
  }));
}
