import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type DocumentOptionsInput,
  type Element,
  elementsToCsv,
  elementsToJson,
  parseOptionStrings,
  processDocument,
  ServiceError,
} from '@docsvc/partition';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Admission } from '../http/admission.js';
import { HttpError } from '../http/http-error.js';
import { readMultipart } from '../http/uploads.js';
import { partitionFormOptions } from '../partition-form.js';

export interface PartitionRouteDeps {
  admission: Admission;
  maxUploadBytes: number;
  /** Folder of layout models requests may name; absent = only built-in models. */
  modelsDir: string | undefined;
}

/** Accept values that the multi-file answer (an array of arrays) satisfies. */
const MULTI_FILE_ACCEPT = new Set(['*/*', 'multipart/mixed', 'application/json', 'text/csv']);

/** Metadata that describes the server's temporary copy, not the user's document (an e-mail's date stays). */
const SERVER_ONLY_METADATA = ['file_directory'] as const;

/**
 * POST /general/v0/general (SPEC 4.1): multipart form with one or more `files` parts and option fields.
 * One file → a JSON array of elements; several → an array of arrays in upload order. Authentication and
 * rate limiting happen in hooks before the handler (app.ts).
 */
export async function partitionRoutes(app: FastifyInstance, deps: PartitionRouteDeps): Promise<void> {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.isMultipart()) throw new HttpError(415, 'Send the request as multipart/form-data.');
    const clientGone = abortOnDisconnect(reply);
    const release = await deps.admission.acquire(clientGone);
    const form = await readMultipart(request, deps.maxUploadBytes, clientGone).catch((error: unknown) => {
      release();
      throw error;
    });
    try {
      const files = form.files.filter((file) => file.fieldname === 'files');
      if (files.length === 0) {
        return reply
          .code(422)
          .send({ detail: [{ loc: ['body', 'files'], msg: 'Field required', type: 'missing' }] });
      }
      const { output_format, ...options } = parseOptionStrings(
        partitionFormOptions,
        form.fields,
      ) as DocumentOptionsInput & {
        output_format: string;
      };
      options.hi_res_model_name = resolveModelName(options.hi_res_model_name, deps.modelsDir);
      const accept = request.headers.accept?.split(';')[0]?.trim();
      if (files.length > 1 && accept && !MULTI_FILE_ACCEPT.has(accept)) {
        throw new HttpError(406, `Conflict in media type ${accept} with response type 'multipart/mixed'.`);
      }
      const results: Element[][] = [];
      const started = performance.now();
      for (const file of files) {
        const elements = await processDocument(
          { data: await file.read(), filename: file.filename, content_type: file.contentType },
          options,
          { signal: clientGone },
        );
        for (const element of elements) for (const key of SERVER_ONLY_METADATA) delete element.metadata[key];
        results.push(elements);
      }
      // Server-Timing lets clients (and the benchmark) tell processing time from transport and queueing.
      reply.header('server-timing', `partition;dur=${(performance.now() - started).toFixed(2)}`);
      if (output_format === 'text/csv') {
        return reply.type('text/csv; charset=utf-8').send(elementsToCsv(results.flat()));
      }
      const body =
        results.length === 1
          ? elementsToJson(results[0]!)
          : `[${results.map((r) => elementsToJson(r)).join(',')}]`;
      return reply.type('application/json; charset=utf-8').send(body);
    } finally {
      await form.cleanup();
      release();
    }
  };
  app.post('/general/v0/general', handler);
  app.post('/general/:version/general', handler);
}

/** The partition paths answer 405 to anything but POST, with or without a key. */
export async function partitionMethodNotAllowed(app: FastifyInstance): Promise<void> {
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ detail: 'Only POST requests are supported.' });
  for (const path of ['/general/v0/general', '/general/:version/general']) {
    app.route({ method: ['GET', 'PUT', 'DELETE', 'PATCH'], url: path, handler: notAllowed });
  }
}

/** Abort partitioning when the client goes away: nobody will read the answer. */
function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * A request may name a built-in layout model, or a model file of the operator's models folder by its file
 * name. Paths are refused: over HTTP, a path would let callers probe the server's file system.
 */
function resolveModelName(name: string | undefined, modelsDir: string | undefined): string | undefined {
  if (!name || !/[\\/]|\.onnx$/i.test(name)) return name;
  const file = basename(name);
  if (!modelsDir || file !== name) {
    throw new ServiceError(
      'unknown_model',
      `Unknown model type: ${name}. Name a built-in model or a model file of the server's models folder.`,
    );
  }
  return join(modelsDir, file);
}
