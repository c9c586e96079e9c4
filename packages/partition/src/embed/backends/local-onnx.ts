import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { ServiceError } from '../../errors.js';
import type { EmbeddingBackend } from '../provider.js';

/**
 * A sentence-transformer exported to ONNX, loaded from a folder the user gives (`embedding_model_path`):
 * the layout of a Hugging Face model repository as transformers.js and Optimum write it. Nothing is
 * downloaded. Read from the folder:
 * - `model.onnx` or `onnx/model.onnx` (inputs input_ids, attention_mask[, token_type_ids]; output
 *   `sentence_embedding` [batch, dim], or token vectors `last_hidden_state`/`token_embeddings` [batch, seq, dim]);
 * - `tokenizer.json` (+ `tokenizer_config.json`), run by @huggingface/tokenizers;
 * - optional `1_Pooling/config.json` (mean, cls or max pooling; mean by default),
 *   `sentence_bert_config.json` (max_seq_length), `modules.json` (a Normalize module → unit vectors;
 *   without modules.json vectors are normalised too, the usual choice for retrieval).
 */

type Pooling = 'mean' | 'cls' | 'max';

interface LoadedModel {
  session: InferenceSession;
  tokenizer: Tokenizer;
  Tensor: typeof Tensor;
  maxLength: number;
  pooling: Pooling;
  normalize: boolean;
  padId: number;
  dimension: number | undefined;
}

const MODEL_FILES = ['model.onnx', 'onnx/model.onnx'];

export function createOnnxFolderBackend(folder: string): EmbeddingBackend {
  const modelFile = MODEL_FILES.map((name) => join(folder, name)).find((path) => existsSync(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw invalidModel(`embedding_model_path "${folder}" is not a folder.`);
  }
  if (!modelFile) throw invalidModel(`No ONNX model in "${folder}": expected ${MODEL_FILES.join(' or ')}.`);
  if (!existsSync(join(folder, 'tokenizer.json'))) throw invalidModel(`No tokenizer.json in "${folder}".`);
  const config = readJson(join(folder, 'config.json'));
  const hiddenSize = typeof config?.hidden_size === 'number' ? config.hidden_size : undefined;

  let loaded: Promise<LoadedModel> | undefined;
  const load = () => {
    loaded ??= loadModel(folder, modelFile, hiddenSize);
    return loaded;
  };
  return {
    provider: 'local',
    model: basename(folder),
    maxBatchSize: 32,
    maxConcurrency: 1,
    sortByLength: true,
    knownDimension: hiddenSize,
    async embedBatch(texts) {
      return embedWith(await load(), texts);
    },
    async close() {
      if (loaded) await (await loaded).session.release();
    },
  };
}

async function loadModel(
  folder: string,
  modelFile: string,
  hiddenSize: number | undefined,
): Promise<LoadedModel> {
  const [ort, { Tokenizer }] = await Promise.all([
    import('onnxruntime-node'),
    import('@huggingface/tokenizers'),
  ]);
  const tokenizerConfig = readJson(join(folder, 'tokenizer_config.json')) ?? {};
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(readJson(join(folder, 'tokenizer.json')) ?? {}, tokenizerConfig);
  } catch (error) {
    throw invalidModel(`tokenizer.json in "${folder}" could not be read: ${(error as Error).message}`);
  }
  let session: InferenceSession;
  try {
    // One thread: the service already runs documents in parallel, and on the shared 2-core machine one
    // thread did ~1.9× more texts per CPU-second and ~1.4× more per second than ORT's default pool
    // (whose threads spin while waiting).
    session = await ort.InferenceSession.create(modelFile, {
      executionMode: 'sequential',
      intraOpNumThreads: 1,
    });
  } catch (error) {
    throw invalidModel(`${modelFile} is not a model onnxruntime can load: ${(error as Error).message}`);
  }
  if (!session.inputNames.includes('input_ids')) {
    throw invalidModel(`${modelFile} has no input_ids input (inputs: ${session.inputNames.join(', ')}).`);
  }
  const sentenceConfig = readJson(join(folder, 'sentence_bert_config.json'));
  const configuredMax = Number(sentenceConfig?.max_seq_length ?? tokenizerConfig.model_max_length);
  // Tokenizers without a limit store a huge sentinel (1e30) in model_max_length.
  const maxLength =
    Number.isFinite(configuredMax) && configuredMax > 2 && configuredMax < 100_000 ? configuredMax : 512;
  const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : '[PAD]';
  return {
    session,
    tokenizer,
    Tensor: ort.Tensor,
    maxLength,
    pooling: readPooling(folder),
    normalize: readNormalize(folder),
    padId: tokenizer.token_to_id(padToken) ?? 0,
    dimension: hiddenSize,
  };
}

