import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a tiny sentence-transformer folder for tests of the local ONNX provider, generated here so no
 * model is ever downloaded or committed: a BERT-style WordPiece `tokenizer.json`, `config.json`, and a
 * `model.onnx` whose graph is an embedding lookup:
 *
 *   last_hidden_state = tanh(word_embeddings[input_ids] + type_embeddings[token_type_ids]) * attention_mask
 *
 * Inputs and output have the names and shapes of a real BERT export, so the provider's tokenisation,
 * padding, masking, pooling and normalisation are exercised exactly as with all-MiniLM-L6-v2.
 * The ONNX protobuf is encoded by hand below (a few message types are enough).
 */
export interface TinyModelOptions {
  hiddenSize?: number;
  /** model_max_length written to tokenizer_config.json. */
  maxLength?: number;
  /** Write sentence-transformers' modules.json and 1_Pooling/config.json with this pooling. */
  pooling?: 'mean' | 'cls';
  /** Put the model at onnx/model.onnx (transformers.js layout) instead of model.onnx. */
  onnxSubfolder?: boolean;
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
const WORDS = [
  'the',
  'a',
  'cat',
  'dog',
  'sat',
  'on',
  'mat',
  'revenue',
  'grew',
  'quarter',
  'report',
  'hello',
  'world',
];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');

export function writeTinySentenceModel(folder: string, options: TinyModelOptions = {}): void {
  const hidden = options.hiddenSize ?? 8;
  const vocabList = [...SPECIAL, ...WORDS, ...LETTERS, ...LETTERS.map((l) => `##${l}`), '.', ',', '!', '?'];
  const vocab = Object.fromEntries(vocabList.map((token, id) => [token, id]));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  writeFileSync(
    join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      do_lower_case: true,
      model_max_length: options.maxLength ?? 128,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      tokenizer_class: 'BertTokenizer',
    }),
  );
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: hidden }));
  if (options.pooling) {
    writeFileSync(
      join(folder, 'modules.json'),
      JSON.stringify([
        { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
        { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
        { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
      ]),
    );
    mkdirSync(join(folder, '1_Pooling'), { recursive: true });
    writeFileSync(
      join(folder, '1_Pooling', 'config.json'),
      JSON.stringify({
        word_embedding_dimension: hidden,
        pooling_mode_cls_token: options.pooling === 'cls',
        pooling_mode_mean_tokens: options.pooling === 'mean',
      }),
    );
  }
  const modelDir = options.onnxSubfolder ? join(folder, 'onnx') : folder;
  mkdirSync(modelDir, { recursive: true });
  writeFileSync(join(modelDir, 'model.onnx'), tinyBertOnnx(vocabList.length, hidden));
}

function tokenizerJson(vocab: Record<string, number>) {
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

// ---- ONNX protobuf, just enough of it -------------------------------------------------------------

const FLOAT = 1;
const INT64 = 7;

function tinyBertOnnx(vocabSize: number, hidden: number): Uint8Array {
  const random = seeded(42);
  const wordEmbeddings = Float32Array.from({ length: vocabSize * hidden }, () => random() * 2 - 1);
  const typeEmbeddings = Float32Array.from({ length: 2 * hidden }, () => (random() * 2 - 1) * 0.1);
  const graph = message([
    field(1, node('Gather', ['word_embeddings', 'input_ids'], ['words'])),
    field(1, node('Gather', ['type_embeddings', 'token_type_ids'], ['types'])),
    field(1, node('Add', ['words', 'types'], ['summed'])),
    field(1, node('Tanh', ['summed'], ['activated'])),
    field(1, node('Cast', ['attention_mask'], ['mask_float'], [intAttribute('to', FLOAT)])),
    field(1, node('Unsqueeze', ['mask_float', 'last_axis'], ['mask3'])),
    field(1, node('Mul', ['activated', 'mask3'], ['last_hidden_state'])),
    field(2, text('tiny-bert')),
    field(5, tensor('word_embeddings', FLOAT, [vocabSize, hidden], Buffer.from(wordEmbeddings.buffer))),
    field(5, tensor('type_embeddings', FLOAT, [2, hidden], Buffer.from(typeEmbeddings.buffer))),
    field(5, tensor('last_axis', INT64, [1], Buffer.from(new BigInt64Array([2n]).buffer))),
    field(11, valueInfo('input_ids', INT64, ['batch', 'sequence'])),
    field(11, valueInfo('attention_mask', INT64, ['batch', 'sequence'])),
    field(11, valueInfo('token_type_ids', INT64, ['batch', 'sequence'])),
    field(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', hidden])),
  ]);
  const opset = message([field(1, text('')), varintField(2, 13)]);
  return message([varintField(1, 8), field(2, text('docsvc-test')), field(7, graph), field(8, opset)]);
}

function node(op: string, inputs: string[], outputs: string[], attributes: Uint8Array[] = []): Uint8Array {
  return message([
    ...inputs.map((name) => field(1, text(name))),
    ...outputs.map((name) => field(2, text(name))),
    field(3, text(`${op}_${outputs[0]}`)),
    field(4, text(op)),
    ...attributes.map((attribute) => field(5, attribute)),
  ]);
}

function intAttribute(name: string, value: number): Uint8Array {
  // AttributeProto: name = 1, i = 3, type = 20 (INT = 2)
  return message([field(1, text(name)), varintField(3, value), varintField(20, 2)]);
}

function tensor(name: string, type: number, dims: number[], raw: Uint8Array): Uint8Array {
  // TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9
  return message([
    ...dims.map((d) => varintField(1, d)),
    varintField(2, type),
    field(8, text(name)),
    field(9, raw),
  ]);
}

function valueInfo(name: string, type: number, shape: (number | string)[]): Uint8Array {
  const dims = shape.map((d) =>
    field(1, message([typeof d === 'number' ? varintField(1, d) : field(2, text(d))])),
  );
  const tensorType = message([varintField(1, type), field(2, message(dims))]);
  return message([field(1, text(name)), field(2, message([field(1, tensorType)]))]);
}

function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  let v = value;
  while (v > 127) {
    bytes.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return bytes;
}

function varintField(number: number, value: number): Uint8Array {
  return Uint8Array.from([...varint(number << 3), ...varint(value)]);
}

function field(number: number, payload: Uint8Array): Uint8Array {
  return Uint8Array.from([...varint((number << 3) | 2), ...varint(payload.length), ...payload]);
}

function message(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
