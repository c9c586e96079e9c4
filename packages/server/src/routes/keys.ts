import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/http-error.js';
import type { KeyStore } from '../keys/store.js';

/**
 * API key management within the caller's workspace (for the UI and scripts). Every query is scoped by
 * the workspace of the key that authenticated the request.
 */
export async function keyRoutes(app: FastifyInstance, { keys }: { keys: KeyStore }): Promise<void> {
  const idParams = {
    type: 'object',
    properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
    required: ['id'],
  } as const;
  const workspace = (request: { auth?: { workspaceId: string } }) => {
    if (!request.auth)
      throw new HttpError(401, 'API key is missing, please provide an API key in the header.');
    return request.auth.workspaceId;
  };
  const notFound = () => new HttpError(404, 'API key not found.');

  app.get('/api/v1/keys', async (request) => ({ keys: await keys.listKeys(workspace(request)) }));

  app.post<{ Body: { name: string } }>(
    '/api/v1/keys',
    {
      schema: {
        body: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      const created = await keys.createKey(workspace(request), request.body.name);
      return reply.code(201).send({ ...created.info, key: created.key });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/keys/:id',
    { schema: { params: idParams } },
    async (request) => {
      return (await keys.getKey(workspace(request), request.params.id)) ?? Promise.reject(notFound());
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/keys/:id/reveal',
    { schema: { params: idParams } },
    async (request) => {
      const key = await keys.revealKey(workspace(request), request.params.id);
      if (key === undefined) throw notFound();
      return { id: request.params.id, key };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/v1/keys/:id',
    { schema: { params: idParams } },
    async (request) => {
      return (await keys.revokeKey(workspace(request), request.params.id)) ?? Promise.reject(notFound());
    },
  );
}
