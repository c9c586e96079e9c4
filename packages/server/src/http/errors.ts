import { isServiceError } from '@docsvc/partition';
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './http-error.js';

/** One validation problem, in the shape legacy partition clients parse (`detail` as a list). */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * Every error becomes `{"detail": ...}` with the right status. Document errors keep their message;
 * unexpected errors answer a generic 500 (the cause goes to the log with the request id, never to the
 * client: no stack traces or secrets in bodies).
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof HttpError) {
      void reply.code(error.status).headers(error.headers).send({ detail: error.detail });
      return;
    }
    if (isServiceError(error)) {
      if (error.code === 'invalid_option' && error.details) {
        const detail: ValidationDetail[] = error.details.map((d) => ({
          loc: ['body', d.field],
          msg: d.message,
          type: 'value_error',
        }));
        void reply.code(422).send({ detail });
        return;
      }
      if (error.status >= 500) request.log.error({ err: error }, 'partition failed');
      void reply.code(error.status).send({ detail: error.message });
      return;
    }
    if (error.name === 'AbortError') {
      // The client went away (mid-upload or while waiting): nobody reads an answer.
      request.log.info('client disconnected before the answer');
      void reply.code(499).send({ detail: 'Client closed the request.' });
      return;
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode;
    if (
      fastifyError.code === 'FST_REQ_FILE_TOO_LARGE' ||
      fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
    ) {
      void reply.code(413).send({ detail: 'Upload exceeds the size limit of this server.' });
      return;
    }
    if (
      fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
      fastifyError.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE'
    ) {
      void reply.code(415).send({ detail: 'Send the request as multipart/form-data.' });
      return;
    }
    if (status && status >= 400 && status < 500) {
      void reply.code(status).send({ detail: fastifyError.message });
      return;
    }
    request.log.error({ err: error }, 'unexpected error');
    void reply.code(500).send({ detail: `Internal server error (request ${request.id}).` });
  });
}
