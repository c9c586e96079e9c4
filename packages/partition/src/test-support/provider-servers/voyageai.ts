import { fakeVector, type ProviderServer, startProviderServer, unauthorized } from './server.js';

/**
 * Voyage AI: `POST /v1/embeddings` `{input, model, input_type?, output_dimension?}` with a bearer key →
 * `{object: "list", data: [{object: "embedding", embedding, index}], model, usage: {total_tokens}}`.
 */
export function startVoyageServer(options: { apiKey: string; dimension?: number }): Promise<ProviderServer> {
  return startProviderServer([
    {
      method: 'POST',
      path: /^\/v1\/embeddings$/,
      handle(request) {
        if (request.headers.authorization !== `Bearer ${options.apiKey}`)
          return unauthorized('Invalid API key');
        const body = request.body as { input: string[]; model: string; output_dimension?: number };
        const dimension = body.output_dimension ?? options.dimension ?? 1024;
        return {
          body: {
            object: 'list',
            data: body.input.map((text, index) => ({
              object: 'embedding',
              embedding: fakeVector(text, dimension),
              index,
            })),
            model: body.model,
            usage: { total_tokens: body.input.length },
          },
        };
      },
    },
  ]);
}
