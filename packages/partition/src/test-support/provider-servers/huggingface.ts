import { fakeVector, type ProviderServer, startProviderServer, unauthorized } from './server.js';

/**
 * Hugging Face, both servers:
 * - Inference API: `POST /hf-inference/models/{model}/pipeline/feature-extraction` `{inputs, normalize?}`, bearer
 *   token → `number[][]`, or token vectors `number[][][]` when `tokenLevel` (models without pooling);
 * - Text Embeddings Inference: `POST /embed` `{inputs, normalize?, truncate?}` → `number[][]` (no key).
 */
export function startHuggingFaceServer(options: {
  token?: string;
  dimension?: number;
  tokenLevel?: boolean;
}): Promise<ProviderServer> {
  const dimension = options.dimension ?? 384;
  return startProviderServer([
    {
      method: 'POST',
      path: /^\/hf-inference\/models\/(.+)\/pipeline\/feature-extraction$/,
      handle(request) {
        if (request.headers.authorization !== `Bearer ${options.token}`)
          return unauthorized('Invalid credentials in Authorization header');
        const inputs = request.body.inputs as string[];
        if (options.tokenLevel) {
          // Two "tokens" per input whose mean is the fake vector.
          return {
            body: inputs.map((text) => {
              const vector = fakeVector(text, dimension);
              return [vector.map((v) => v - 0.5), vector.map((v) => v + 0.5)];
            }),
          };
        }
        return { body: inputs.map((text) => fakeVector(text, dimension)) };
      },
    },
    {
      method: 'POST',
      path: /^\/embed$/,
      handle(request) {
        if (options.token && request.headers.authorization !== `Bearer ${options.token}`)
          return unauthorized('Unauthorized');
        const inputs = request.body.inputs as string[];
        return { body: inputs.map((text) => fakeVector(text, dimension)) };
      },
    },
  ]);
}
