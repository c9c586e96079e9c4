import { fakeVector, type ProviderServer, startProviderServer, unauthorized } from './server.js';

/**
 * Mixedbread: `POST /v1/embeddings` `{model, input, normalized, encoding_format, dimensions?}` with a
 * bearer key → `{object: "list", data: [{embedding, index, object: "embedding"}], model, usage, normalized}`.
 */
export function startMixedbreadServer(options: {
  apiKey: string;
  dimension?: number;
}): Promise<ProviderServer> {
  return startProviderServer([
    {
      method: 'POST',
      path: /^\/v1\/embeddings$/,
      handle(request) {
        if (request.headers.authorization !== `Bearer ${options.apiKey}`) return unauthorized('Unauthorized');
        const body = request.body as {
          input: string[];
          model: string;
          dimensions?: number;
          normalized?: boolean;
        };
        const dimension = body.dimensions ?? options.dimension ?? 1024;
        // Answer out of order on purpose: clients must place vectors by `index`.
        const data = body.input
          .map((text, index) => ({ object: 'embedding', embedding: fakeVector(text, dimension), index }))
          .reverse();
        return {
          body: {
            object: 'list',
            data,
            model: body.model,
            normalized: body.normalized ?? true,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          },
        };
      },
    },
  ]);
}