async function embedWith(model: LoadedModel, texts: string[]): Promise<number[][]> {
  const encoded = texts.map((text) => {
    const encoding = model.tokenizer.encode(text, { return_token_type_ids: true });
    let ids: number[] = encoding.ids;
    let types: number[] = encoding.token_type_ids ?? ids.map(() => 0);
    if (ids.length > model.maxLength) {
      // Keep the closing special token ([SEP], </s>) the model saw in training.
      ids = [...ids.slice(0, model.maxLength - 1), ids.at(-1)!];
      types = [...types.slice(0, model.maxLength - 1), types.at(-1)!];
    }
    return { ids, types };
  });
  const batch = texts.length;
  const length = Math.max(1, ...encoded.map((e) => e.ids.length));
  const ids = new BigInt64Array(batch * length).fill(BigInt(model.padId));
  const mask = new BigInt64Array(batch * length);
  const types = new BigInt64Array(batch * length);
  encoded.forEach((e, row) => {
    e.ids.forEach((id, column) => {
      ids[row * length + column] = BigInt(id);
      mask[row * length + column] = 1n;
      types[row * length + column] = BigInt(e.types[column] ?? 0);
    });
  });
  const feeds: Record<string, Tensor> = {
    input_ids: new model.Tensor('int64', ids, [batch, length]),
  };
  if (model.session.inputNames.includes('attention_mask'))
    feeds.attention_mask = new model.Tensor('int64', mask, [batch, length]);
  if (model.session.inputNames.includes('token_type_ids'))
    feeds.token_type_ids = new model.Tensor('int64', types, [batch, length]);

  const outputs = await model.session.run(feeds);
  const outputName =
    ['sentence_embedding', 'last_hidden_state', 'token_embeddings'].find((name) => name in outputs) ??
    model.session.outputNames[0]!;
  const output = outputs[outputName]!;
  const data = output.data as Float32Array;
  const dims = output.dims;
  const vectors: number[][] = [];
  for (let row = 0; row < batch; row++) {
    let vector: number[];
    if (dims.length === 2) {
      const width = dims[1]!;
      vector = Array.from(data.subarray(row * width, (row + 1) * width));
    } else {
      vector = pool(data, dims, row, mask.subarray(row * length, (row + 1) * length), model.pooling);
    }
    vectors.push(model.normalize ? normalise(vector) : vector);
  }
  return vectors;
}

/** Pool the token vectors of one row; padded positions (mask 0) never count. */
function pool(
  data: Float32Array,
  dims: readonly number[],
  row: number,
  mask: BigInt64Array,
  pooling: Pooling,
): number[] {
  const seq = dims[1]!;
  const width = dims[2]!;
  const start = row * seq * width;
  if (pooling === 'cls') return Array.from(data.subarray(start, start + width));
  const result = new Array<number>(width).fill(pooling === 'max' ? Number.NEGATIVE_INFINITY : 0);
  let count = 0;
  for (let t = 0; t < seq; t++) {
    if (mask[t] !== 1n) continue;
    count++;
    const offset = start + t * width;
    for (let i = 0; i < width; i++) {
      const value = data[offset + i]!;
      result[i] = pooling === 'max' ? Math.max(result[i]!, value) : result[i]! + value;
    }
  }
  return pooling === 'max' ? result : result.map((value) => value / Math.max(1, count));
}

function normalise(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}

function readPooling(folder: string): Pooling {
  const config = readJson(join(folder, '1_Pooling', 'config.json'));
  if (config?.pooling_mode_cls_token === true) return 'cls';
  if (config?.pooling_mode_max_tokens === true) return 'max';
  return 'mean';
}

function readNormalize(folder: string): boolean {
  const modules = readJson(join(folder, 'modules.json'));
  if (!Array.isArray(modules)) return true;
  return modules.some((module) => typeof module?.type === 'string' && module.type.endsWith('Normalize'));
}

// biome-ignore lint/suspicious/noExplicitAny: configuration files are free-form JSON
function readJson(path: string): any {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw invalidModel(`${path} is not valid JSON.`);
  }
}

function invalidModel(message: string): ServiceError {
  return new ServiceError('invalid_option', message, {
    details: [{ field: 'embedding_model_path', message }],
  });
}
