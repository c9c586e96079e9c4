import { elementSchema } from '@docsvc/partition';
import { z } from 'zod';
import { API_KEY_HEADER } from './http/auth.js';
import { partitionFormOptions } from './partition-form.js';

/**
 * The OpenAPI 3.1 document, generated from the same option sets and element schema that validate
 * requests and describe responses: adding an option to the library adds it here.
 */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const formSchema = z.toJSONSchema(partitionFormOptions.schema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, unknown>;
  };
  const detail = {
    type: 'object',
    properties: {
      detail: {
        oneOf: [
          { type: 'string' },
          {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                loc: { type: 'array', items: { type: ['string', 'integer'] } },
                msg: { type: 'string' },
                type: { type: 'string' },
              },
            },
          },
        ],
      },
    },
    required: ['detail'],
  };
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  const keyInfo = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      workspace_id: { type: 'string' },
      prefix: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      revoked_at: { type: ['string', 'null'], format: 'date-time' },
      last_used_at: { type: ['string', 'null'], format: 'date-time' },
    },
  };
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  const idParameter = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Document processing service',
      version,
      description: 'Partition documents into typed elements. Authenticate with the `service-api-key` header.',
    },
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      schemas: {
        Element: z.toJSONSchema(elementSchema, { io: 'output', unrepresentable: 'any' }),
        Error: detail,
        ApiKey: keyInfo,
      },
    },
    security: [{ ApiKeyAuth: [] }],
    paths: {
      '/general/v0/general': {
        post: {
          operationId: 'partition',
          summary: 'Partition one or more documents',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    files: {
                      type: 'array',
                      items: { type: 'string', format: 'binary' },
                      description: 'The documents.',
                    },
                    ...formSchema.properties,
                  },
                  required: ['files'],
                },
              },
            },
          },
          responses: {
            200: {
              description: 'Elements of the document (an array of arrays when several files were sent).',
              content: {
                'application/json': {
                  schema: {
                    oneOf: [
                      { type: 'array', items: { $ref: '#/components/schemas/Element' } },
                      {
                        type: 'array',
                        items: { type: 'array', items: { $ref: '#/components/schemas/Element' } },
                      },
                    ],
                  },
                },
                'text/csv': { schema: { type: 'string' } },
              },
            },
            400: error('Unsupported file type, strategy not available for the file, unknown model.'),
            401: error('Missing or invalid API key.'),
            403: error('Revoked API key.'),
            406: error('Unsupported Accept header with several files.'),
            413: error('Upload over the size limit.'),
            415: error('Not a multipart/form-data request.'),
            422: error('Invalid parameter values (field-level detail), corrupt or encrypted documents.'),
            429: error('Rate limit of the API key exceeded.'),
            500: error('Unexpected error.'),
            503: error('Server over its concurrency or memory budget; retry after the Retry-After delay.'),
          },
        },
      },
      '/healthcheck': {
        get: { operationId: 'healthcheck', security: [], responses: { 200: { description: 'Alive.' } } },
      },
      '/api/v1/keys': {
        get: {
          operationId: 'list_keys',
          responses: {
            200: json({
              type: 'object',
              properties: { keys: { type: 'array', items: { $ref: '#/components/schemas/ApiKey' } } },
            }),
          },
        },
        post: {
          operationId: 'create_key',
          requestBody: json({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
          responses: {
            201: {
              description: 'The key (shown in full) and its information.',
              ...json({ $ref: '#/components/schemas/ApiKey' }),
            },
          },
        },
      },
      '/api/v1/keys/{id}': {
        get: {
          operationId: 'get_key',
          parameters: idParameter,
          responses: {
            200: json({ $ref: '#/components/schemas/ApiKey' }),
            404: error('No such key in this workspace.'),
          },
        },
        delete: {
          operationId: 'revoke_key',
          parameters: idParameter,
          responses: {
            200: json({ $ref: '#/components/schemas/ApiKey' }),
            404: error('No such key in this workspace.'),
          },
        },
      },
      '/api/v1/keys/{id}/reveal': {
        post: {
          operationId: 'reveal_key',
          parameters: idParameter,
          responses: {
            200: json({ type: 'object', properties: { id: { type: 'string' }, key: { type: 'string' } } }),
            404: error('No such key in this workspace.'),
          },
        },
      },
    },
  };
}
