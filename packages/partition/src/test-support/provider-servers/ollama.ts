import { fakeVector, type ProviderServer, startProviderServer } from './server.js';

/** Ollama's native API: `POST /api/embed` `{model, input, truncate?, dimensions?}` → `{model, embeddings}`. */
export function startOllamaServer(options: { dimension?: number } = {}): Promise<ProviderServer> {
  return startProviderServer([
    {
      method: 'POST',
      path: /^\/api\/embed$/,
      handle(request) {
        const body = request.body as { model: string; input: string | string[]; dimensions?: number };
        const inputs = typeof body.input === 'string' ? [body.input] : body.input;
        const dimension = body.dimensions ?? options.dimension ?? 768;
        if (!body.model) return { status: 400, body: { error: 'model is required' } };
        return { body: { model: body.model, embeddings: inputs.map((text) => fakeVector(text, dimension)) } };
      },
    },
  ]);
}
