import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { ServerConfig } from './config.js';
import { Admission } from './http/admission.js';
import { API_KEY_HEADER, authenticate } from './http/auth.js';
import { installErrorHandling } from './http/errors.js';
import { HttpError } from './http/http-error.js';
import type { KeyStore } from './keys/store.js';
import { buildOpenApiDocument } from './openapi.js';
import { healthRoutes } from './routes/health.js';
import { keyRoutes } from './routes/keys.js';
import { partitionMethodNotAllowed, partitionRoutes } from './routes/partition.js';

export interface AppDeps {
  config: ServerConfig;
  keys: KeyStore;
  version: string;
  /** Free-memory probe; tests replace it to exercise the 503 path. */
  freeMemory?: () => number;
}

const MIB = 1024 * 1024;

/**
 * The HTTP application, without listening (tests use `inject`; server.ts listens). Public routes:
 * health and API docs; everything else needs a `service-api-key` and is rate limited per key.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, keys } = deps;
  const maxUploadBytes = Math.floor(config.max_upload_mb * MIB);
  const app = Fastify({
    logger:
      config.log_level === 'silent'
        ? false
        : {
            level: config.log_level,
            redact: [`req.headers["${API_KEY_HEADER}"]`, 'req.headers.authorization'],
          },
    bodyLimit: Math.max(maxUploadBytes, MIB),
    // One line per finished request (below), instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/healthcheck') return;
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  });
  installErrorHandling(app);

  // Graceful shutdown: requests already running finish, and their connections close after the answer
  // instead of idling until the keep-alive timeout holds the shutdown up.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  await app.register(cors, {
    origin: config.cors_origins.includes('*') ? true : config.cors_origins,
    allowedHeaders: ['content-type', 'accept', API_KEY_HEADER, 'authorization'],
    exposedHeaders: ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
  });
  await app.register(multipart, {
    limits: { fileSize: maxUploadBytes, files: 1000, fields: 1000, fieldSize: MIB, parts: 2000 },
  });

  const openapi = buildOpenApiDocument(deps.version);
  await app.register(swagger, { mode: 'static', specification: { document: openapi as never } });
  await app.register(swaggerUi, { routePrefix: '/general/docs' });
  app.get('/general/openapi.json', async () => openapi);

  await app.register(healthRoutes);
  await app.register(partitionMethodNotAllowed);

  const admission = new Admission(
    config.max_concurrent_requests,
    config.max_queued_requests,
    config.memory_free_minimum_mb * MIB,
    deps.freeMemory,
  );
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      await authenticate(request, keys);
    });
    if (config.rate_limit_per_minute > 0) {
      await scope.register(rateLimit, {
        max: config.rate_limit_per_minute,
        timeWindow: 60_000,
        hook: 'preHandler',
        keyGenerator: (request) => request.auth?.keyId ?? request.ip,
        errorResponseBuilder: (_request, context) =>
          new HttpError(
            429,
            `Rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}.`,
            {
              'retry-after': String(Math.ceil(context.ttl / 1000)),
            },
          ),
      });
    }
    await partitionRoutes(scope, { admission, maxUploadBytes, modelsDir: config.models_dir });
    await keyRoutes(scope, { keys });
  });
  return app;
}
